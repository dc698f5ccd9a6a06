/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/mountstats.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>

#include "shared/macro.h"
#include "sys/clock.h"
#include "sys/fileio.h"

int load_mountstats(const struct paths *p, struct mountstats *ret)
{
        _cleanup_(fclosep) FILE *f = NULL;
        _cleanup_free_ char *line = NULL;
        size_t size = 0;
        ssize_t n;
        int r = 0;

        /* its ages count to the moment each line was made: between these two readings */
        (void)clock_boot_id(p, ret->boot_id);
        ret->read_start_ms = clock_monotonic_ms();
        _cleanup_(closep) int fd = paths_open(p, p->mountstats, O_RDONLY | O_CLOEXEC, 0);
        if (fd < 0 || !(f = fdopen(fd, "re")))
                return fd < 0 ? fd : -errno;
        fd = -1;
        errno = 0;
        while (r == 0 && (n = getline(&line, &size, f)) > 0) {
                if (line[n - 1] == '\n')
                        line[n - 1] = '\0';
                r = mountstats_feed(ret, line);
        }
        ret->read_end_ms = clock_monotonic_ms();
        /* a directory, an I/O error: not a file without mounts */
        if (r == 0 && ferror(f))
                r = errno ? -errno : -EIO;
        return r;
}
