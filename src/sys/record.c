/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "shared/macro.h"
#include "sys/fileio.h"

static int record_path(const struct paths *p, const char *target, const char *prefix,
                       const char *suffix, char **ret)
{
        _cleanup_free_ char *name = NULL;
        int r = mount_record_name(target, &name);

        if (r < 0)
                return r;
        return asprintf(ret, "%s/" RECORD_SUBDIR "/%s%s%s", p->rundir, prefix, name, suffix) < 0 ?
                       -ENOMEM :
                       0;
}

static int make_dirs(const struct paths *p)
{
        _cleanup_free_ char *dir = NULL;
        int r = paths_mkdir(p, p->rundir, 0755);

        if (r < 0 && r != -EEXIST)
                return r;
        if (asprintf(&dir, "%s/" RECORD_SUBDIR, p->rundir) < 0)
                return -ENOMEM;
        r = paths_mkdir(p, dir, 0755);
        return r == -EEXIST ? 0 : r;
}

static int write_all(int fd, const char *text)
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

int record_write(const struct paths *p, const struct mount_record *rec)
{
        _cleanup_free_ char *text = NULL, *path = NULL, *tmp = NULL, *suffix = NULL;
        int r;

        if ((r = mount_record_format(rec, &text)) < 0 || (r = make_dirs(p)) < 0)
                return r;
        if (asprintf(&suffix, ".%ld.tmp", (long)getpid()) < 0)
                return -ENOMEM;
        if ((r = record_path(p, rec->target, "", "", &path)) < 0 ||
            (r = record_path(p, rec->target, ".", suffix, &tmp)) < 0)
                return r;
        int fd = paths_open(p, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0)
                return fd;
        r = write_all(fd, text);
        if (close(fd) < 0 && r == 0)
                r = -errno;
        if (r == 0)
                r = paths_rename(p, tmp, path);
        if (r < 0)
                (void)paths_unlink(p, tmp);
        return r;
}

int record_read(const struct paths *p, const char *target, struct mount_record *ret)
{
        _cleanup_free_ char *path = NULL, *text = NULL;
        int r;

        if ((r = record_path(p, target, "", "", &path)) < 0)
                return r;
        _cleanup_(closep) int fd = paths_open(p, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0);
        if (fd < 0)
                return fd;
        /* root writes the records: a file anyone else could have written is not used */
        if ((r = read_fd(fd, MOUNT_RECORD_MAX, geteuid() == 0, &text, NULL)) < 0)
                return r;
        return mount_record_parse(text, ret);
}
