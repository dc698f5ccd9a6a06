/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "shared/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
 * journal raw: a newline could forge a second message.  One write per message: stderr is
 * unbuffered. */
static void put_line(const char *prefix, const char *text)
{
        size_t n = strlen(prefix) + 4 * strlen(text) + 2;
        _cleanup_free_ char *buf = malloc(n);
        char *q = buf;

        if (!buf) {
                fprintf(stderr, "%s(out of memory)\n", prefix);
                return;
        }
        q = stpcpy(q, prefix);
        for (const unsigned char *p = (const unsigned char *)text; *p; p++)
                q += *p < 0x20 || *p == 0x7f ? sprintf(q, "\\x%02x", *p) : (*q = (char)*p, 1);
        *q++ = '\n';
        fwrite(buf, 1, (size_t)(q - buf), stderr);
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
        char prefix[64];
        snprintf(prefix, sizeof(prefix), "mount.nfs-tuned: %s", severity_prefix(sev));
        put_line(prefix, r < 0 ? "(out of memory)" : text);
        if (r >= 0)
                free(text);
}
