/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/readahead.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "shared/macro.h"
#include "core/opts.h"

int read_ahead_parse(const char *s, struct read_ahead *ret)
{
        char buf[32];
        unsigned long n;
        size_t len;

        if (!s)
                return -EINVAL;
        if (streq(s, "keep")) {
                *ret = (struct read_ahead){ READ_AHEAD_KEEP, 0, 0 };
                return 0;
        }
        if (streq(s, "auto")) {
                *ret = (struct read_ahead){ READ_AHEAD_AUTO, READ_AHEAD_AUTO_MAX,
                                            READ_AHEAD_BW_DEFAULT };
                return 0;
        }
        if (startswith(s, "auto:")) {
                if (parse_uint(s + 5, READ_AHEAD_AUTO_MIN, READ_AHEAD_KB_MAX, &n) < 0)
                        return -EINVAL;
                *ret = (struct read_ahead){ READ_AHEAD_AUTO, n, READ_AHEAD_BW_DEFAULT };
                return 0;
        }
        len = strlen(s);
        if (len == 0 || len >= sizeof(buf))
                return -EINVAL;
        if (s[len - 1] == 'x') {
                memcpy(buf, s, len - 1);
                buf[len - 1] = '\0';
                if (parse_uint(buf, 1, READ_AHEAD_MULT_MAX, &n) < 0)
                        return -EINVAL;
                *ret = (struct read_ahead){ READ_AHEAD_RSIZE_MULT, n, 0 };
                return 0;
        }
        if (parse_uint(s, 1, READ_AHEAD_KB_MAX, &n) < 0)
                return -EINVAL;
        *ret = (struct read_ahead){ READ_AHEAD_KB, n, 0 };
        return 0;
}

const char *read_ahead_to_string(const struct read_ahead *ra, char buf[static READ_AHEAD_STRLEN])
{
        if (ra->kind == READ_AHEAD_KEEP)
                snprintf(buf, READ_AHEAD_STRLEN, "keep");
        else if (ra->kind == READ_AHEAD_AUTO && ra->n == READ_AHEAD_AUTO_MAX)
                snprintf(buf, READ_AHEAD_STRLEN, "auto");
        else if (ra->kind == READ_AHEAD_AUTO)
                snprintf(buf, READ_AHEAD_STRLEN, "auto:%lu", ra->n);
        else
                snprintf(buf, READ_AHEAD_STRLEN, "%lu%s", ra->n,
                         ra->kind == READ_AHEAD_RSIZE_MULT ? "x" : "");
        return buf;
}

static unsigned long auto_kb(const struct read_ahead *ra, unsigned long rsize, unsigned conns,
                             unsigned long rtt_us)
{
        unsigned long cap = ra->n < READ_AHEAD_AUTO_MIN ? READ_AHEAD_AUTO_MIN : ra->n;

        if (!rtt_us)
                return cap;
        /* what the path holds in one round trip, in KiB (MiB/s x 1024 x us / 10^6), plus one
         * read of rsize in flight on each connection (its time on the wire adds to the round
         * trip) */
        unsigned long long want = ((unsigned long long)ra->bw * 1024 * rtt_us + 999999) / 1000000;
        want += (unsigned long long)(conns ? conns : 1) * (rsize / 1024);
        unsigned long kb = READ_AHEAD_AUTO_MIN;
        while (kb < want && kb < cap)
                kb *= 2;
        return kb > cap ? cap : kb;
}

unsigned long read_ahead_rtt_us(unsigned long long ops, unsigned long long rtt_ms, unsigned kinds)
{
        if (!ops)
                return 0;
        unsigned long long us = (rtt_ms * 1000 + kinds * 500ULL) / ops;
        return us ? (unsigned long)(us > 60000000ULL ? 60000000ULL : us) : 1;
}

unsigned long read_ahead_kb(const struct read_ahead *ra, unsigned long rsize, unsigned conns,
                            unsigned long rtt_us)
{
        switch (ra->kind) {
        case READ_AHEAD_AUTO: return auto_kb(ra, rsize, conns, rtt_us);
        case READ_AHEAD_KB: return ra->n;
        case READ_AHEAD_RSIZE_MULT: {
                unsigned long kb = ra->n * (rsize / 1024);
                return kb > READ_AHEAD_KB_MAX ? READ_AHEAD_KB_MAX : kb;
        }
        case READ_AHEAD_KEEP: break;
        }
        return 0;
}

struct read_ahead_plan read_ahead_plan(const struct read_ahead *ra, dev_t dev, unsigned long rsize,
                                       unsigned conns, unsigned long rtt_us, const dev_t *sbs,
                                       size_t nsbs)
{
        unsigned long kb = read_ahead_kb(ra, rsize, conns, rtt_us);

        if (!kb)
                return (struct read_ahead_plan){ READ_AHEAD_LEAVE, 0 };
        /* only a new superblock has a bdi of its own */
        for (size_t i = 0; i < nsbs; i++)
                if (sbs[i] == dev)
                        return (struct read_ahead_plan){ READ_AHEAD_SHARED, kb };
        return (struct read_ahead_plan){ READ_AHEAD_WRITE, kb };
}

bool read_ahead_readback_ok(unsigned long wanted, unsigned long now, unsigned long page_kb)
{
        return now == wanted || (page_kb && now == wanted / page_kb * page_kb);
}

enum read_ahead_udev read_ahead_udev_decide(bool udev_running, bool rule_last, bool udev_sees_mount,
                                            bool auto_window)
{
        if (!udev_running)
                return READ_AHEAD_UDEV_NONE;
        /* the rule would leave nfsrahead's value on a mount it cannot see (exit 1: no write) */
        return rule_last && udev_sees_mount && !auto_window ? READ_AHEAD_UDEV_RULE
                                                            : READ_AHEAD_UDEV_WAIT;
}
