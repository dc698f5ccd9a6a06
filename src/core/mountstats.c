/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/mountstats.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "shared/array.h"
#include "shared/macro.h"

void mountstats_done(struct mountstats *s)
{
        for (size_t i = 0; i < s->n; i++)
                free(s->v[i].target);
        free(s->v);
        hindex_done(&s->index);
        *s = (struct mountstats){ 0 };
}

/* The kernel escapes space, tab, newline and backslash as \ooo (seq_escape). */
static char *unescape(const char *s, size_t len)
{
        char *out = malloc(len + 1), *o = out;

        if (!out)
                return NULL;
        for (size_t i = 0; i < len; i++) {
                if (s[i] == '\\' && i + 3 < len && s[i + 1] >= '0' && s[i + 1] <= '3' &&
                    s[i + 2] >= '0' && s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
                        *o++ =
                            (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + s[i + 3] - '0');
                        i += 3;
                } else
                        *o++ = s[i];
        }
        *o = '\0';
        return out;
}

static uint64_t target_hash(const char *t)
{
        return hash_bytes(HASH_INIT, t, strlen(t));
}

/* "device SRC mounted on DIR with fstype TYPE ..." */
static int feed_device(struct mountstats *s, const char *line)
{
        const char *on = strstr(line, " mounted on "), *with, *type;

        s->in_nfs = false;
        if (!on || !(with = strstr(on + 12, " with fstype ")))
                return 0;
        type = with + 13;
        size_t tlen = strcspn(type, " ");
        if (!((tlen == 3 && !strncmp(type, "nfs", 3)) || (tlen == 4 && !strncmp(type, "nfs4", 4))))
                return 0;
        if (array_grow(&s->v, s->n) < 0)
                return -ENOMEM;
        char *target = unescape(on + 12, (size_t)(with - (on + 12)));
        if (!target || hindex_add(&s->index, target_hash(target), s->n) < 0) {
                free(target);
                return -ENOMEM;
        }
        s->v[s->n++] = (struct mountstats_entry){ .target = target };
        s->in_nfs = true;
        return 0;
}

int mountstats_feed(struct mountstats *s, const char *line)
{
        if (startswith(line, "device "))
                return feed_device(s, line);
        const char *t = line + strspn(line, " \t");
        if (s->in_nfs && startswith(t, "xprt:"))
                s->v[s->n - 1].xprts++;
        return 0;
}

int mountstats_take(struct mountstats *s, const char *target)
{
        size_t pos = 0, id, best = SIZE_MAX;

        while (hindex_next(&s->index, target_hash(target), &pos, &id))
                if (!s->v[id].taken && streq(s->v[id].target, target) && id < best)
                        best = id;
        if (best == SIZE_MAX)
                return -1;
        s->v[best].taken = true;
        return (int)s->v[best].xprts;
}
