/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "shared/log.h"

#include <stdarg.h>
#include <stdio.h>

static int verbose;

void report_set_verbose(int v)
{
        verbose = v;
}

int report_verbose(void)
{
        return verbose;
}

_printf_(2, 0) static void out(const char *lead, const char *fmt, va_list ap)
{
        fprintf(stderr, "mount.nfs-tuned: %s", lead);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
}

void log_error(const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        out("", fmt, ap);
        va_end(ap);
}

void log_warning(const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        out("warning: ", fmt, ap);
        va_end(ap);
}

void log_info(const char *fmt, ...)
{
        va_list ap;
        if (!verbose)
                return;
        va_start(ap, fmt);
        out("", fmt, ap);
        va_end(ap);
}
