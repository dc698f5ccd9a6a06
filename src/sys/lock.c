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
#include "sys/rundir.h"

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
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !rundir_trusted(&st)) {
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
