/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <sys/types.h>

#include "cmd/cmd.h"
#include "core/clients.h"
#include "core/config.h"
#include "core/plan.h"
#include "core/policy.h"
#include "core/spec.h"
#include "sys/program.h"
#include "sys/resolve.h"

/* Everything one mount learns, stage by stage (cmd/mount.c); each field is set by one stage. */
struct mount_ctx {
        const struct cmd_env *env;
        int rc;                         /* the exit code so far */
        /* open */
        struct config conf;
        struct program prog;
        /* prepare */
        struct nfs_spec spec;
        char *dir;                      /* canonical mount point */
        struct optlist cmdopts;
        struct nfs_addr addrs[RESOLVE_MAX];
        int naddrs;
        const struct nfs_addr *primary; /* the address mount.nfs uses; NULL: unresolved */
        struct merged merged;
        struct settings set;
        struct optlist requested;       /* the options before any policy; req points into it */
        struct nfs_request req;
        /* survey */
        int lockfd;
        struct clients clients;         /* before the mount */
        dev_t *sbs;                     /* superblocks before the mount */
        size_t nsbs;
        /* decide */
        struct client_match match;
        struct verdict verdict;
        struct findings findings;
        /* exec */
        struct optlist final;
        char **argv;
        struct bdi_watch *watch;
        /* verify */
        struct nfs_mount newm;
};

/* -v: the endpoint, the configuration applied, the clients found (cmd/mount-report.c). */
int report_plan(const struct mount_ctx *m);
void report_verdict(const struct verdict *v);
/* -v: the exec line and the read-ahead; on a user's setuid run where a file they cannot read
 * shapes them, only that they are not shown. */
int report_exec(const struct mount_ctx *m);
/*
 * Leaves the plan (read-ahead, expected nconnect, bg) in <rundir>/mounts for the udev mode and
 * for `nfs-tuned status` (cmd/mount-record.c), before mount.nfs runs and again with the
 * superblock once the mount is verified; a failure is said with -v only and never stops the
 * mount.
 */
void mount_leave_record(const struct mount_ctx *m);
