/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/clients.h"

#include <errno.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <stdlib.h>
#include <string.h>

#include "shared/array.h"
#include "shared/macro.h"

void clients_done(struct clients *c)
{
        for (size_t i = 0; i < c->nmounts; i++)
                nfs_mount_done(&c->mounts[i]);
        free(c->mounts);
        for (size_t i = 0; i < c->n; i++)
                free(c->v[i].mounts);
        free(c->v);
        hindex_done(&c->index);
        for (size_t i = 0; i < c->nproblems; i++)
                free(c->problems[i].target);
        free(c->problems);
        *c = (struct clients){ 0 };
}

int clients_add_problem(struct clients *c, unsigned line, int id, const char *target,
                        const char *why)
{
        if (c->nproblems_total++ >= SCAN_PROBLEMS_MAX)
                return 0;
        if (array_grow(&c->problems, c->nproblems) < 0)
                return -ENOMEM;
        struct scan_problem p = { .line = line, .id = id, .why = why };
        if (target && !(p.target = strdup(target)))
                return -ENOMEM;
        c->problems[c->nproblems++] = p;
        return 0;
}

int clients_add_mount(struct clients *c, struct nfs_mount *m)
{
        if (array_grow(&c->mounts, c->nmounts) < 0)
                return -ENOMEM;
        c->mounts[c->nmounts++] = *m;
        *m = (struct nfs_mount){ 0 };
        return 0;
}

/*
 * Seen on Linux 6.12.117 (the lab's tls scenario, doc/DESIGN.md "TLS and sharing"): NFSv4.0,
 * 4.1 and 4.2 fold a TLS client into a plain one of the same server and a plain mount lands on
 * a TLS client, mtls on tls; NFSv3 keeps them apart.  Every kernel with xprtsec= (6.5+) is
 * taken to fold: none is known to keep them apart, and the verification reads what it did.
 */
static const struct {
        int major;
        enum xprtsec_sharing sharing;
} xprtsec_model[] = {
        { 2, XPRTSEC_SEPARATE },
        { 3, XPRTSEC_SEPARATE },
        { 4, XPRTSEC_FOLDED },
};

enum xprtsec_sharing xprtsec_sharing_of(struct nfs_version v)
{
        for (size_t i = 0; i < ELEMENTSOF(xprtsec_model); i++)
                if (xprtsec_model[i].major == v.major)
                        return xprtsec_model[i].sharing;
        /* negotiated: it may be NFSv4, the side where TLS can be lost */
        return XPRTSEC_FOLDED;
}

bool xprtsec_separates(struct nfs_version v)
{
        return xprtsec_sharing_of(v) == XPRTSEC_SEPARATE;
}

static bool endpoint_equal(const struct client_key *a, const struct client_key *b)
{
        return a->port == b->port && streq(a->transport, b->transport) &&
               streq(a->xprtsec, b->xprtsec);
}

/* The same endpoint but for the TLS policy. */
static bool endpoint_equal_but_tls(const struct client_key *a, const struct client_key *b)
{
        return a->port == b->port && streq(a->transport, b->transport) &&
               tls_level_of(a->xprtsec) != tls_level_of(b->xprtsec);
}

bool client_key_equal(const struct client_key *a, const struct client_key *b)
{
        return nfs_addr_equal(&a->addr, &b->addr) && endpoint_equal(a, b) &&
               a->vers.major == b->vers.major && a->vers.minor == b->vers.minor;
}

struct client_key client_key_of(const struct nfs_mount *m)
{
        struct client_key k = { .addr = m->addr, .port = m->port, .vers = m->vers };
        memcpy(k.transport, m->transport, sizeof(k.transport));
        memcpy(k.xprtsec, m->xprtsec, sizeof(k.xprtsec));
        return k;
}

struct client_key client_key_of_request(const struct nfs_request *req, const struct nfs_addr *a)
{
        struct client_key k = { .addr = *a, .port = req->port, .vers = req->vers };
        memcpy(k.transport, req->transport, sizeof(k.transport));
        memcpy(k.xprtsec, req->xprtsec, sizeof(k.xprtsec));
        return k;
}

struct nfs_client *clients_new(struct clients *c, const struct client_key *k)
{
        if (array_grow(&c->v, c->n) < 0)
                return NULL;
        c->v[c->n] = (struct nfs_client){ .key = *k };
        return &c->v[c->n++];
}

static uint64_t client_key_hash(const struct client_key *k)
{
        uint64_t h = HASH_INIT;
        h = hash_bytes(h, &k->addr.family, sizeof(k->addr.family));
        h = hash_bytes(h, k->addr.b, k->addr.family == AF_INET ? 4 : sizeof(k->addr.b));
        h = hash_bytes(h, &k->port, sizeof(k->port));
        h = hash_bytes(h, k->transport, strlen(k->transport));
        h = hash_bytes(h, k->xprtsec, strlen(k->xprtsec));
        return hash_bytes(h, &k->vers, sizeof(k->vers));
}

