/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "shared/log.h"

#include <stdarg.h>
#include <stdio.h>

static int verbose;

void log_set_verbose(int v)
{
        verbose = v;
}

int log_verbose(void)
{
        return verbose;
}

void log_at(enum severity sev, const char *fmt, ...)
{
        va_list ap;

        if (sev == SEV_INFO && !verbose)
                return;
        fprintf(stderr, "mount.nfs-tuned: %s", severity_prefix(sev));
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
}
