/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/addr.h"
#include "core/mountinfo.h"
#include "core/rpcrtt.h"
#include "shared/hash.h"

/*
 * The live connections of each NFS mount, from /proc/self/mountstats: a `device SRC mounted on
 * DIR with fstype nfs4 ...` line, then one `xprt:` line per transport of its RPC client.
 */
/* One RPC transport as its `xprt:` line shows it (the kernel's rpc_xprt stat block). */
struct xprt_stats {
        char proto[8];         /* tcp, udp, rdma, local */
        unsigned srcport;      /* the local port; 0 when the line shows none (local) */
        uint64_t sends, recvs; /* RPC requests sent, replies received */
        uint64_t backlog;      /* bklog_u: the backlog queue's length summed at each send */
        uint64_t pending;      /* pending_u: the pending queue's length summed at each send */
};

struct mountstats_entry {
        char *target;             /* unescaped */
        struct xprt_stats *xprts; /* the well-formed xprt: lines, in the file's order */
        size_t nxprts;
        unsigned bad_xprts; /* xprt: lines not understood: not counted */
        struct rpc_rtt rtt; /* its per-op statistics summed */
        long age_s;         /* `age:`: seconds since its superblock was made; -1: not shown */
        bool taken;
};

struct mountstats {
        struct mountstats_entry *v;
        size_t n;
        struct hindex index; /* by target */
        bool in_nfs;         /* the lines read belong to v[n - 1] */
        bool in_ops;         /* ... and are its per-op statistics */
        /* CLOCK_MONOTONIC (ms) before and after the file was read (load_mountstats()); 0: not
         * read from the kernel (the ages then bound nothing) */
        long long read_start_ms, read_end_ms;
        char boot_id[BOOT_ID_STRLEN]; /* the boot those times are of; "": not known */
};

void mountstats_done(struct mountstats *s);
/* Feeds one line (without its newline).  0 or -ENOMEM. */
int mountstats_feed(struct mountstats *s, const char *line);
/*
 * The entry of the next NFS mount on `target` in the file's order (mount points mounted over
 * count in the order of mountinfo); NULL when the file shows none.
 */
const struct mountstats_entry *mountstats_take(struct mountstats *s, const char *target);
/*
 * When the entry's superblock was made, from its `age:` and the time the file was read: the
 * kernel counts the age in whole seconds of its jiffies since the superblock was made (the
 * mount_time of struct nfs_server), on the clock CLOCK_MONOTONIC keeps.
 */
struct mount_when mountstats_when(const struct mountstats *s, const struct mountstats_entry *e);
/*
 * One `xprt:` line's text after "xprt:": 0 and *ret filled when it is one the kernel writes
 * (a known transport and its count of numbers), -EINVAL otherwise.
 */
int mountstats_parse_xprt(const char *text, struct xprt_stats *ret);

/* One transport as the sunrpc sysfs shows it (switch-S/xprt-N-*: dstaddr, xprt_info,
 * xprt_state). */
struct xprt_state {
        unsigned switch_id;   /* S: the transports of one RPC client */
        struct nfs_addr addr; /* the server */
        unsigned port;        /* the server's port */
        unsigned srcport;     /* the local port */
        bool offline;         /* xprt_state says OFFLINE (or REMOVE) */
};
/*
 * The entry's switch in `v`: its transports (*ret_total) and how many are offline
 * (*ret_offline); -ENOENT when it is not found.  The switch is the one whose transport to
 * `addr` has the local port of the entry's first xprt: line (a kernel prints a port for the
 * main transport at most; the ones nconnect adds show 0, and all sit in the main one's
 * switch); without one, the only switch whose transports all go to `addr` and `port` and are
 * as many as the entry's lines, counting or not those offline (6.1 leaves an offline
 * transport out of mountstats).
 */
int mountstats_switch(const struct mountstats_entry *e, const struct nfs_addr *addr, unsigned port,
                      const struct xprt_state *v, size_t n, unsigned *ret_total,
                      unsigned *ret_offline);