/* The index of the visible client with this key, or -1. */
static ssize_t find_index(const struct clients *c, const struct client_key *k, uint64_t hash)
{
        size_t pos = 0, id;
        while (hindex_next(&c->index, hash, &pos, &id))
                if (client_key_equal(&c->v[id].key, k))
                        return (ssize_t)id;
        return -1;
}

const struct nfs_client *clients_find(const struct clients *c, const struct client_key *k)
{
        ssize_t i = find_index(c, k, client_key_hash(k));
        return i >= 0 && !c->v[i].other_netns ? &c->v[i] : NULL;
}

int clients_group(struct clients *c)
{
        for (size_t i = 0; i < c->nmounts; i++) {
                struct client_key k = client_key_of(&c->mounts[i]);
                uint64_t hash = client_key_hash(&k);
                ssize_t ci = find_index(c, &k, hash);
                struct nfs_client *cl;
                if (ci < 0) {
                        if (!(cl = clients_new(c, &k)) || hindex_add(&c->index, hash, c->n - 1) < 0)
                                return -ENOMEM;
                        /* every mount of one client shows the client's nconnect */
                        cl->nconnect = c->mounts[i].nconnect;
                } else
                        cl = &c->v[ci];
                if (array_grow(&cl->mounts, cl->nmounts) < 0)
                        return -ENOMEM;
                cl->mounts[cl->nmounts++] = i;
        }
        return 0;
}

/* The hidden client that may be the one of key k: nfsfs shows neither transport nor minor. */
static struct nfs_client *hidden_of(struct clients *c, const struct client_key *k)
{
        for (size_t i = 0; i < c->n; i++) {
                struct nfs_client *cl = &c->v[i];
                if (cl->hidden && nfs_addr_equal(&cl->key.addr, &k->addr) &&
                    cl->key.port == k->port && cl->key.vers.major == k->vers.major &&
                    (cl->key.vers.minor < 0 || cl->key.vers.minor == k->vers.minor))
                        return cl;
        }
        return NULL;
}

int clients_add_claimed(struct clients *c, const struct client_key *k, unsigned nconnect,
                        const char *target, const char *spec)
{
        struct nfs_mount m = {
                .addr = k->addr, .port = k->port, .vers = k->vers, .nconnect = nconnect, .id = -1
        };
        uint64_t hash = client_key_hash(k);
        struct nfs_client *cl;

        /* a mount of the key here says what the kernel did: no claim stands beside it */
        if (clients_find(c, k))
                return 0;
        memcpy(m.transport, k->transport, sizeof(m.transport));
        memcpy(m.xprtsec, k->xprtsec, sizeof(m.xprtsec));
        if (!(m.target = strdup(target)) || !(m.source = strdup(spec)) ||
            clients_add_mount(c, &m) < 0) {
                nfs_mount_done(&m);
                return -ENOMEM;
        }
        /* its nfsfs line, when the kernel has made it already, is this client, not another */
        if ((cl = hidden_of(c, k)))
                *cl = (struct nfs_client){ .key = *k };
        else if (!(cl = clients_new(c, k)))
                return -ENOMEM;
        if (hindex_add(&c->index, hash, (size_t)(cl - c->v)) < 0 ||
            !(cl->mounts = malloc(sizeof(*cl->mounts))))
                return -ENOMEM;
        cl->mounts[cl->nmounts++] = c->nmounts - 1;
        cl->nconnect = nconnect;
        cl->claimed = true;
        return 0;
}

static bool switch_serves(const struct rpc_switch *sw, const struct client_key *k)
{
        return nfs_addr_equal(&sw->addr, &k->addr) && sw->port == k->port &&
               streq(sw->transport, k->transport);
}

/* The hidden clients of one endpoint (the first hidden client's): their count if known. */
static unsigned hidden_nconnect(const struct clients *c, const struct client_key *k,
                                const struct rpc_switch *sw, size_t n)
{
        unsigned vals[64];
        size_t nv = 0, hidden = 0;
        bool used[64] = { false };

        for (size_t i = 0; i < n; i++)
                if (switch_serves(&sw[i], k)) {
                        if (nv == ELEMENTSOF(vals))
                                return 0;
                        vals[nv++] = sw[i].nxprts;
                }
        for (size_t j = 0; j < c->n; j++) {
                const struct nfs_client *cl = &c->v[j];
                if (cl->other_netns || !nfs_addr_equal(&cl->key.addr, &k->addr) ||
                    cl->key.port != k->port || !streq(cl->key.transport, k->transport))
                        continue;
                if (cl->hidden) {
                        hidden++;
                        continue;
                }
                /* a visible client's switch: one with its own count, else any */
                size_t pick = nv;
                for (size_t i = 0; i < nv && pick == nv; i++)
                        if (!used[i] && vals[i] == cl->nconnect)
                                pick = i;
                for (size_t i = 0; i < nv && pick == nv; i++)
                        if (!used[i])
                                pick = i;
                if (pick == nv)
                        return 0;
                used[pick] = true;
        }
        unsigned count = 0;
        size_t left = 0;
        for (size_t i = 0; i < nv; i++) {
                if (used[i])
                        continue;
                if (left++ && vals[i] != count)
                        return 0; /* they disagree: which is which cannot be told */
                count = vals[i];
        }
        return left == hidden ? count : 0;
}

