/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

int lock_server(const char *rundir, const char *name)
{
        char path[4096];
        int fd;

        if (mkdir(rundir, 0755) < 0 && errno != EEXIST)
                return -errno;
        /* the name is an address or a host name: no '/' can reach here */
        if (snprintf(path, sizeof(path), "%s/%s.lock", rundir, name) >= (int)sizeof(path))
                return -ENAMETOOLONG;
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
        if (fd < 0)
                return -errno;
        while (flock(fd, LOCK_EX) < 0) {
                if (errno != EINTR) {
                        int r = -errno;
                        close(fd);
                        return r;
                }
        }
        return fd;
}
