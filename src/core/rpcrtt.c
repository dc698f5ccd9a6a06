/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/rpcrtt.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "shared/escape.h"
#include "shared/macro.h"

int rpc_op_parse(const char *text, uint64_t *ret_ops, uint64_t *ret_rtt_ms)
{
        uint64_t v[8];
        const char *p = text;
        char *end;

        /* the operation's name: capitals, digits and _ (the kernel's procedure names) */
        size_t len = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
        if (!len || p[len] != ':')
                return -EINVAL;
        p += len + 1;
        for (size_t i = 0; i < ELEMENTSOF(v); i++) {
                if (*p != ' ' || !isdigit((unsigned char)p[1]))
                        return -EINVAL;
                errno = 0;
                v[i] = strtoull(p + 1, &end, 10);
                if (errno)
                        return -EINVAL;
                p = end;
        }
        /* the errors column (since 5.3), or nothing */
        if (*p == ' ') {
                if (!isdigit((unsigned char)p[1]))
                        return -EINVAL;
                errno = 0;
                (void)strtoull(p + 1, &end, 10);
                if (errno)
                        return -EINVAL;
                p = end;
        }
        if (*p)
                return -EINVAL;
        *ret_ops = v[0];
        *ret_rtt_ms = v[6];
        return 0;
}

void rpc_rtt_add(struct rpc_rtt *sum, const char *text)
{
        uint64_t ops, rtt;

        if (rpc_op_parse(text, &ops, &rtt) < 0 || !ops)
                return;
        /* the kernel's counters, far below 2^64 summed */
        sum->ops += ops;
        sum->rtt_ms += rtt;
        sum->kinds++;
}

/* The `len` bytes at `s`, as the kernel escapes a path (\\ooo), are `target`. */
static bool escaped_is(const char *s, size_t len, const char *target)
{
        for (size_t i = 0; i < len; target++) {
                int c = escape_kernel_octal(s + i, len - i);
                char b = c >= 0 ? (char)c : s[i];
                i += c >= 0 ? 4 : 1;
                if (*target != b)
                        return false;
        }
        return *target == '\0';
}

/* "device SRC mounted on DIR with fstype nfs4 statvers=1.1" */
static bool device_is(const char *line, const char *target)
{
        const char *on = strstr(line, " mounted on "), *with;

        if (!on || !(with = strstr(on + 12, " with fstype nfs")))
                return false;
        const char *t = with + 16;
        if (!(*t == ' ' || *t == '\0' || (t[0] == '4' && (t[1] == ' ' || t[1] == '\0'))))
                return false;
        return escaped_is(on + 12, (size_t)(with - (on + 12)), target);
}

void rpc_rtt_feed(struct rpc_rtt_scan *s, const char *line)
{
        if (startswith(line, "device ")) {
                s->on = device_is(line, s->target);
                s->in_ops = false;
                if (s->on) {
                        s->found = true;
                        s->rtt = (struct rpc_rtt){ 0 };
                }
                return;
        }
        if (!s->on)
                return;
        const char *t = line + strspn(line, " \t");
        if (startswith(t, "per-op statistics"))
                s->in_ops = true;
        else if (s->in_ops)
                rpc_rtt_add(&s->rtt, t);
}
