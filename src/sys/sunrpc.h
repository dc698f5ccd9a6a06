/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>

#include "core/clients.h"
#include "core/mountstats.h"
#include "sys/paths.h"

/*
 * The RPC transport switches of this network namespace (<sysfs>/kernel/sunrpc/xprt-switches,
 * kernels since about 5.14): one per RPC client of an NFS client, with its transports' server
 * address and port.  -ENOENT when the kernel has no such directory.
 */
int load_rpc_switches(const struct paths *p, struct rpc_switch **ret, size_t *ret_n);
/*
 * Every transport of those switches with its server, local port and state.  -ENOENT when the
 * kernel has no such directory, -EOPNOTSUPP when its xprt_info shows no src_port; -errno.
 */
int load_rpc_xprt_states(const struct paths *p, struct xprt_state **ret, size_t *ret_n);
