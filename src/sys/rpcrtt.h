/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "core/rpcrtt.h"
#include "sys/paths.h"

/*
 * The per-op round trips of the NFS mount on `target` (the last one p->mountstats shows
 * there): 0, -ESRCH when it shows none, -errno when it cannot be read.
 */
int read_rpc_rtt(const struct paths *p, const char *target, struct rpc_rtt *ret);
