/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "shared/log.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <syslog.h>

/* Longest syslog message; a longer one is cut. */
#define LOG_LINE_MAX 2048

static int verbose;
static bool to_syslog;

void log_set_verbose(int v)
{
        verbose = v;
}

int log_verbose(void)
{
        return verbose;
}

void log_open_syslog(const char *ident)
{
        openlog(ident, LOG_PID, LOG_DAEMON);
        to_syslog = true;
}

static int syslog_priority(enum severity sev)
{
        switch (sev) {
        case SEV_INFO:
                return LOG_INFO;
        case SEV_NOTICE:
                return LOG_NOTICE;
        case SEV_WARNING:
                return LOG_WARNING;
        case SEV_ERROR:
                break;
        }
        return LOG_ERR;
}

void log_at(enum severity sev, const char *fmt, ...)
{
        va_list ap;

        if (sev == SEV_INFO && !verbose)
                return;
        va_start(ap, fmt);
        if (to_syslog) {
                char buf[LOG_LINE_MAX];
                va_list aq;
                va_copy(aq, ap);
                vsnprintf(buf, sizeof(buf), fmt, aq);
                va_end(aq);
                syslog(syslog_priority(sev), "%s%s", severity_prefix(sev), buf);
        }
        /* stderr too: a person running it sees it; udev keeps it at debug level only */
        fprintf(stderr, "mount.nfs-tuned: %s", severity_prefix(sev));
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
}
