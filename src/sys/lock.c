/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/lock.h"
#include "sys/paths.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int lock_server(const struct paths *p, const char *name, int timeout_ms)
{
        const struct timespec step = { 0, 50 * 1000000L };
        char path[PATH_MAX];
        int fd;

        fd = paths_mkdir(p, p->rundir, 0755);
        if (fd < 0 && fd != -EEXIST)
                return fd;
        /* the name is an address: no '/' can reach here */
        if (snprintf(path, sizeof(path), "%s/%s.lock", p->rundir, name) >= (int)sizeof(path))
                return -ENAMETOOLONG;
        fd = paths_open(p, path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
        if (fd < 0)
                return fd;
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
