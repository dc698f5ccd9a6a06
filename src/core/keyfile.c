/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/keyfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "shared/macro.h"

/* One line, p[0..n): split at its first '='. */
static int keyfile_line(const char *p, size_t n, int flags,
                        int (*set)(void *ctx, const char *key, const char *value), void *ctx)
{
        _cleanup_free_ char *line = strndup(p, n);
        char *eq = line ? strchr(line, '=') : NULL;

        if (!line)
                return -ENOMEM;
        if (!eq)
                return flags & KEYFILE_STRICT ? -EINVAL : 0;
        *eq = '\0';
        return set(ctx, line, eq + 1);
}

int keyfile_parse(const char *text, const char *header, int flags,
                  int (*set)(void *ctx, const char *key, const char *value), void *ctx)
{
        size_t hl = strlen(header);
        const char *p = text + hl;
        int r = 0;

        if (strncmp(text, header, hl) != 0 || (*p != '\n' && (flags & KEYFILE_STRICT || *p)))
                return -EINVAL;
        p += *p == '\n';
        while (*p && r == 0) {
                size_t n = strcspn(p, "\n");
                r = keyfile_line(p, n, flags, set, ctx);
                p += n + (p[n] == '\n');
        }
        return r;
}
