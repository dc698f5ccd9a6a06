/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/mounttable.h"

#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/nfsfs.h"
#include "shared/array.h"
#include "shared/macro.h"
#include "sys/fileio.h"

/* Largest /proc/fs/nfsfs file read: thousands of clients fit. */
#define NFSFS_FILE_MAX (16 * 1024 * 1024)

static inline void mnt_free_iterp(struct libmnt_iter **i)
{
        mnt_free_iter(*i);
}

int read_nfsfs(const struct paths *p, const char *name, char **ret)
{
        _cleanup_free_ char *path = NULL;
        if (asprintf(&path, "%s/%s", p->nfsfs, name) < 0)
                return -ENOMEM;
        _cleanup_(closep) int fd = paths_open(p, path, O_RDONLY | O_CLOEXEC | O_NOCTTY, 0);
        return fd < 0 ? fd : read_fd(fd, NFSFS_FILE_MAX, false, ret, NULL);
}

/* One pass over mountinfo: libmount parses each entry and hands it here; none is kept. */
struct scan {
        const struct scan_filter *filter;
        struct clients *c; /* the mounts kept, or NULL (find_mount) */
        dev_t *sbs;        /* every NFS superblock seen, or NULL */
        size_t nsbs;
        const char *target; /* find_mount: the target, the last entry wins */
        struct nfs_mount *ret_target;
        int found;
        unsigned line0; /* lines of mountinfo before the chunk parsed now */
};

static bool wanted_address(const struct scan_filter *f, const char *super_opts)
{
        char *v;
        size_t n;
        struct nfs_addr a;
        char buf[NFS_ADDR_STRLEN];

        if (!f || !f->addrs)
                return true;
        if (mnt_optstr_get_option(super_opts, "addr", &v, &n) != 0 || n >= sizeof(buf))
                return false;
        memcpy(buf, v, n);
        buf[n] = '\0';
        if (nfs_addr_parse(buf, &a) < 0)
                return false;
        for (size_t i = 0; i < f->naddrs; i++)
                if (nfs_addr_equal(&a, &f->addrs[i]))
                        return true;
        return false;
}

