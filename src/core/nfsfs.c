/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/nfsfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static bool nfsfs_server_is(const struct nfsfs_server *l, int major, const struct nfs_addr *addr,
                            unsigned port)
{
        return l->major == major && nfs_addr_equal(&l->addr, addr) && l->port == port;
}

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

/* A mount here whose endpoint this netns has no client for: another netns made it. */
static void mark_other_netns(struct clients *c, const struct nfsfs_server *lines, size_t n)
{
        for (size_t j = 0; j < c->n; j++) {
                const struct client_key *k = &c->v[j].key;
                bool listed = false;
                for (size_t i = 0; i < n && !listed; i++)
                        listed = nfsfs_server_is(&lines[i], k->vers.major, &k->addr, k->port);
                if (!listed)
                        c->v[j].other_netns = true;
        }
}

static int add_hidden(struct clients *c, const struct nfsfs_server *lines, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                size_t same = 0, visible = 0, already = 0;
                for (size_t j = 0; j < n; j++)
                        if (nfsfs_server_is(&lines[j], lines[i].major, &lines[i].addr,
                                            lines[i].port))
                                same++;
                for (size_t j = 0; j < c->n; j++) {
                        const struct client_key *k = &c->v[j].key;
                        if (!c->v[j].other_netns &&
                            nfsfs_server_is(&lines[i], k->vers.major, &k->addr, k->port))
                                *(c->v[j].hidden ? &already : &visible) += 1;
                }
                if (same <= visible + already)
                        continue;
                struct client_key k = { .addr = lines[i].addr, .port = lines[i].port,
                                        .transport = "tcp", .xprtsec = "none",
                                        .vers = { lines[i].major, -1 } };
                struct nfs_client *cl = clients_new(c, &k);
                if (!cl)
                        return -ENOMEM;
                cl->hidden = true;
        }
        return 0;
}

int clients_add_nfsfs_servers(struct clients *c, const char *text)
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
                if (array_grow(&lines, n) < 0)
                        return -ENOMEM;
                lines[n++] = s;
        }
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
