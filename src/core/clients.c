/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/clients.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>

#include "shared/macro.h"
#include "core/opts.h"

void nfs_mount_done(struct nfs_mount *m)
{
        free(m->target);
        free(m->source);
        *m = (struct nfs_mount){ 0 };
}

void clients_done(struct clients *c)
{
        for (size_t i = 0; i < c->nmounts; i++)
                nfs_mount_done(&c->mounts[i]);
        free(c->mounts);
        for (size_t i = 0; i < c->n; i++)
                free(c->v[i].mounts);
        free(c->v);
        *c = (struct clients){ 0 };
}

int nfs_mount_from_entry(const char *fstype, const char *super_opts, const char *target,
                         const char *source, dev_t dev, struct nfs_mount *ret)
{
        struct optlist l = { 0 };
        struct nfs_mount m = { .dev = dev, .port = 2049, .transport = "tcp", .xprtsec = "none",
                               .nconnect = 1 };
        const struct opt *o;
        unsigned long u;
        int r = -ENOENT;

        if (!fstype || (!streq(fstype, "nfs") && !streq(fstype, "nfs4")))
                return -ENOENT;
        if (optlist_parse(&l, super_opts) < 0)
                goto out;
        /* no addr= (e.g. a local "nfs" over a unix socket): nothing the kernel keys on */
        if (!(o = optlist_find(&l, "addr")) || nfs_addr_parse(o->value, &m.addr) < 0)
                goto out;
        if (!(o = optlist_find(&l, "vers")) || nfs_version_parse(o->value, &m.vers) < 0)
                m.vers = (struct nfs_version){ streq(fstype, "nfs4") ? 4 : 3, 0 };
        if (m.vers.major == 4 && m.vers.minor < 0)
                m.vers.minor = 0;
        if ((o = optlist_find(&l, "proto")) && o->value) {
                size_t n = strcspn(o->value, "6");
                snprintf(m.transport, sizeof(m.transport), "%.*s", (int)n, o->value);
        }
        if ((o = optlist_find(&l, "port")) && parse_uint(o->value, 1, 65535, &u) == 0)
                m.port = (unsigned)u;
        if ((o = optlist_find(&l, "xprtsec")) && o->value)
                snprintf(m.xprtsec, sizeof(m.xprtsec), "%s", o->value);
        if ((o = optlist_find(&l, "nconnect")) && parse_uint(o->value, 1, 1024, &u) == 0)
                m.nconnect = (unsigned)u;
        if ((o = optlist_find(&l, "rsize")))
                (void)parse_uint(o->value, 0, 1UL << 30, &m.rsize);
        m.target = strdup(target ? target : "");
        m.source = strdup(source ? source : "");
        if (!m.target || !m.source) {
                nfs_mount_done(&m);
                r = -ENOMEM;
                goto out;
        }
        *ret = m;
        r = 0;
out:
        optlist_done(&l);
        return r;
}

int clients_add_mount(struct clients *c, struct nfs_mount *m)
{
        struct nfs_mount *v = realloc(c->mounts, (c->nmounts + 1) * sizeof(*v));
        if (!v)
                return -ENOMEM;
        c->mounts = v;
        v[c->nmounts++] = *m;
        *m = (struct nfs_mount){ 0 };
        return 0;
}

bool client_key_equal(const struct client_key *a, const struct client_key *b)
{
        return nfs_addr_equal(&a->addr, &b->addr) && a->port == b->port &&
               streq(a->transport, b->transport) && streq(a->xprtsec, b->xprtsec) &&
               a->vers.major == b->vers.major && a->vers.minor == b->vers.minor;
}

struct client_key client_key_of(const struct nfs_mount *m)
{
        struct client_key k = { .addr = m->addr, .port = m->port, .vers = m->vers };
        memcpy(k.transport, m->transport, sizeof(k.transport));
        memcpy(k.xprtsec, m->xprtsec, sizeof(k.xprtsec));
        return k;
}

static struct nfs_client *new_client(struct clients *c, const struct client_key *k)
{
        struct nfs_client *v = realloc(c->v, (c->n + 1) * sizeof(*v));
        if (!v)
                return NULL;
        c->v = v;
        v[c->n] = (struct nfs_client){ .key = *k };
        return &v[c->n++];
}

int clients_group(struct clients *c)
{
        for (size_t i = 0; i < c->nmounts; i++) {
                struct client_key k = client_key_of(&c->mounts[i]);
                struct nfs_client *cl = NULL;
                for (size_t j = 0; j < c->n; j++)
                        if (!c->v[j].hidden && client_key_equal(&c->v[j].key, &k))
                                cl = &c->v[j];
                if (!cl) {
                        cl = new_client(c, &k);
                        if (!cl)
                                return -ENOMEM;
                        /* every mount of one client shows the client's nconnect */
                        cl->nconnect = c->mounts[i].nconnect;
                }
                size_t *mv = realloc(cl->mounts, (cl->nmounts + 1) * sizeof(*mv));
                if (!mv)
                        return -ENOMEM;
                cl->mounts = mv;
                mv[cl->nmounts++] = i;
        }
        return 0;
}

/*
 * /proc/fs/nfsfs/servers: "NV SERVER   PORT USE HOSTNAME", then e.g.
 * "v3 0a630001  801   2 10.99.0.1".  It shows neither the minor version nor the transport,
 * so a line counts as hidden only when there are more lines for (major, address, port) than
 * visible clients with those.
 */
/* One line of /proc/fs/nfsfs/servers: all it tells of a client. */
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