static int keep_entry(struct scan *s, struct libmnt_fs *fs)
{
        const char *type = mnt_fs_get_fstype(fs), *opts = mnt_fs_get_fs_options(fs);
        struct nfs_mount m;

        if (!type || (!streq(type, "nfs") && !streq(type, "nfs4")))
                return 0;
        if (s->sbs) {
                if (array_grow(&s->sbs, s->nsbs) < 0)
                        return -ENOMEM;
                s->sbs[s->nsbs++] = mnt_fs_get_devno(fs);
        }
        if (s->filter && mnt_fs_get_id(fs) == s->filter->exclude_id)
                return 0;
        if (s->target ? !streq_ptr(mnt_fs_get_target(fs), s->target)
                      : !wanted_address(s->filter, opts))
                return 0;
        int r = nfs_mount_from_entry(type, opts, mnt_fs_get_target(fs), mnt_fs_get_source(fs),
                                     mnt_fs_get_devno(fs), &m);
        if (r == -ENOENT && s->c)
                /* which client it is cannot be told: said, not dropped silently */
                return clients_add_problem(s->c, 0, mnt_fs_get_id(fs), mnt_fs_get_target(fs),
                                           "an NFS mount without addr= (or one that cannot be "
                                           "read): its NFS client is not known");
        if (r < 0)
                return r == -ENOMEM ? r : 0;
        m.id = mnt_fs_get_id(fs);
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

/* Lines of mountinfo handed to libmount at a time: memory stays flat however long the table. */
#define SCAN_CHUNK (256 * 1024)

/* A line libmount cannot parse: skipped, as findmnt does, and recorded for status. */
static int parse_error(struct libmnt_table *t, const char *file, int line)
{
        struct scan *s = mnt_table_get_userdata(t);

        (void)file;
        if (s && s->c &&
            clients_add_problem(s->c, s->line0 + (unsigned)line, -1, NULL,
                                "cannot be parsed; skipped") < 0)
                return -ENOMEM;
        return 1;
}

/* libmount parses one chunk of whole lines; each entry is read, then the table is emptied. */
static int scan_chunk(struct libmnt_table *t, struct scan *s, char *buf, size_t len,
                      const char *name)
{
        _cleanup_(mnt_free_iterp) struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
        struct libmnt_fs *fs;
        FILE *f;
        int r;

        if (!it || !(f = fmemopen(buf, len, "r")))
                return -ENOMEM;
        mnt_table_set_userdata(t, s);
        mnt_table_set_parser_errcb(t, parse_error);
        r = mnt_table_parse_stream(t, f, name);
        fclose(f);
        while (r >= 0 && mnt_table_next_fs(t, it, &fs) == 0)
                r = keep_entry(s, fs);
        mnt_reset_table(t);
        return r;
}

static int scan_table(const struct paths *p, struct scan *s)
{
        _cleanup_(mnt_unref_tablep) struct libmnt_table *t = mnt_new_table();
        _cleanup_free_ char *buf = malloc(SCAN_CHUNK), *line = NULL;
        size_t len = 0, cap = 0;
        unsigned lineno = 0;
        ssize_t n;
        int r = 0;

        if (!t || !buf)
                return -ENOMEM;
        _cleanup_(fclosep) FILE *f = NULL;
        if ((r = open_mountinfo(p, -1, &f)) < 0)
                return r;
        errno = 0;
        while (r >= 0 && (n = getline(&line, &cap, f)) > 0) {
                lineno++;
                /* find_mount(): only the target's lines are parsed */
                if (s->target && !mountinfo_line_target_is(line, (size_t)n, s->target))
                        continue;
                if ((len + (size_t)n > SCAN_CHUNK || (size_t)n > SCAN_CHUNK) && len) {
                        r = scan_chunk(t, s, buf, len, p->mountinfo);
                        s->line0 = lineno - 1;
                        len = 0;
                }
                if ((size_t)n > SCAN_CHUNK) {
                        /* no mountinfo line is that long */
                        if (r >= 0 && s->c)
                                r = clients_add_problem(s->c, lineno, -1, NULL,
                                                        "longer than 256 KiB; skipped");
                        s->line0 = lineno;
                        continue;
                }
                memcpy(buf + len, line, (size_t)n);
                len += (size_t)n;
        }
        /* a directory, an I/O error: not an empty mount table */
        if (r >= 0 && ferror(f))
                r = errno ? -errno : -EIO;
        if (r >= 0 && len)
                r = scan_chunk(t, s, buf, len, p->mountinfo);
        return r;
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

int find_mount(const struct paths *p, const char *target, struct nfs_mount *ret)
{
        struct scan s = { .target = target, .ret_target = ret, .found = -ENOENT };
        int r = scan_table(p, &s);
        return r < 0 ? r : s.found;
}

int parse_mount_table(const struct paths *p, int fd, struct libmnt_table **ret)
{
        _cleanup_(mnt_unref_tablep) struct libmnt_table *t = mnt_new_table();
        int r;

        _cleanup_(fclosep) FILE *f = NULL;
        if (!t)
                return -ENOMEM;
        if ((r = open_mountinfo(p, fd, &f)) < 0)
                return r;
        if ((r = mnt_table_parse_stream(t, f, p->mountinfo)) < 0)
                return r;
        *ret = steal_pointer(&t);
        return 0;
}

int find_mount_by_dev(const struct paths *p, int fd, dev_t dev, struct nfs_mount *ret)
{
        _cleanup_(mnt_unref_tablep) struct libmnt_table *t = NULL;
        struct libmnt_fs *fs;
        int r;

        if ((r = parse_mount_table(p, fd, &t)) < 0)
                return r;
        /* the last line of the superblock: the mount made last */
        fs = mnt_table_find_devno(t, dev, MNT_ITER_BACKWARD);
        if (!fs)
                return -ENOENT;
        r = nfs_mount_from_entry(mnt_fs_get_fstype(fs), mnt_fs_get_fs_options(fs),
                                 mnt_fs_get_target(fs), mnt_fs_get_source(fs), dev, ret);
        return r == -ENOENT ? -EMEDIUMTYPE : r;
}
