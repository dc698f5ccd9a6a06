/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "shared/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int verbose;

void log_set_verbose(int v)
{
        verbose = v;
}

int log_verbose(void)
{
        return verbose;
}

/* Control bytes from the input (a path, a spec, a config line) never reach the terminal or the
 * journal raw: a newline could forge a second message. */
static void put_escaped(const char *s)
{
        for (; *s; s++) {
                unsigned char c = (unsigned char)*s;
                if (c < 0x20 || c == 0x7f)
                        fprintf(stderr, "\\x%02x", c);
                else
                        fputc(c, stderr);
        }
}

void log_at(enum severity sev, const char *fmt, ...)
{
        va_list ap;
        char *text;
        int r;

        if (sev == SEV_INFO && !verbose)
                return;
        va_start(ap, fmt);
        r = vasprintf(&text, fmt, ap);
        va_end(ap);
        fprintf(stderr, "mount.nfs-tuned: %s", severity_prefix(sev));
        put_escaped(r < 0 ? "(out of memory)" : text);
        fputc('\n', stderr);
        if (r >= 0)
                free(text);
}
