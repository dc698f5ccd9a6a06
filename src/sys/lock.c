/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/lock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "shared/macro.h"
#include "sys/paths.h"

/* Only the helper's own user (root) may own or write what it trusts there. */
static bool trusted(const struct stat *st)
{
        return st->st_uid == geteuid() && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

int rundir_open(const struct paths *p)
{
        struct stat st;
        int r = paths_mkdir(p, p->rundir, 0755);

        if (r < 0 && r != -EEXIST)
                return r;
        /* not through a link another user put there */
        int fd = paths_open(p, p->rundir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
        if (fd < 0)
                return fd;
        r = fstat(fd, &st) < 0 ? -errno : trusted(&st) ? 0 : -EPERM;
        if (r < 0) {
                close(fd);
                return r;
        }
        return fd;
}

int lock_server(int dirfd, const char *name, int timeout_ms)
{
        const struct timespec step = { 0, 50 * 1000000L };
        char file[NAME_MAX + 1];
        struct stat st;

        /* the name is an address: no '/' can reach here */
        if (snprintf(file, sizeof(file), "%s.lock", name) >= (int)sizeof(file))
                return -ENAMETOOLONG;
        int fd = openat(dirfd, file,
                        O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK, 0600);
        if (fd < 0)
                return -errno;
        /* a FIFO or another user's file is no lock of ours */
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !trusted(&st)) {
                close(fd);
                return -EPERM;
        }
        for (int waited = 0; flock(fd, LOCK_EX | LOCK_NB) < 0; waited += 50) {
                int r = errno;
                if ((r != EWOULDBLOCK && r != EINTR) || waited >= timeout_ms) {
                        close(fd);
                        return r == EWOULDBLOCK ? -ETIMEDOUT : -r;
                }
                nanosleep(&step, NULL);
        }
        return fd;
}
