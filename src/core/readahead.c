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
                *ret = (struct read_ahead){ READ_AHEAD_KEEP, 0 };
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
                *ret = (struct read_ahead){ READ_AHEAD_RSIZE_MULT, n };
                return 0;
        }
        if (parse_uint(s, 1, READ_AHEAD_KB_MAX, &n) < 0)
                return -EINVAL;
        *ret = (struct read_ahead){ READ_AHEAD_KB, n };
        return 0;
}

const char *read_ahead_to_string(const struct read_ahead *ra, char buf[static READ_AHEAD_STRLEN])
{
        if (ra->kind == READ_AHEAD_KEEP)
                snprintf(buf, READ_AHEAD_STRLEN, "keep");
        else
                snprintf(buf, READ_AHEAD_STRLEN, "%lu%s", ra->n,
                         ra->kind == READ_AHEAD_RSIZE_MULT ? "x" : "");
        return buf;
}

unsigned long read_ahead_kb(const struct read_ahead *ra, unsigned long rsize)
{
        switch (ra->kind) {
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
                                       const dev_t *sbs, size_t nsbs)
{
        unsigned long kb = read_ahead_kb(ra, rsize);

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

enum read_ahead_udev read_ahead_udev_decide(bool udev_running, bool rule_last, bool udev_sees_mount)
{
        if (!udev_running)
                return READ_AHEAD_UDEV_NONE;
        /* the rule would leave nfsrahead's value on a mount it cannot see (exit 1: no write) */
        return rule_last && udev_sees_mount ? READ_AHEAD_UDEV_RULE : READ_AHEAD_UDEV_WAIT;
}
