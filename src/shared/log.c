/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "shared/log.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "shared/escape.h"

static int verbose;
static bool to_syslog;
static const char *log_name = "mount.nfs-tuned";

void log_set_name(const char *name)
{
        log_name = name;
}

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
        case SEV_INFO: return LOG_INFO;
        case SEV_NOTICE: return LOG_NOTICE;
        case SEV_WARNING: return LOG_WARNING;
        case SEV_ERROR: break;
        }
        return LOG_ERR;
}

void log_at(enum severity sev, const char *fmt, ...)
{
        _cleanup_free_ char *msg = NULL, *safe = NULL;
        va_list ap;

        if (sev == SEV_INFO && !verbose)
                return;
        va_start(ap, fmt);
        if (vasprintf(&msg, fmt, ap) < 0)
                msg = NULL;
        va_end(ap);
        /* control bytes from the input (a path, a spec, a config line) never reach the terminal
         * or the journal raw: a newline could forge a second message (shared/escape.c); out of
         * memory: the format alone still says which message it was */
        safe = escape_text(msg ? msg : fmt, ESCAPE_CONTROL);
        if (to_syslog)
                syslog(syslog_priority(sev), "%s%s", severity_prefix(sev), safe ? safe : fmt);
        /* stderr too, in one write (it is unbuffered): a person running it sees it; udev keeps
         * it at debug level */
        fprintf(stderr, "%s: %s%s\n", log_name, severity_prefix(sev), safe ? safe : fmt);
}
