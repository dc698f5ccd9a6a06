/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "shared/macro.h"
#include "sys/fileio.h"

long long clock_monotonic_ms(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000L;
}

int clock_boot_id(const struct paths *p, char buf[static BOOT_ID_STRLEN])
{
        _cleanup_free_ char *path = NULL, *text = NULL;
        int r;

        buf[0] = '\0';
        if (asprintf(&path, "%s/sys/kernel/random/boot_id", p->proc) < 0)
                return -ENOMEM;
        _cleanup_(closep) int fd = paths_open(p, path, O_RDONLY | O_CLOEXEC, 0);
        if (fd < 0)
                return fd;
        if ((r = read_fd(fd, 64, false, &text, NULL)) < 0)
                return r;
        text[strcspn(text, "\n")] = '\0';
        if (!boot_id_valid(text))
                return -EINVAL;
        memcpy(buf, text, BOOT_ID_STRLEN);
        return 0;
}
