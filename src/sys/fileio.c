/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shared/macro.h"
#include "sys/chase.h"

int read_fd(int fd, size_t max, bool check_owner, char **ret, size_t *ret_len)
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

/* The directory of `path` chased (sys/chase.c) and its last component. */
static int open_parent(const char *path, struct chase_refusal *why, char **ret_base)
{
        const char *slash = strrchr(path, '/');
        _cleanup_free_ char *dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");

        if (!dir || !(*ret_base = strdup(slash ? slash + 1 : path)))
                return -ENOMEM;
        if (!**ret_base)
                return -EISDIR;
        return chase_at(AT_FDCWD, -1, *dir ? dir : "/", 0, O_RDONLY | O_DIRECTORY, why);
}

/* A new file of that directory's, not there before: ".<base>.<pid>.<n>.tmp"-like. */
static int create_temp(int dir, const char *base, char **ret)
{
        for (unsigned n = 0; n < 100; n++) {
                _cleanup_free_ char *tmp = NULL;
                /* not *.prom, not .*: a collector that lists the directory skips it */
                if (asprintf(&tmp, "%s.tmp.%ld.%u", base, (long)getpid(), n) < 0)
                        return -ENOMEM;
                int fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                                0644);
                if (fd >= 0) {
                        *ret = steal_pointer(&tmp);
                        return fd;
                }
                if (errno != EEXIST)
                        return -errno;
        }
        return -EEXIST;
}

/* The one atomic write: a temporary file, synced, renamed over `name`; `keep` returns the
 * written file's fd (close-on-exec) instead of 0. */
static int atomic_write(int dir, const char *name, const char *text, size_t len, bool keep)
{
        _cleanup_free_ char *tmp = NULL;
        int fd = create_temp(dir, name, &tmp);
        int r;

        if (fd < 0)
                return fd;
        r = fchmod(fd, 0644) < 0 ? -errno : write_full(fd, text, len);
        if (r == 0 && fsync(fd) < 0)
                r = -errno;
        /* closed before the rename, its error counted, unless the caller keeps it */
        if (!keep || r < 0) {
                if (close(fd) < 0 && r == 0)
                        r = -errno;
                fd = -1;
        }
        /* relative to the directory checked: a link planted meanwhile changes nothing */
        if (r == 0 && renameat(dir, tmp, dir, name) < 0)
                r = -errno;
        if (r < 0) {
                (void)unlinkat(dir, tmp, 0);
                if (fd >= 0)
                        close(fd);
                return r;
        }
        return keep ? fd : 0;
}

int write_file_atomic_at(int dir, const char *name, const char *text, size_t len)
{
        return atomic_write(dir, name, text, len, false);
}

int write_file_atomic_keep(int dir, const char *name, const char *text, size_t len)
{
        return atomic_write(dir, name, text, len, true);
}

int write_file_atomic(const char *path, const char *text, size_t len,
                      struct chase_refusal *ret_refusal)
{
        _cleanup_free_ char *base = NULL;
        struct chase_refusal why;

        _cleanup_(closep) int dir = open_parent(path, ret_refusal ? ret_refusal : &why, &base);
        return dir < 0 ? dir : write_file_atomic_at(dir, base, text, len);
}

int write_full(int fd, const char *buf, size_t len)
{
        while (len) {
                ssize_t n = write(fd, buf, len);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        return -errno;
                buf += n;
                len -= (size_t)n;
        }
        return 0;
}

int write_all(int fd, const char *text)
{
        return write_full(fd, text, strlen(text));
}
