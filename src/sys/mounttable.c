/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/mounttable.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/mountinfo.h"
#include "core/nfsfs.h"
#include "core/opts.h"
#include "shared/array.h"
#include "shared/macro.h"
#include "sys/fileio.h"

/* Largest /proc/fs/nfsfs file read: thousands of clients fit. */
#define NFSFS_FILE_MAX (16 * 1024 * 1024)

int read_nfsfs(const struct paths *p, const char *name, char **ret)
{
        _cleanup_free_ char *path = NULL;
        if (asprintf(&path, "%s/%s", p->nfsfs, name) < 0)
                return -ENOMEM;
        _cleanup_(closep) int fd = paths_open(p, path, O_RDONLY | O_CLOEXEC | O_NOCTTY, 0);
        return fd < 0 ? fd : read_fd(fd, NFSFS_FILE_MAX, false, ret, NULL);
}

/* One pass over mountinfo: each line is split (core/mountinfo.c) and handed here; none is kept. */
struct scan {
        const struct scan_filter *filter;
        struct clients *c; /* the mounts kept, or NULL (find_mount) */
        dev_t *sbs;        /* every NFS superblock seen, or NULL */
        size_t nsbs;
        const char *target; /* find_mount: the target, the last entry wins */
        int parent;         /* find_mount: the parent mount's ID; -1: any */
        struct nfs_mount *ret_target;
        int found;
};

static bool wanted_address(const struct scan_filter *f, const char *super_opts)
{
        struct optspan o, addr = { 0 };
        struct nfs_addr a;
        char buf[NFS_ADDR_STRLEN];

        if (!f || !f->addrs)
                return true;
        while (optstr_next(&super_opts, &o) > 0)
                if (optspan_is(&o, "addr"))
                        addr = o;
        if (!optspan_value(&addr, buf, sizeof(buf)) || nfs_addr_parse(buf, &a) < 0)
                return false;
        for (size_t i = 0; i < f->naddrs; i++)
                if (nfs_addr_equal(&a, &f->addrs[i]))
                        return true;
        return false;
}

static bool is_nfs(const char *fstype)
{
        return streq(fstype, "nfs") || streq(fstype, "nfs4");
}

static int keep_entry(struct scan *s, const struct mountinfo_entry *e)
{
        struct nfs_mount m;

        if (!is_nfs(e->fstype))
                return 0;
        if (s->sbs) {
                if (array_grow(&s->sbs, s->nsbs) < 0)
                        return -ENOMEM;
                s->sbs[s->nsbs++] = e->dev;
        }
        if (s->filter && e->id == s->filter->exclude_id)
                return 0;
        /* on the target: a new mount on the directory's mount (its parent), or that mount
         * itself (a remount changes it in place); the last line is the top of the stack */
        if (s->target ? !streq(e->target, s->target) ||
                                (s->parent >= 0 && e->parent != s->parent && e->id != s->parent)
                      : !wanted_address(s->filter, e->super_opts))
                return 0;
        int r = nfs_mount_from_entry(e->fstype, e->super_opts, e->target, e->source, e->dev, &m);
        if (r == -ENOENT && s->c)
                /* which client it is cannot be told: said, not dropped silently */
                return clients_add_problem(s->c, 0, e->id, e->target,
                                           "an NFS mount without addr= (or one that cannot be "
                                           "read): its NFS client is not known");
        if (r < 0)
                return r == -ENOMEM ? r : 0;
        m.id = e->id;
        if (s->target) {
                /* the last entry on the target is the top of the stack */
                if (s->found == 0)
                        nfs_mount_done(s->ret_target);
                *s->ret_target = m;
                s->found = 0;
                return 0;
        }
        r = clients_add_mount(s->c, &m);
        if (r < 0)
                nfs_mount_done(&m);
        return r;
}

