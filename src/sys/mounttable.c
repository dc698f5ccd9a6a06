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

int parse_mount_table(const struct paths *p, int fd, struct libmnt_table **ret)
{
        _cleanup_(mnt_unref_tablep) struct libmnt_table *t = mnt_new_table();
        int r;

        if (!t)
                return -ENOMEM;
        if (fd < 0 && (fd = paths_open(p, p->mountinfo, O_RDONLY | O_CLOEXEC, 0)) < 0)
                return fd;
        else if (fd >= 0 && (fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0)
                return -errno;
        _cleanup_(fclosep) FILE *f = fdopen(fd, "re");
        if (!f) {
                close(fd);
                return -errno;
        }
        if ((r = mnt_table_parse_stream(t, f, p->mountinfo)) < 0)
                return r;
        *ret = steal_pointer(&t);
        return 0;
}

static int scan_table(const struct paths *p, struct clients *c, const char *target,
                      struct nfs_mount *ret_target)
{
        _cleanup_(mnt_unref_tablep) struct libmnt_table *t = NULL;
        _cleanup_(mnt_free_iterp) struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
        struct libmnt_fs *fs;
        int r, found = -ENOENT;

        if (!it)
                return -ENOMEM;
        if ((r = parse_mount_table(p, -1, &t)) < 0)
                return r;
        while (mnt_table_next_fs(t, it, &fs) == 0) {
                struct nfs_mount m;
                if (nfs_mount_from_entry(mnt_fs_get_fstype(fs), mnt_fs_get_fs_options(fs),
                                         mnt_fs_get_target(fs), mnt_fs_get_source(fs),
                                         mnt_fs_get_devno(fs), &m) < 0)
                        continue;
                if (target) {
                        /* the last entry on the target is the top of the stack */
                        if (streq(m.target, target)) {
                                if (found == 0)
                                        nfs_mount_done(ret_target);
                                *ret_target = m;
                                found = 0;
                        } else
                                nfs_mount_done(&m);
                        continue;
                }
                if ((r = clients_add_mount(c, &m)) < 0) {
                        nfs_mount_done(&m);
                        return r;
                }
        }
        return target ? found : 0;
}

int load_clients(const struct paths *p, struct clients *ret, struct nfsfs_status *ret_nfsfs)
{
        struct clients c = { 0 };
        _cleanup_free_ char *servers = NULL;
        struct nfsfs_status st = { 0 };
        int r;

        if ((r = scan_table(p, &c, NULL, NULL)) < 0 || (r = clients_group(&c)) < 0)
                goto fail;
        /* no /proc/fs/nfsfs: the nfs module is not loaded, so no client exists */
        r = read_nfsfs(p, "servers", &servers);
        if (r == 0)
                r = clients_add_nfsfs_servers(&c, servers);
        if (r == -ENOMEM)
                goto fail;
        if (r > 0)
                st.bad_lines = r;
        else if (r < 0 && r != -ENOENT)
                st.error = r;
        *ret = c;
        *ret_nfsfs = st;
        return 0;
fail:
        clients_done(&c);
        return r;
}

int load_superblocks(const struct paths *p, const struct clients *c, dev_t **ret, size_t *ret_n)
{
        _cleanup_free_ char *volumes = NULL;
        dev_t *v = NULL;
        size_t n = 0;
        int r;

        if (read_nfsfs(p, "volumes", &volumes) == 0 &&
            (r = nfsfs_volumes_parse(volumes, &v, &n)) < 0)
                return r;
        dev_t *nv = realloc(v, (n + c->nmounts + 1) * sizeof(*v));
        if (!nv) {
                free(v);
                return -ENOMEM;
        }
        v = nv;
        for (size_t i = 0; i < c->nmounts; i++)
                v[n++] = c->mounts[i].dev;
        *ret = v;
        *ret_n = n;
        return 0;
}

int find_mount(const struct paths *p, const char *target, struct nfs_mount *ret)
{
        return scan_table(p, NULL, target, ret);
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
