/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/clients.h"
#include "core/policy.h"
#include "core/request.h"

/*
 * Parallel mounts (doc/DESIGN.md "Parallel mounts"): only mounts that would create one kernel
 * client can race on its nconnect.  Such a mount claims the client's key for the time of its
 * mount.nfs (a short critical section per key decides who); a mount that finds a client, or a
 * live claim, joins it without waiting.
 */
enum serialise {
        SERIALISE_NONE_JOINS,      /* joins a client that exists: nothing can race its choice */
        SERIALISE_NONE_NEGOTIATED, /* version or minor left to negotiation: no single key */
        SERIALISE_NONE_UNRESOLVED, /* no address: mount.nfs fails or retries, nothing to key */
        SERIALISE_NONE_DRY_RUN,    /* -f: nothing is created */
        SERIALISE_NONE_USER,       /* a user's setuid run: root's run directory is not theirs */
        SERIALISE_NONE_REFUSED,    /* refused before mount.nfs: nothing is created */
        SERIALISE_CLAIM,           /* would create a client: claim its key */
        /* only /proc/fs/nfsfs shows the client: another mount namespace's, or one another
         * helper is creating now (in nfsfs before its mountinfo line): the key's section reads
         * the claim, and a live claim wins over the nfsfs line */
        SERIALISE_CHECK_CLAIM,
};

struct serialise_input {
        const struct verdict *verdict; /* before any claim was seen */
        const struct nfs_request *req;
        bool resolved; /* the address mount.nfs uses is known */
        bool dry_run;
        bool root; /* run by root (not a user's setuid run) */
};

enum serialise serialise_decide(const struct serialise_input *in);
/* The mount goes through the key's section (SERIALISE_CLAIM or SERIALISE_CHECK_CLAIM). */
bool serialise_takes_key(enum serialise s);
const char *serialise_to_string(enum serialise s);

/*
 * The file name stem of a client key in one network namespace (its nsfs inode):
 * "net4026531840-10.99.0.1-2049-tcp-v4.1", and "-tls"/"-mtls" where the sharing model keeps
 * TLS policies apart (NFSv3: "...-v3-tls"); NFSv4 folds them into one client, one key.
 * -ENAMETOOLONG.
 */
int claim_key_name(unsigned long netns, const struct client_key *k, char *buf, size_t n);

/* A claim: the helper that is creating a client now, and what it creates it with. */
struct claim {
        pid_t pid;
        unsigned nconnect; /* the connections it creates the client with (1: none asked) */
        char xprtsec[8];   /* the TLS policy it creates it with: none, tls, mtls */
        char *target;      /* its mount point */
        char *spec;        /* its source, as typed */
};

#define CLAIM_HEADER "# nfs-tuned client claim 1"
#define CLAIM_MAX 8704

void claim_done(struct claim *c);
/* Text of a claim file; -ENOMEM. */
int claim_format(const struct claim *c, char **ret);
/* -EINVAL when not a claim (header, pid, nconnect 1..16, target and spec required; xprtsec
 * none, tls or mtls, "none" when absent). */
int claim_parse(const char *text, struct claim *ret);
