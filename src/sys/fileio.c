/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shared/macro.h"

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

int write_file_atomic(const char *path, int (*fill)(FILE *f, void *arg), void *arg)
{
        _cleanup_free_ char *tmp = NULL;
        int fd, r;

        /* not *.prom, not .*: a collector that lists the directory skips it */
        if (asprintf(&tmp, "%s.tmp.XXXXXX", path) < 0)
                return -ENOMEM;
        if ((fd = mkostemp(tmp, O_CLOEXEC)) < 0)
                return -errno;
        FILE *f = fdopen(fd, "w");
        if (!f) {
                r = -errno;
                close(fd);
                unlink(tmp);
                return r;
        }
        r = fchmod(fd, 0644) < 0 ? -errno : fill(f, arg);
        if (r == 0 && (fflush(f) != 0 || fsync(fd) < 0))
                r = -errno;
        if (fclose(f) != 0 && r == 0)
                r = -errno;
        if (r == 0 && rename(tmp, path) < 0)
                r = -errno;
        if (r < 0)
                unlink(tmp);
        return r;
}

int write_all(int fd, const char *text)
{
        size_t len = strlen(text);

        while (len) {
                ssize_t n = write(fd, text, len);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        return -errno;
                text += n;
                len -= (size_t)n;
        }
        return 0;
}
