/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/mountstats.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/opts.h"
#include "shared/array.h"
#include "shared/escape.h"
#include "shared/macro.h"

void mountstats_done(struct mountstats *s)
{
        for (size_t i = 0; i < s->n; i++) {
                free(s->v[i].target);
                free(s->v[i].xprts);
        }
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
                int c = escape_kernel_octal(s + i, len - i);
                if (c >= 0) {
                        *o++ = (char)c;
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

        s->in_nfs = s->in_ops = false;
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
        s->v[s->n++] = (struct mountstats_entry){ .target = target, .age_s = -1 };
        s->in_nfs = true;
        return 0;
}

/* Where a transport's figures sit among the numbers of its line (net/sunrpc: xs_*_print_stats,
 * xprt_rdma_print_stats); -1: not shown. */
static const struct xprt_layout {
        const char *proto;
        size_t numbers; /* how many the kernel writes (rdma: at least) */
        bool at_least;
        int srcport, sends, recvs, backlog, pending;
} layouts[] = {
        { "tcp", 13, false, 0, 5, 6, 9, 12 },
        { "rdma", 13, true, 0, 5, 6, 9, 12 },
        { "udp", 10, false, 0, 2, 3, 6, 9 },
        { "local", 12, false, -1, 4, 5, 8, 11 },
};

#define XPRT_NUMBERS_MAX 64

/* Up to `max` decimal numbers separated by blanks, to the end of the text; -EINVAL otherwise. */
static int read_numbers(const char *p, uint64_t *v, size_t max, size_t *ret_n)
{
        size_t n = 0;

        for (;;) {
                p += strspn(p, " \t");
                if (!*p)
                        break;
                if (n == max)
                        return -EINVAL;
                bool neg = *p == '-';
                size_t len = strspn(p + neg, "0123456789");
                if (len == 0 || len > 20 || (p[neg + len] && !strchr(" \t", p[neg + len])))
                        return -EINVAL;
                /* a negative idle time reads as 0; no figure used here is signed */
                v[n++] = neg ? 0 : strtoull(p + neg, NULL, 10);
                p += neg + len;
        }
        *ret_n = n;
        return 0;
}

int mountstats_parse_xprt(const char *text, struct xprt_stats *ret)
{
        const char *p = text + strspn(text, " \t");
        size_t plen = strcspn(p, " \t"), n;
        uint64_t v[XPRT_NUMBERS_MAX];

        for (size_t i = 0; i < ELEMENTSOF(layouts); i++) {
                const struct xprt_layout *l = &layouts[i];
                if (strlen(l->proto) != plen || strncmp(p, l->proto, plen) != 0)
                        continue;
                if (read_numbers(p + plen, v, ELEMENTSOF(v), &n) < 0 || n < l->numbers ||
                    (!l->at_least && n != l->numbers) || (l->srcport >= 0 && v[l->srcport] > 65535))
                        return -EINVAL;
                *ret = (struct xprt_stats){ .srcport = l->srcport >= 0 ? (unsigned)v[l->srcport]
                                                                       : 0,
                                            .sends = v[l->sends],
                                            .recvs = v[l->recvs],
                                            .backlog = v[l->backlog],
                                            .pending = v[l->pending] };
                snprintf(ret->proto, sizeof(ret->proto), "%s", l->proto);
                return 0;
        }
        return -EINVAL;
}

static int feed_xprt(struct mountstats_entry *e, const char *text)
{
        struct xprt_stats x;

        if (mountstats_parse_xprt(text, &x) < 0) {
                e->bad_xprts++;
                return 0;
        }
        if (array_grow(&e->xprts, e->nxprts) < 0)
                return -ENOMEM;
        e->xprts[e->nxprts++] = x;
        return 0;
}

int mountstats_feed(struct mountstats *s, const char *line)
{
        if (startswith(line, "device "))
                return feed_device(s, line);
        const char *t = line + strspn(line, " \t");
        if (!s->in_nfs)
                return 0;
        if (startswith(t, "xprt:"))
                return feed_xprt(&s->v[s->n - 1], t + 5);
        if (startswith(t, "age:") && !s->in_ops) {
                unsigned long age;
                if (parse_uint(t + 4 + strspn(t + 4, " \t"), 0, LONG_MAX, &age) == 0)
                        s->v[s->n - 1].age_s = (long)age;
                return 0;
        }
        if (startswith(t, "per-op statistics"))
                s->in_ops = true;
        else if (s->in_ops)
                rpc_rtt_add(&s->v[s->n - 1].rtt, t);
        return 0;
}

/* the kernel's jiffies follow CLOCK_MONOTONIC tick by tick: a tick or two either way */
#define JIFFIES_SLACK_MS 100

struct mount_when mountstats_when(const struct mountstats *s, const struct mountstats_entry *e)
{
        struct mount_when w = { 0 };

        memcpy(w.boot_id, s->boot_id, sizeof(w.boot_id));
        if (!e || e->age_s < 0 || !s->read_start_ms || s->read_end_ms < s->read_start_ms)
                return w;
        /* age = floor((now - made) / 1 s), `now` between the two readings */
        w.lo_ms = s->read_start_ms - (e->age_s + 1) * 1000LL - JIFFIES_SLACK_MS;
        w.hi_ms = s->read_end_ms - e->age_s * 1000LL + JIFFIES_SLACK_MS;
        w.known = true;
        return w;
}

const struct mountstats_entry *mountstats_take(struct mountstats *s, const char *target)
{
        size_t pos = 0, id, best = SIZE_MAX;

        while (hindex_next(&s->index, target_hash(target), &pos, &id))
                if (!s->v[id].taken && streq(s->v[id].target, target) && id < best)
                        best = id;
        if (best == SIZE_MAX)
                return NULL;
        s->v[best].taken = true;
        return &s->v[best];
}

/* The switch of the transport to `addr` from local port `srcport`; SIZE_MAX when none. */
static size_t switch_by_port(const struct nfs_addr *addr, unsigned srcport,
                             const struct xprt_state *v, size_t n)
{
        for (size_t k = 0; srcport && k < n; k++)
                if (v[k].srcport == srcport && nfs_addr_equal(&v[k].addr, addr))
                        return k;
        return SIZE_MAX;
}

/* The transports of the switch of v[k], and those offline. */
static void switch_counts(const struct xprt_state *v, size_t n, size_t k, unsigned *ret_total,
                          unsigned *ret_offline)
{
        *ret_total = *ret_offline = 0;
        for (size_t j = 0; j < n; j++)
                if (v[j].switch_id == v[k].switch_id) {
                        (*ret_total)++;
                        *ret_offline += v[j].offline;
                }
}

/* Every transport of the switch of v[k] goes to addr:port. */
static bool switch_to(const struct xprt_state *v, size_t n, size_t k, const struct nfs_addr *addr,
                      unsigned port)
{
        for (size_t j = 0; j < n; j++)
                if (v[j].switch_id == v[k].switch_id &&
                    (!nfs_addr_equal(&v[j].addr, addr) || v[j].port != port))
                        return false;
        return true;
}

/* The only switch to addr:port of `count` transports, with or without those offline;
 * SIZE_MAX when none or several. */
static size_t switch_by_count(const struct nfs_addr *addr, unsigned port, size_t count,
                              const struct xprt_state *v, size_t n)
{
        size_t found = SIZE_MAX;
        unsigned total, offline;

        for (size_t k = 0; k < n; k++) {
                bool first = true;
                for (size_t j = 0; j < k && first; j++)
                        first = v[j].switch_id != v[k].switch_id;
                switch_counts(v, n, k, &total, &offline);
                if (!first || !switch_to(v, n, k, addr, port) ||
                    (total != count && total - offline != count))
                        continue;
                if (found != SIZE_MAX)
                        return SIZE_MAX; /* two alike: which one is not known */
                found = k;
        }
        return found;
}

int mountstats_switch(const struct mountstats_entry *e, const struct nfs_addr *addr, unsigned port,
                      const struct xprt_state *v, size_t n, unsigned *ret_total,
                      unsigned *ret_offline)
{
        size_t k;

        if (!e->nxprts)
                return -ENOENT;
        if ((k = switch_by_port(addr, e->xprts[0].srcport, v, n)) == SIZE_MAX &&
            (k = switch_by_count(addr, port, e->nxprts, v, n)) == SIZE_MAX)
                return -ENOENT;
        switch_counts(v, n, k, ret_total, ret_offline);
        return 0;
}