/* p->mountinfo as a stream: a copy of `fd` when >= 0 (the caller keeps its own), else opened. */
static int open_mountinfo(const struct paths *p, int fd, FILE **ret)
{
        if (fd < 0 && (fd = paths_open(p, p->mountinfo, O_RDONLY | O_CLOEXEC, 0)) < 0)
                return fd;
        else if (fd >= 0 && (fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0)
                return -errno;
        FILE *f = fdopen(fd, "re");
        if (!f) {
                int r = -errno;
                close(fd);
                return r;
        }
        *ret = f;
        return 0;
}

/*
 * Each line of mountinfo (read from `fd` when >= 0) to `each`, split; a line that is no
 * mountinfo line to `bad` with its number (skipped, as findmnt does).  Memory stays flat
 * however long the table: one line is held at a time.
 */
static int each_line(const struct paths *p, int fd,
                     int (*each)(void *, const struct mountinfo_entry *),
                     int (*bad)(void *, unsigned), void *userdata)
{
        _cleanup_(fclosep) FILE *f = NULL;
        _cleanup_free_ char *line = NULL;
        struct mountinfo_entry e;
        size_t cap = 0;
        unsigned lineno = 0;
        int r;

        if ((r = open_mountinfo(p, fd, &f)) < 0)
                return r;
        errno = 0;
        while (r >= 0 && getline(&line, &cap, f) > 0) {
                lineno++;
                r = mountinfo_split(line, &e) == 0 ? each(userdata, &e) : bad(userdata, lineno);
        }
        /* a directory, an I/O error: not an empty mount table */
        if (r >= 0 && ferror(f))
                r = errno ? -errno : -EIO;
        return r;
}

static int scan_each(void *userdata, const struct mountinfo_entry *e)
{
        return keep_entry(userdata, e);
}

/* A line that is no mountinfo line: recorded for status. */
static int scan_bad(void *userdata, unsigned lineno)
{
        struct scan *s = userdata;
        return s->c ? clients_add_problem(s->c, lineno, -1, NULL, "cannot be parsed; skipped") : 0;
}

static int scan_table(const struct paths *p, struct scan *s)
{
        return each_line(p, -1, scan_each, scan_bad, s);
}

/* Every NFS superblock of the network namespace (nfsfs volumes) and of this mount table. */
static int add_volumes(const struct paths *p, struct scan *s)
{
        _cleanup_free_ char *volumes = NULL;
        _cleanup_free_ dev_t *v = NULL;
        size_t n = 0;
        int r;

        if (read_nfsfs(p, "volumes", &volumes) < 0)
                return 0;
        if ((r = nfsfs_volumes_parse(volumes, &v, &n)) < 0)
                return r;
        for (size_t i = 0; i < n; i++) {
                if (array_grow(&s->sbs, s->nsbs) < 0)
                        return -ENOMEM;
                s->sbs[s->nsbs++] = v[i];
        }
        return 0;
}

int nfsfs_add_servers(const struct paths *p, const struct scan_filter *f, struct clients *c,
                      struct nfsfs_status *ret_status)
{
        _cleanup_free_ char *servers = NULL;
        /* no /proc/fs/nfsfs: the nfs module is not loaded, so no client exists */
        int r = read_nfsfs(p, "servers", &servers);

        if (r == 0)
                r = clients_add_nfsfs_servers(c, servers, f ? f->addrs : NULL, f ? f->naddrs : 0);
        *ret_status = (struct nfsfs_status){ 0 };
        if (r > 0)
                ret_status->bad_lines = r;
        else if (r < 0 && r != -ENOENT && r != -ENOMEM)
                ret_status->error = r;
        ret_status->missing = r == -ENOENT;
        return r == -ENOMEM ? r : 0;
}

int scan_nfs_mounts(const struct paths *p, const struct scan_filter *f, struct clients *c,
                    dev_t **ret_sbs, size_t *ret_nsbs)
{
        struct scan s = { .filter = f, .c = c };
        int r;

        if (ret_sbs && array_grow(&s.sbs, 0) < 0)
                return -ENOMEM;
        if ((r = scan_table(p, &s)) < 0 || (ret_sbs && (r = add_volumes(p, &s)) < 0)) {
                free(s.sbs);
                return r;
        }
        if (ret_sbs) {
                *ret_sbs = s.sbs;
                *ret_nsbs = s.nsbs;
        }
        return 0;
}

int find_mount(const struct paths *p, const char *target, int parent, struct nfs_mount *ret)
{
        struct scan s = { .target = target, .parent = parent, .ret_target = ret, .found = -ENOENT };
        int r = scan_table(p, &s);
        return r < 0 ? r : s.found;
}

/* find_mount_by_dev(): the last line of the superblock, the mount made last. */
struct by_dev {
        dev_t dev;
        struct nfs_mount *ret;
        int found;
};

static int by_dev_each(void *userdata, const struct mountinfo_entry *e)
{
        struct by_dev *b = userdata;
        struct nfs_mount m;

        if (e->dev != b->dev)
                return 0;
        int r = nfs_mount_from_entry(e->fstype, e->super_opts, e->target, e->source, e->dev, &m);
        if (r == -ENOMEM)
                return r;
        if (b->found == 0)
                nfs_mount_done(b->ret);
        b->found = r == -ENOENT ? -EMEDIUMTYPE : r;
        if (r == 0)
                *b->ret = m;
        return 0;
}

static int by_dev_bad(void *userdata, unsigned lineno)
{
        (void)userdata;
        (void)lineno;
        return 0;
}

int find_mount_by_dev(const struct paths *p, int fd, dev_t dev, struct nfs_mount *ret)
{
        struct by_dev b = { .dev = dev, .ret = ret, .found = -ENOENT };
        int r = each_line(p, fd, by_dev_each, by_dev_bad, &b);
        if (r < 0 && b.found == 0)
                nfs_mount_done(ret);
        return r < 0 ? r : b.found;
}
