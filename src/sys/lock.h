/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "sys/paths.h"
#include "sys/rundir.h"

/* How long a helper waits for another one mounting the same server. */
#define LOCK_WAIT_MS 30000

/*
 * Takes the exclusive lock of one server endpoint (<name>.lock in the run directory), waiting
 * at most timeout_ms for another helper holding it (a mount that retries for minutes must not
 * stall every other mount of the server past systemd's timeouts).  Returns the fd to keep
 * open, -ETIMEDOUT, -EPERM when the file there is not a regular file of the helper's user, or
 * -errno.
 */
int lock_server(int dirfd, const char *name, int timeout_ms);
