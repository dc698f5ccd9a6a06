/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/pathsplit.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

int path_next_component(const char *path, size_t *pos, const char **ret, size_t *ret_len)
{
        const char *p = path + *pos;

        for (;;) {
                p += strspn(p, "/");
                size_t n = strcspn(p, "/");
                if (n == 0) {
                        *pos = (size_t)(p - path);
                        return 0;
                }
                if (n == 1 && p[0] == '.') {
                        p += n;
                        continue;
                }
                if (n > NAME_MAX)
                        return -ENAMETOOLONG;
                *ret = p;
                *ret_len = n;
                *pos = (size_t)(p + n - path);
                return 1;
        }
}

int path_join_rest(const char *target, const char *rest, char *buf, size_t size)
{
        size_t t = strlen(target), r = strlen(rest);

        /* target, '/', rest, NUL */
        if (t + 1 + r + 1 > size)
                return -ENAMETOOLONG;
        memcpy(buf, target, t);
        buf[t] = '/';
        memcpy(buf + t + 1, rest, r + 1);
        return 0;
}