int clients_add_nfsfs_servers(struct clients *c, const char *text)
{
        int bad = 0;
        size_t nlines = 0;
        struct nfsfs_server *lines = NULL;

        if (!text)
                return 0; /* nothing known: no client marked */
        for (const char *p = text; p && *p;) {
                const char *nl = strchr(p, '\n');
                size_t len = nl ? (size_t)(nl - p) : strlen(p);
                char line[512], v[8], hex[40], port[8];
                unsigned use;
                struct nfs_addr a;
                unsigned long portnum;

                snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) ? len : sizeof(line) - 1), p);
                p = nl ? nl + 1 : NULL;
                if (strncmp(line, "NV ", 3) == 0 || !*line)
                        continue;
                if (sscanf(line, "%7s %39s %7s %u", v, hex, port, &use) != 4 || v[0] != 'v' ||
                    (v[1] != '2' && v[1] != '3' && v[1] != '4') || v[2] ||
                    nfs_addr_parse_hex(hex, &a) < 0) {
                        bad++;
                        continue;
                }
                char *end;
                portnum = strtoul(port, &end, 16);
                if (*end || portnum > 65535) {
                        bad++;
                        continue;
                }
                void *nv = realloc(lines, (nlines + 1) * sizeof(*lines));
                if (!nv) {
                        free(lines);
                        return -ENOMEM;
                }
                lines = nv;
                lines[nlines].major = v[1] - '0';
                lines[nlines].addr = a;
                lines[nlines].port = (unsigned)portnum;
                nlines++;
        }

        /* a mount here whose endpoint this netns has no client for: another netns made it */
        for (size_t j = 0; j < c->n; j++) {
                const struct client_key *k = &c->v[j].key;
                bool listed = false;
                for (size_t i = 0; i < nlines && !listed; i++)
                        listed = nfsfs_server_is(&lines[i], k->vers.major, &k->addr, k->port);
                if (!listed)
                        c->v[j].other_netns = true;
        }

        for (size_t i = 0; i < nlines; i++) {
                size_t same = 0, visible = 0, already = 0;
                for (size_t j = 0; j < nlines; j++)
                        if (nfsfs_server_is(&lines[j], lines[i].major, &lines[i].addr, lines[i].port))
                                same++;
                for (size_t j = 0; j < c->n; j++) {
                        const struct client_key *k = &c->v[j].key;
                        if (!c->v[j].other_netns &&
                            nfsfs_server_is(&lines[i], k->vers.major, &k->addr, k->port))
                                *(c->v[j].hidden ? &already : &visible) += 1;
                }
                if (same > visible + already) {
                        struct client_key k = { .addr = lines[i].addr, .port = lines[i].port,
                                                .transport = "tcp", .xprtsec = "none",
                                                .vers = { lines[i].major, -1 } };
                        struct nfs_client *cl = new_client(c, &k);
                        if (!cl) {
                                free(lines);
                                return -ENOMEM;
                        }
                        cl->hidden = true;
                }
        }
        free(lines);
        return bad;
}

bool client_endpoint_equal(const struct client_key *k, const struct nfs_request *req,
                           const struct nfs_addr *a)
{
        return nfs_addr_equal(&k->addr, a) && k->port == req->port &&
               streq(k->transport, req->transport) && streq(k->xprtsec, req->xprtsec);
}

static bool version_matches(struct nfs_version have, struct nfs_version want)
{
        if (want.major == 0)
                return false;
        if (have.major != want.major)
                return false;
        if (have.major != 4)
                return true;
        /* a minor left to negotiation cannot be matched before the mount */
        if (want.minor < 0)
                return false;
        /* a hidden v4 client's minor is unknown (/proc/fs/nfsfs does not show it): it may be
         * this one, and whether it is cannot be told; count it as shared, the safe side */
        return have.minor < 0 || have.minor == want.minor;
}

void clients_match(const struct clients *c, const struct nfs_request *req,
                   const struct nfs_addr *addr, struct client_match *ret)
{
        struct client_match m = { 0 };

        for (size_t i = 0; i < c->n; i++) {
                const struct nfs_client *cl = &c->v[i];
                if (cl->other_netns || !client_endpoint_equal(&cl->key, req, addr))
                        continue;
                if (version_matches(cl->key.vers, req->vers)) {
                        m.client = cl;
                        m.nmaybe = 0;
                        break;
                }
                /* the version a negotiation may land on */
                bool maybe = req->vers.major == 0 ||
                             (req->vers.major == 4 && cl->key.vers.major == 4 && req->vers.minor < 0);
                if (maybe && m.nmaybe < ELEMENTSOF(m.maybe))
                        m.maybe[m.nmaybe++] = cl;
        }
        *ret = m;
}

int nfsfs_volumes_parse(const char *text, dev_t **ret, size_t *ret_n)
{
        dev_t *v = NULL;
        size_t n = 0;

        for (const char *p = text; p && *p;) {
                const char *nl = strchr(p, '\n');
                char line[512], nv[8], hex[40], port[8];
                unsigned maj, min;
                size_t len = nl ? (size_t)(nl - p) : strlen(p);

                snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) ? len : sizeof(line) - 1), p);
                p = nl ? nl + 1 : NULL;
                if (sscanf(line, "%7s %39s %7s %u:%u", nv, hex, port, &maj, &min) != 5 || nv[0] != 'v')
                        continue;
                dev_t *nvv = realloc(v, (n + 1) * sizeof(*v));
                if (!nvv) {
                        free(v);
                        return -ENOMEM;
                }
                v = nvv;
                v[n++] = makedev(maj, min);
        }
        *ret = v;
        *ret_n = n;
        return 0;
}
