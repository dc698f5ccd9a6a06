/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "sys/paths.h"
#include "sys/rundir.h"

/*
 * How long a helper waits for the lock of one client key.  Its holders only read a claim,
 * scan the mount table and write a claim (milliseconds; tens under software emulation), never
 * mount: hundreds of mounts of one key pass through it in a few seconds at most.  A wait this
 * long means a holder hangs.
 */
#define LOCK_WAIT_MS 30000

/*
 * Takes the exclusive lock <name>.lock in directory dirfd, waiting at most timeout_ms for
 * another helper holding it (a blocking flock under a timer: a waiter gets it when it is free).
 * Returns the fd to keep open, -ETIMEDOUT, -EPERM when the file there is not a regular file
 * of the helper's user, or -errno.
 */
int lock_key(int dirfd, const char *name, int timeout_ms);
