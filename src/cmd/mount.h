/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "cmd/mount-ctx.h"

/* -v: the endpoint, the configuration applied, the clients found (cmd/mount-report.c). */
int report_plan(const struct mount_ctx *m);
/* The verdict; on a user's setuid run that files they cannot read shape, only what the kernel
 * shows of the mount once made (the client shared, its connections), not the policies. */
void report_verdict(const struct mount_ctx *m);
/* -v: the exec line and the read-ahead; on a user's setuid run where a file they cannot read
 * shapes them, only that they are not shown. */
int report_exec(const struct mount_ctx *m);
/*
 * Leaves the plan (read-ahead, expected nconnect, bg) in <rundir>/mounts for the udev mode and
 * for `nfs-tuned status` (cmd/mount-record.c), once, before mount.nfs runs; its fd is kept,
 * and once the mount is verified mount_record_add_dev() adds the superblock's line to it.  A
 * failure is said with -v only and never stops the mount.
 */
void mount_leave_record(struct mount_ctx *m);
void mount_record_add_dev(struct mount_ctx *m);
/* read_ahead_kb = auto: the round trip its window was sized from (none: nothing added). */
void mount_record_add_rtt(struct mount_ctx *m, unsigned long rtt_us);

/*
 * A mount that would create a client claims its key (cmd/mount-claim.c): under the key's lock
 * a live claim of another helper makes the claimed client one it joins, a client that appeared
 * since the survey one it joins, else it leaves its own claim.  The verdict is decided again
 * then.  A lock that cannot be had is a warning and the mount goes on unclaimed.  -ENOMEM.
 */
int mount_claim(struct mount_ctx *m);
/* Removes this mount's claim, if it has one. */
void mount_claim_drop(struct mount_ctx *m);
