/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/*
 * The round trips the kernel measured for one NFS mount's RPCs, from the per-op statistics
 * of /proc/self/mountstats (read_ahead_kb = auto).  Apart from core/mountstats.c, which is
 * `nfs-tuned status`'s: the mount path links only this.
 */
struct rpc_rtt {
        uint64_t ops;    /* requests */
        uint64_t rtt_ms; /* their round trips, each operation's sum in whole ms */
        unsigned kinds;  /* operations with requests */
};

/*
 * One per-op line's text ("READ: 10 10 0 1200 1048576 0 52 53 0": ops, transmissions,
 * timeouts, bytes sent and received, queue, rtt and execute in ms, errors since 5.3): 0 and
 * *ret_ops, *ret_rtt_ms, -EINVAL when it is not one.
 */
int rpc_op_parse(const char *text, uint64_t *ret_ops, uint64_t *ret_rtt_ms);
/* Adds one per-op line's text to `sum` when it is one with requests. */
void rpc_rtt_add(struct rpc_rtt *sum, const char *text);

/* A pass over mountstats for the mount on `target` (the last one the file shows there). */
struct rpc_rtt_scan {
        const char *target;
        bool found;         /* the file shows an NFS mount on target */
        bool on, in_ops;    /* the lines read are its, and its per-op statistics */
        struct rpc_rtt rtt; /* of the last one */
};
void rpc_rtt_feed(struct rpc_rtt_scan *s, const char *line);
