/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/rpcrtt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>

#include "shared/macro.h"
#include "sys/fileio.h"

int read_rpc_rtt(const struct paths *p, const char *target, struct rpc_rtt *ret)
{
        _cleanup_(fclosep) FILE *f = NULL;
        _cleanup_free_ char *line = NULL;
        struct rpc_rtt_scan s = { .target = target };
        size_t size = 0;
        ssize_t n;

        _cleanup_(closep) int fd = paths_open(p, p->mountstats, O_RDONLY | O_CLOEXEC, 0);
        if (fd < 0 || !(f = fdopen(fd, "re")))
                return fd < 0 ? fd : -errno;
        fd = -1;
        errno = 0;
        while ((n = getline(&line, &size, f)) > 0) {
                if (line[n - 1] == '\n')
                        line[n - 1] = '\0';
                rpc_rtt_feed(&s, line);
        }
        if (ferror(f))
                return errno ? -errno : -EIO;
        if (!s.found)
                return -ESRCH;
        *ret = s.rtt;
        return 0;
}
