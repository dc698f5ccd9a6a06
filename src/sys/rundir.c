/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/rundir.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "shared/macro.h"
#include "sys/chase.h"

bool rundir_trusted(const struct stat *st)
{
        /* root's (the helper's, run by root or setuid) or the user's own (a reader, a test) */
        return (st->st_uid == 0 || st->st_uid == geteuid()) && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

/* The fd when it is a directory of ours, else -EPERM (or -errno); the fd is closed then. */
static int keep_if_trusted(int fd)
{
        struct stat st;
        int r;

        if (fd < 0)
                return fd;
        r = fstat(fd, &st) < 0 ? -errno : rundir_trusted(&st) ? 0 : -EPERM;
        if (r < 0) {
                close(fd);
                return r;
        }
        return fd;
}

int rundir_open(const struct paths *p, bool create)
{
        int r = create ? paths_mkdir(p, p->rundir, 0755) : 0;

        if (r < 0 && r != -EEXIST)
                return r;
        /* not through a link or directory another user controls (sys/chase.c) */
        return keep_if_trusted(chase_at(AT_FDCWD, p->rootfd, p->rundir, CHASE_NOFOLLOW,
                                        O_RDONLY | O_DIRECTORY, NULL));
}

bool rundir_private(const struct stat *st)
{
        return st->st_uid == geteuid() && !(st->st_mode & (S_IRWXG | S_IRWXO));
}

/*
 * A writer's directory with more mode bits than `mode` (one an older version made 0755) is
 * narrowed: only while it is ours, so that no one else's directory is changed.
 */
static int narrow(int fd, mode_t mode)
{
        struct stat st;

        if (fd < 0 || fstat(fd, &st) < 0 || st.st_uid != geteuid() || !(st.st_mode & ~mode & 0777))
                return fd;
        if (fchmod(fd, mode) == 0)
                return fd;
        int r = -errno;
        close(fd);
        return r;
}

int rundir_subdir(int dirfd, const char *name, mode_t mode, bool create)
{
        if (create && mkdirat(dirfd, name, mode) < 0 && errno != EEXIST)
                return -errno;
        int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        fd = keep_if_trusted(fd < 0 ? -errno : fd);
        return create ? narrow(fd, mode) : fd;
}

int rundir_open_sub(const struct paths *p, const char *name, mode_t mode, bool create)
{
        _cleanup_(closep) int run = rundir_open(p, create);
        return run < 0 ? run : rundir_subdir(run, name, mode, create);
}
