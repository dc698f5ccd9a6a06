/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "core/addr.h"
#include "core/mountinfo.h"
#include "core/request.h"
#include "core/xprtsec.h"
#include "shared/hash.h"

/* The kernel's key of an nfs_client: what decides sharing (doc/DESIGN.md, "When a new mount
 * shares an existing NFS client"). */
struct client_key {
        struct nfs_addr addr;
        unsigned port;
        char transport[8];
        char xprtsec[8];
        struct nfs_version vers;
};

/* One client: visible through mounts of this mount namespace, or only in /proc/fs/nfsfs. */
struct nfs_client {
        struct client_key key;
        bool hidden;       /* in nfsfs, no mount here shows it: nconnect unknown */
        bool claimed;      /* not there yet: another helper is creating it now (its one
                                 * mount is that helper's claim, core/claim.h) */
        bool other_netns;  /* mounts here show it, nfsfs of this netns does not: the
                                 * mount was made from another network namespace */
        unsigned nconnect; /* 0 when unknown */
        size_t *mounts;    /* indices into clients.mounts */
        size_t nmounts;
};

/* A line of the mount table the scan could not use whole (nfs-tuned status names each). */
struct scan_problem {
        unsigned line;   /* 1-based line of mountinfo; 0 when not known */
        int id;          /* the mount ID; -1 when not known */
        char *target;    /* NULL when the line could not be parsed */
        const char *why; /* a static text */
};

/* Problems kept at most; the rest are only counted. */
#define SCAN_PROBLEMS_MAX 100

struct clients {
        struct scan_problem *problems;
        size_t nproblems;
        size_t nproblems_total;
        struct nfs_mount *mounts;
        size_t nmounts;
        struct nfs_client *v;
        size_t n;
        struct hindex index; /* the visible clients by key (clients_group) */
};

void clients_done(struct clients *c);
int clients_add_mount(struct clients *c, struct nfs_mount *m); /* takes ownership */
/* Records a line of the mount table the scan could not use (target may be NULL).  0, -ENOMEM. */
int clients_add_problem(struct clients *c, unsigned line, int id, const char *target,
                        const char *why);
/* Groups mounts into clients; call after the last clients_add_mount(). */
int clients_group(struct clients *c);
/* Appends a client with no mount (for nfsfs); NULL when out of memory. */
struct nfs_client *clients_new(struct clients *c, const struct client_key *k);

bool client_key_equal(const struct client_key *a, const struct client_key *b);
struct client_key client_key_of(const struct nfs_mount *m);
/* The key of the client a request makes at one address (its version pinned or not). */
struct client_key client_key_of_request(const struct nfs_request *req, const struct nfs_addr *a);
/*
 * A client another helper is creating now (a live claim): added as a visible client whose one
 * mount is the claimant's, so that the policies, the messages and the verification treat it
 * as one that exists.  The claim wins over a hidden client that may be its nfsfs line (the
 * kernel lists a client there before its first mountinfo line): that one becomes the claimed
 * client.  A visible client of the key is the kernel's word: then nothing is added.  0 or
 * -ENOMEM.
 */
int clients_add_claimed(struct clients *c, const struct client_key *k, unsigned nconnect,
                        const char *target, const char *spec);
/*
 * The client a mount with this key joins: a visible client of this network namespace with the
 * same key, or NULL.  The one rule for a mount that exists; clients_classify() is the rule for
 * a request, whose version may be unknown.
 */
const struct nfs_client *clients_find(const struct clients *c, const struct client_key *k);

/* One RPC transport switch (/sys/kernel/sunrpc): an RPC client's transports to one server. */
struct rpc_switch {
        struct nfs_addr addr;
        unsigned port;
        char transport[8];
        unsigned nxprts;
};

/*
 * The connections of hidden clients, from the switches of the network namespace: the switches
 * to a hidden client's endpoint, less one for each visible client there (its own nconnect),
 * are the hidden ones'; when they are as many as the hidden clients there and agree, that is
 * their nconnect.  Otherwise it stays unknown (0).
 */
void clients_hidden_nconnect(struct clients *c, const struct rpc_switch *sw, size_t n);

/*
 * The TLS sharing model (doc/DESIGN.md "TLS and sharing"): the one place that says what the
 * kernel does with a mount whose xprtsec= differs from that of an existing client of the same
 * server address, port, transport and version.  Read by the classification (plan, policies,
 * claim key), the verification, the udev mode and status.
 */
enum xprtsec_sharing {
        XPRTSEC_SEPARATE, /* a client of its own (NFSv3: nfs_match_client() keys on it) */
        XPRTSEC_FOLDED,   /* NFSv4: trunking discovery folds the new client into the
                                 * existing one (same client owner, same client ID), whose TLS
                                 * policy the mount then runs under */
};

/* What the kernel does with xprtsec for a version (major 0: negotiated, may be NFSv4). */
enum xprtsec_sharing xprtsec_sharing_of(struct nfs_version v);
/* Whether two clients of these keys are one kernel client's key (the claim's key name). */
bool xprtsec_separates(struct nfs_version v);

/* What one client is to a request for one server address. */
enum client_relation {
        CLIENT_SHARES,         /* the mount will share it */
        CLIENT_FOLDED,         /* another TLS policy, but NFSv4 folds the mount into it */
        CLIENT_MAYBE,          /* the version is negotiated: the mount may land on it */
        CLIENT_OTHER_ADDRESS,  /* another server address */
        CLIENT_OTHER_NETNS,    /* made from another network namespace: separate */
        CLIENT_OTHER_ENDPOINT, /* another port, transport or TLS policy: separate */
        CLIENT_OTHER_VERSION,  /* another NFS version or minor version: separate */
};

/* Every client of the table classified against the request, once. */
struct client_match {
        enum client_relation *rel; /* one per client of the table */
        size_t n;
        const struct nfs_client *client; /* the one it shares (or is folded into); NULL: a new
                                          * client */
        bool client_folded;              /* it has another TLS policy (CLIENT_FOLDED) */
        /* version left to negotiation: the clients of the endpoint it may land on */
        const struct nfs_client *maybe[8];
        size_t nmaybe;
};

/* 0 or -ENOMEM; free with client_match_done(). */
int clients_classify(const struct clients *c, const struct nfs_request *req,
                     const struct nfs_addr *addr, struct client_match *ret);
void client_match_done(struct client_match *m);
const char *client_relation_to_string(enum client_relation r);
