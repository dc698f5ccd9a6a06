/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/nfsfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>

#include "shared/array.h"
#include "shared/macro.h"

/* Longer lines are cut: no valid line of these files comes near it. */
#define NFSFS_LINE_MAX 512

/* Copies the line at *p into buf (cut to its size) and moves *p past it; false at the end. */
static bool next_line(const char **p, char buf[static NFSFS_LINE_MAX])
{
        if (!*p || !**p)
                return false;
        const char *nl = strchr(*p, '\n');
        size_t len = nl ? (size_t)(nl - *p) : strlen(*p);
        snprintf(buf, NFSFS_LINE_MAX, "%.*s",
                 (int)(len < NFSFS_LINE_MAX ? len : NFSFS_LINE_MAX - 1), *p);
        *p = nl ? nl + 1 : NULL;
        return true;
}

/*
 * "NV SERVER   PORT USE HOSTNAME", then e.g. "v3 0a630001  801   2 10.99.0.1".  It shows
 * neither the minor version nor the transport, so a line counts as hidden only when there are
 * more lines for (major, address, port) than visible clients with those.
 */
struct nfsfs_server {
        int major;
        struct nfs_addr addr;
        unsigned port;
};

static int parse_server_line(const char *line, struct nfsfs_server *ret)
{
        char v[8], hex[40], port[8], *end;
        unsigned use;

        if (sscanf(line, "%7s %39s %7s %u", v, hex, port, &use) != 4 || v[0] != 'v' ||
            (v[1] != '2' && v[1] != '3' && v[1] != '4') || v[2] ||
            nfs_addr_parse_hex(hex, &ret->addr) < 0)
                return -EINVAL;
        unsigned long portnum = strtoul(port, &end, 16);
        if (*end || portnum > 65535)
                return -EINVAL;
        ret->major = v[1] - '0';
        ret->port = (unsigned)portnum;
        return 0;
}

static int server_cmp(const void *a, const void *b)
{
        const struct nfsfs_server *x = a, *y = b;
        if (x->major != y->major)
                return x->major < y->major ? -1 : 1;
        if (x->port != y->port)
                return x->port < y->port ? -1 : 1;
        if (x->addr.family != y->addr.family)
                return x->addr.family < y->addr.family ? -1 : 1;
        return memcmp(x->addr.b, y->addr.b, x->addr.family == AF_INET ? 4 : sizeof(x->addr.b));
}

static struct nfsfs_server server_of(const struct client_key *k)
{
        return (struct nfsfs_server){ .major = k->vers.major, .addr = k->addr, .port = k->port };
}

/* How many entries of the sorted v[0..n) equal *key. */
static size_t count_equal(const struct nfsfs_server *v, size_t n, const struct nfsfs_server *key)
{
        size_t lo = 0, hi = n;
        while (lo < hi) { /* the first not below key */
                size_t mid = lo + (hi - lo) / 2;
                if (server_cmp(&v[mid], key) < 0)
                        lo = mid + 1;
                else
                        hi = mid;
        }
        size_t k = lo;
        while (k < n && server_cmp(&v[k], key) == 0)
                k++;
        return k - lo;
}

/* A mount here whose endpoint this netns has no client for: another netns made it. */
static void mark_other_netns(struct clients *c, const struct nfsfs_server *lines, size_t n)
{
        for (size_t j = 0; j < c->n; j++) {
                struct nfsfs_server k = server_of(&c->v[j].key);
                if (!count_equal(lines, n, &k))
                        c->v[j].other_netns = true;
        }
}

