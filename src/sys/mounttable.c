/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/mounttable.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shared/macro.h"
#include "shared/log.h"

static inline void mnt_unref_tablep(struct libmnt_table **t)
{
        mnt_unref_table(*t);
}

static inline void mnt_free_iterp(struct libmnt_iter **i)
{
        mnt_free_iter(*i);
}

/* Reads a whole small file; -ENOENT when missing, -EFBIG when larger than max. */
static int read_fd(int fd, size_t max, bool check_owner, char **ret, size_t *ret_len)
{
        struct stat st;

        if (fstat(fd, &st) < 0)
                return -errno;
        if (!S_ISREG(st.st_mode))
                return -EINVAL;
        if (check_owner && (st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH))))
                return -EPERM;
        size_t cap = 4096, len = 0;
        _cleanup_free_ char *buf = malloc(cap + 1);
        if (!buf)
                return -ENOMEM;
        for (;;) {
                if (len == cap) {
                        if (cap >= max)
                                return -EFBIG;
                        cap *= 2;
                        char *n = realloc(buf, cap + 1);
                        if (!n)
                                return -ENOMEM;
                        buf = n;
                }
                ssize_t k = read(fd, buf + len, cap - len);
                if (k < 0 && errno == EINTR)
                        continue;
                if (k < 0)
                        return -errno;
                if (k == 0)
                        break;
                len += (size_t)k;
        }
        if (len > max)
                return -EFBIG;
        buf[len] = '\0';
        if (ret_len)
                *ret_len = len;
        *ret = steal_pointer(&buf);
        return 0;
}

static int read_file(const char *path, size_t max, bool check_owner, char **ret, size_t *ret_len)
{
        _cleanup_(closep) int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        return fd < 0 ? -errno : read_fd(fd, max, check_owner, ret, ret_len);
}

static int load_one(const char *path, bool check_owner, bool missing_ok, struct config *c)
{
        _cleanup_free_ char *text = NULL;
        size_t len = 0;
        int r = read_file(path, CONFIG_FILE_MAX, check_owner, &text, &len);

        if (r == -ENOENT && missing_ok)
                return 0;
        if (r == -EPERM)
                return config_add_error(c, "%s: not used: not owned by root or writable by group "
                                        "or others; fix with chown root:root and chmod 644", path);
        if (r == -EFBIG)
                return config_add_error(c, "%s: not used: larger than %d bytes", path, CONFIG_FILE_MAX);
        if (r < 0)
                return config_add_error(c, "%s: cannot be read: %s", path, strerror(-r));
        if (memchr(text, '\0', len))
                return config_add_error(c, "%s: not used: contains a NUL byte (not a text file)", path);
        return config_parse(c, path, text);
}

static int cmp_str(const void *a, const void *b)
{
        return strcmp(*(char *const *)a, *(char *const *)b);
}

int load_config(const char *path, bool check_owner, struct config *c)
{
        _cleanup_free_ char *dir = NULL;
        int r;

        if ((r = load_one(path, check_owner, true, c)) < 0)
                return r;
        if (asprintf(&dir, "%s.d", path) < 0)
                return -ENOMEM;
        DIR *d = opendir(dir);
        if (!d)
                return 0;
        struct stat st;
        if (check_owner && fstat(dirfd(d), &st) == 0 &&
            (st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH)))) {
                closedir(d);
                /* whoever may write the directory may add a file to it */
                return config_add_error(c, "%s: not used: not owned by root or writable by group "
                                        "or others; fix with chown root:root and chmod 755", dir);
        }
        char **names = NULL;
        size_t n = 0;
        struct dirent *de;
        while ((de = readdir(d))) {
                size_t len = strlen(de->d_name);
                if (de->d_name[0] == '.' || len < 6 || !streq(de->d_name + len - 5, ".conf"))
                        continue;
                char **nn = realloc(names, (n + 1) * sizeof(*nn));
                if (nn)
                        names = nn;
                if (!nn || !(names[n] = strdup(de->d_name))) {
                        for (size_t i = 0; i < n; i++)
                                free(names[i]);
                        free(names);
                        closedir(d);
                        return -ENOMEM;
                }
                n++;
        }
        closedir(d);
        qsort(names, n, sizeof(*names), cmp_str);
        r = 0;
        if (n > CONFIG_DROPINS_MAX)
                r = config_add_error(c, "%s: more than %d files; only the first %d (sorted) are "
                                     "used", dir, CONFIG_DROPINS_MAX, CONFIG_DROPINS_MAX);
        for (size_t i = 0; i < n; i++) {
                _cleanup_free_ char *f = NULL;
                if (r >= 0 && i < CONFIG_DROPINS_MAX && asprintf(&f, "%s/%s", dir, names[i]) >= 0)
                        r = load_one(f, check_owner, true, c);
                free(names[i]);
        }
        free(names);
        return r;
}

static int read_nfsfs(const struct paths *p, const char *name, char **ret)
{
        _cleanup_free_ char *path = NULL;
        if (asprintf(&path, "%s/%s", p->nfsfs, name) < 0)
                return -ENOMEM;
        _cleanup_(closep) int fd = paths_open(p, path, O_RDONLY | O_CLOEXEC | O_NOCTTY, 0);
        return fd < 0 ? fd : read_fd(fd, 16 * 1024 * 1024, false, ret, NULL);
}

static inline void fclosep(FILE **f)
{
        if (*f)
                fclose(*f);
}

static int scan_table(const struct paths *p, struct clients *c, const char *target,
                      struct nfs_mount *ret_target)
{
        _cleanup_(mnt_unref_tablep) struct libmnt_table *t = mnt_new_table();
        _cleanup_(mnt_free_iterp) struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
        struct libmnt_fs *fs;
        int r, found = -ENOENT;

        if (!t || !it)
                return -ENOMEM;
        int fd = paths_open(p, p->mountinfo, O_RDONLY | O_CLOEXEC, 0);
        if (fd < 0)
                return fd;
        _cleanup_(fclosep) FILE *f = fdopen(fd, "re");
        if (!f) {
                close(fd);
                return -errno;
        }
        r = mnt_table_parse_stream(t, f, p->mountinfo);
        if (r < 0)
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

int load_clients(const struct paths *p, struct clients *ret)
{
        struct clients c = { 0 };
        _cleanup_free_ char *servers = NULL;
        int r;

        if ((r = scan_table(p, &c, NULL, NULL)) < 0 || (r = clients_group(&c)) < 0)
                goto fail;
        /* no /proc/fs/nfsfs: the nfs module is not loaded, so no client exists */
        r = read_nfsfs(p, "servers", &servers);
        if (r == 0)
                r = clients_add_nfsfs_servers(&c, servers);
        if (r == -ENOMEM)
                goto fail;
        if (r < 0 && r != -ENOENT)
                log_warning("cannot read %s/servers: %s; clients of other mount namespaces are not "
                            "seen", p->nfsfs, strerror(-r));
        else if (r > 0)
                log_warning("%s/servers: %d lines not understood, skipped", p->nfsfs, r);
        *ret = c;
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

        if (read_nfsfs(p, "volumes", &volumes) == 0 && (r = nfsfs_volumes_parse(volumes, &v, &n)) < 0)
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
