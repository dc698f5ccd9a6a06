/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "core/claim.h"
#include "sys/paths.h"

/* Client keys' locks and claims: <rundir>/clients/<key>.lock and <key>.claim. */
#define CLAIM_SUBDIR "clients"
/* no other user may open a claim or a lock (rundir_private()): 0600 files in it */
#define CLAIM_DIR_MODE 0700

/* That directory of the run directory `run` (rundir_open(), or its -errno, returned). */
int claims_dir_open(int run);

/* The helper's network namespace (the inode of /proc/self/ns/net); 0 when it cannot be read. */
unsigned long netns_id(const struct paths *p);

/*
 * The live claim of a key: 1 and *ret, or 0 when there is none, it is stale (no process holds
 * it: its helper is gone, whatever its pid is now) or it is not the helper's own file.  -errno
 * on other errors.  Read under the key's lock.
 */
int claim_read(int dir, const char *key, struct claim *ret);

/*
 * Writes the claim of a key atomically (a temporary file, locked, then renamed over a stale
 * one) and returns its fd: the claim is live while the fd is open.  Under the key's lock.
 */
int claim_put(int dir, const char *key, const struct claim *c);

/* Removes the claim this helper put (its fd), once its mount.nfs has returned. */
void claim_drop(int dir, const char *key, int fd);