/* Each (version, address, port) with more nfsfs lines than clients known has hidden ones. */
static int add_hidden(struct clients *c, const struct nfsfs_server *lines, size_t n)
{
        _cleanup_free_ struct nfsfs_server *visible = NULL;
        size_t nvisible = 0;

        if (n && !(visible = malloc(c->n ? c->n * sizeof(*visible) : 1)))
                return -ENOMEM;
        for (size_t j = 0; j < c->n && n; j++)
                /* hidden ones too: a second read of the file adds none again */
                if (!c->v[j].other_netns)
                        visible[nvisible++] = server_of(&c->v[j].key);
        if (nvisible)
                qsort(visible, nvisible, sizeof(*visible), server_cmp);
        for (size_t i = 0; i < n;) {
                size_t same = count_equal(lines + i, n - i, &lines[i]);
                size_t seen = count_equal(visible, nvisible, &lines[i]);
                for (size_t h = seen; h < same; h++) {
                        struct client_key k = { .addr = lines[i].addr,
                                                .port = lines[i].port,
                                                .transport = "tcp",
                                                .xprtsec = "none",
                                                .vers = { lines[i].major, -1 } };
                        struct nfs_client *cl = clients_new(c, &k);
                        if (!cl)
                                return -ENOMEM;
                        cl->hidden = true;
                }
                i += same;
        }
        return 0;
}

static bool wanted(const struct nfs_addr *a, const struct nfs_addr *addrs, size_t naddrs)
{
        if (!addrs)
                return true;
        for (size_t i = 0; i < naddrs; i++)
                if (nfs_addr_equal(a, &addrs[i]))
                        return true;
        return false;
}

int clients_add_nfsfs_servers(struct clients *c, const char *text, const struct nfs_addr *addrs,
                              size_t naddrs)
{
        _cleanup_free_ struct nfsfs_server *lines = NULL;
        char line[NFSFS_LINE_MAX];
        size_t n = 0;
        int bad = 0;

        if (!text)
                return 0; /* nothing known: no client marked */
        for (const char *p = text; next_line(&p, line);) {
                struct nfsfs_server s;
                if (strncmp(line, "NV ", 3) == 0 || !*line)
                        continue;
                if (parse_server_line(line, &s) < 0) {
                        bad++;
                        continue;
                }
                if (!wanted(&s.addr, addrs, naddrs))
                        continue;
                if (array_grow(&lines, n) < 0)
                        return -ENOMEM;
                lines[n++] = s;
        }
        /* sorted by (version, address, port): each question below is a search, not a scan */
        if (n)
                qsort(lines, n, sizeof(*lines), server_cmp);
        mark_other_netns(c, lines, n);
        return add_hidden(c, lines, n) < 0 ? -ENOMEM : bad;
}

/* "v3 0a630001  801 0:31  1:0  no": the superblock and, when asked, the server address. */
static int parse_volume_line(const char *line, dev_t *ret_dev, struct nfs_addr *ret_addr)
{
        char nv[8], hex[40], port[8];
        unsigned maj, min;

        if (sscanf(line, "%7s %39s %7s %u:%u", nv, hex, port, &maj, &min) != 5 || nv[0] != 'v' ||
            (ret_addr && nfs_addr_parse_hex(hex, ret_addr) < 0))
                return -EINVAL;
        *ret_dev = makedev(maj, min);
        return 0;
}

int nfsfs_volumes_parse(const char *text, dev_t **ret, size_t *ret_n)
{
        _cleanup_free_ dev_t *v = NULL;
        char line[NFSFS_LINE_MAX];
        size_t n = 0;

        for (const char *p = text; next_line(&p, line);) {
                dev_t dev;
                if (parse_volume_line(line, &dev, NULL) < 0)
                        continue;
                if (array_grow(&v, n) < 0)
                        return -ENOMEM;
                v[n++] = dev;
        }
        *ret = steal_pointer(&v);
        *ret_n = n;
        return 0;
}

int nfsfs_volume_find(const char *text, dev_t dev, struct nfs_addr *ret_addr)
{
        char line[NFSFS_LINE_MAX];

        for (const char *p = text; next_line(&p, line);) {
                struct nfs_addr a;
                dev_t d;
                if (parse_volume_line(line, &d, &a) < 0 || d != dev)
                        continue;
                *ret_addr = a;
                return 0;
        }
        return -ENOENT;
}
