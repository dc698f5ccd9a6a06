/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The chaser's path splitting (core/pathsplit.c): components and a link's target joined with
 * what is left, as sys/chase.c walks them. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/pathsplit.h"
#include "fuzz.h"

/* Every component: not empty, no '/', no ".", within NAME_MAX; the position only advances. */
static void walk(const char *path)
{
        const char *c;
        size_t pos = 0, len, last = 0;
        int r;

        while ((r = path_next_component(path, &pos, &c, &len)) == 1) {
                if (len == 0 || len > NAME_MAX || memchr(c, '/', len) ||
                    (len == 1 && c[0] == '.') || pos <= last || c < path + last ||
                    c + len != path + pos)
                        abort();
                last = pos;
        }
        if (r != 0 && r != -ENAMETOOLONG)
                abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        char *text = fuzz_string(data, size), joined[PATH_MAX];

        if (!text)
                return 0;
        walk(text);
        /* the input split at its first newline: a link's target, and the rest of a path */
        char *nl = strchr(text, '\n');
        if (nl) {
                *nl = '\0';
                if (path_join_rest(text, nl + 1, joined, sizeof(joined)) == 0) {
                        if (strlen(joined) != strlen(text) + 1 + strlen(nl + 1))
                                abort();
                        walk(joined);
                }
        }
        free(text);
        return 0;
}
