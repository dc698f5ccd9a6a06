/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <limits.h>
#include <sys/types.h>

#include "cmd/cmd.h"
#include "core/claim.h"
#include "core/clients.h"
#include "core/config.h"
#include "core/plan.h"
#include "core/readahead.h"
#include "core/policy.h"
#include "core/spec.h"
#include "sys/program.h"
#include "sys/resolve.h"

/* Everything one mount learns, stage by stage (cmd/mount.c); each field is set by one stage. */
struct mount_ctx {
        const struct cmd_env *env;
        int rc; /* the exit code so far */
        /* open */
        char *fstab_options; /* a user's setuid run: the options of the fstab entry it may use */
        struct config conf;
        struct program prog;
        /* prepare */
        struct nfs_spec spec;
        char *dir;      /* canonical mount point */
        int dir_parent; /* the ID of the mount it is on before the mount: the new one's parent */
        struct optlist cmdopts;
        struct nfs_addr addrs[RESOLVE_MAX];
        int naddrs;
        const struct nfs_addr *primary; /* the address mount.nfs uses; NULL: unresolved */
        struct merged merged;
        struct settings set;
        struct optlist requested; /* the options before any policy; req points into it */
        struct nfs_request req;
        /* survey */
        struct clients clients; /* before the mount (and a claimed client) */
        dev_t *sbs;             /* superblocks before the mount */
        size_t nsbs;
        /* decide */
        struct client_match match;
        struct verdict verdict;
        struct findings findings;
        enum serialise serialise; /* whether it claimed the client's key */
        int claimfd;              /* its claim, held until mount.nfs returns; -1: none */
        int claimdir;             /* the claims' directory while it has one */
        char claim_key[NAME_MAX + 1];
        /* exec */
        struct optlist final;
        char **argv;
        enum read_ahead_udev ra_udev; /* how the read-ahead write meets udev's rules */
        char ra_udev_why[PATH_MAX + 160];
        struct bdi_watch *watch; /* listening for the new bdi's udev event (a wait) */
        int recordfd;            /* the record it left, until the superblock is added */
        /* the run directory, opened once for the claim and the record (mount_rundir()) */
        int rundir;
        bool rundir_opened;
        /* verify */
        struct nfs_mount newm;
};

/* The run directory's fd (sys/rundir.c), opened at the first call, or its -errno. */
int mount_rundir(struct mount_ctx *m);
/* The survey's scan of clients and superblocks (again under a key's lock); -ENOMEM. */
int mount_scan(struct mount_ctx *m);
/* Classifies the clients against the request and sets the verdict; -ENOMEM. */
int mount_decide_verdict(struct mount_ctx *m);