void clients_hidden_nconnect(struct clients *c, const struct rpc_switch *sw, size_t n)
{
        for (size_t j = 0; j < c->n; j++)
                if (c->v[j].hidden && !c->v[j].nconnect)
                        c->v[j].nconnect = hidden_nconnect(c, &c->v[j].key, sw, n);
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

/* The version a negotiation may land on. */
static bool version_may_match(struct nfs_version have, struct nfs_version want)
{
        return want.major == 0 || (want.major == 4 && have.major == 4 && want.minor < 0);
}

static enum client_relation classify(const struct nfs_client *cl, const struct nfs_request *req,
                                     const struct nfs_addr *addr)
{
        struct client_key want = client_key_of_request(req, addr);

        if (!nfs_addr_equal(&cl->key.addr, addr))
                return CLIENT_OTHER_ADDRESS;
        if (cl->other_netns)
                return CLIENT_OTHER_NETNS;
        bool folds = endpoint_equal_but_tls(&cl->key, &want) && !xprtsec_separates(cl->key.vers);
        if (!folds && !endpoint_equal(&cl->key, &want))
                return CLIENT_OTHER_ENDPOINT;
        if (version_matches(cl->key.vers, req->vers))
                return folds ? CLIENT_FOLDED : CLIENT_SHARES;
        return version_may_match(cl->key.vers, req->vers) ? CLIENT_MAYBE : CLIENT_OTHER_VERSION;
}

/* A client of the request's own TLS policy is found without trunking: it wins over one that
 * only folding would reach, which then stays apart. */
static void prefer_own_policy(struct client_match *m, const struct clients *c)
{
        const struct nfs_client *own = NULL;

        for (size_t i = 0; i < m->n && !own; i++)
                if (m->rel[i] == CLIENT_SHARES)
                        own = &c->v[i];
        for (size_t i = 0; i < m->n; i++)
                if (m->rel[i] == CLIENT_FOLDED && (own || m->client != &c->v[i]))
                        m->rel[i] = CLIENT_OTHER_ENDPOINT;
        if (own)
                m->client = own;
}

int clients_classify(const struct clients *c, const struct nfs_request *req,
                     const struct nfs_addr *addr, struct client_match *ret)
{
        struct client_match m = { .rel = calloc(c->n ? c->n : 1, sizeof(*m.rel)), .n = c->n };

        if (!m.rel)
                return -ENOMEM;
        for (size_t i = 0; i < c->n; i++) {
                m.rel[i] = classify(&c->v[i], req, addr);
                bool shares = m.rel[i] == CLIENT_SHARES || m.rel[i] == CLIENT_FOLDED;
                /* a second client that matches (a hidden v4 one, minor unknown) only may be it */
                if (m.rel[i] == CLIENT_SHARES && m.client && !m.client_folded)
                        m.rel[i] = CLIENT_MAYBE;
                else if (shares && !m.client) {
                        m.client = &c->v[i];
                        m.client_folded = m.rel[i] == CLIENT_FOLDED;
                } else if (m.rel[i] == CLIENT_MAYBE && m.nmaybe < ELEMENTSOF(m.maybe))
                        m.maybe[m.nmaybe++] = &c->v[i];
        }
        prefer_own_policy(&m, c);
        m.client_folded = m.client && m.rel[m.client - c->v] == CLIENT_FOLDED;
        /* a client it shares settles it: nothing is left to negotiation */
        if (m.client)
                m.nmaybe = 0;
        *ret = m;
        return 0;
}

void client_match_done(struct client_match *m)
{
        free(m->rel);
        *m = (struct client_match){ 0 };
}

const char *client_relation_to_string(enum client_relation r)
{
        static const char *const s[] = {
                [CLIENT_SHARES] = "this mount shares it",
                [CLIENT_FOLDED] = "another TLS policy, but NFSv4 trunking folds this mount into "
                                  "it",
                [CLIENT_MAYBE] = "the negotiated version may land on it",
                [CLIENT_OTHER_ADDRESS] = "another server address: separate",
                [CLIENT_OTHER_NETNS] = "made from another network namespace: separate",
                [CLIENT_OTHER_ENDPOINT] = "other port, protocol or TLS policy: separate",
                [CLIENT_OTHER_VERSION] = "other NFS version: separate",
        };
        return s[r];
}
