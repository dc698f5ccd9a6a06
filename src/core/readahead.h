/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* read_ahead_kb = 15360 | 15x | keep | auto | auto:MAX */
struct read_ahead {
        enum { READ_AHEAD_KEEP, READ_AHEAD_KB, READ_AHEAD_RSIZE_MULT, READ_AHEAD_AUTO } kind;
        unsigned long n;  /* KiB, the multiple, or auto's largest window (KiB) */
        unsigned long bw; /* auto: the path's bandwidth in MiB/s (read_ahead_bandwidth) */
};

/* The largest value accepted, in KiB (1 GiB); the kernel caps it lower in practice. */
#define READ_AHEAD_KB_MAX (1024UL * 1024)
/* The largest multiple of rsize accepted ("1024x"). */
#define READ_AHEAD_MULT_MAX 1024

/*
 * read_ahead_kb = auto: the window a single sequential reader needs to keep the path busy,
 * bandwidth x round trip + nconnect x rsize: what the path holds in a round trip, plus one
 * read in flight on each connection, whose time on the wire adds to it (with nconnect N the
 * kernel spreads the reads over N connections, and a connection with none idles: under a
 * per-connection limit the reader loses its share; nfs-tuned.conf(5)); rounded up to a power of two (up to
 * twice that: the margin for a round trip that grows under load), at least the kernel's 128
 * KiB and at most auto's MAX (auto:MAX; plain auto: READ_AHEAD_AUTO_MAX).  Without a round
 * trip (no RPC seen yet), MAX.
 */
#define READ_AHEAD_AUTO_MAX 15360UL
#define READ_AHEAD_AUTO_MIN 128UL
/* read_ahead_bandwidth: MiB/s, when the config states none (a 10 Gbit/s path) */
#define READ_AHEAD_BW_DEFAULT 1024UL
#define READ_AHEAD_BW_MAX_N 1048576
#define READ_AHEAD_BW_MAX ((unsigned long)READ_AHEAD_BW_MAX_N)

int read_ahead_parse(const char *s, struct read_ahead *ret);
/* "keep", "15360", "15x", "auto" or "auto:8192": what read_ahead_parse() reads back. */
#define READ_AHEAD_STRLEN 32
const char *read_ahead_to_string(const struct read_ahead *ra, char buf[static READ_AHEAD_STRLEN]);
/*
 * The KiB to write for a mount with `rsize` bytes over `conns` connections (its nconnect; 0
 * counts as 1) whose RPCs took `rtt_us` microseconds on average (0: not known; auto only); 0
 * when nothing is to be written.
 */
unsigned long read_ahead_kb(const struct read_ahead *ra, unsigned long rsize, unsigned conns,
                            unsigned long rtt_us);
/*
 * The mean round trip of a mount's RPCs in microseconds from mountstats' per-operation
 * counts: `ops` requests, `rtt_ms` their round trips summed per operation in whole ms (the
 * kernel truncates each sum), over `kinds` operations with requests: half a ms added back for
 * each.  0 when there were none.
 */
unsigned long read_ahead_rtt_us(unsigned long long ops, unsigned long long rtt_ms, unsigned kinds);

/* What to do with a new mount's bdi. */
enum read_ahead_step {
        READ_AHEAD_LEAVE,  /* nothing configured (keep), or nothing to write (rsize unknown) */
        READ_AHEAD_SHARED, /* the mount shares an earlier superblock, and so its bdi: left alone */
        READ_AHEAD_WRITE,  /* a new superblock: write kb */
};

struct read_ahead_plan {
        enum read_ahead_step step;
        unsigned long kb;
};

/*
 * For the mount on superblock `dev` with `rsize` bytes over `conns` connections: `sbs` are
 * the superblocks that existed before mount.nfs ran (read then, because afterwards the new
 * one is among them).
 */
struct read_ahead_plan read_ahead_plan(const struct read_ahead *ra, dev_t dev, unsigned long rsize,
                                       unsigned conns, unsigned long rtt_us, const dev_t *sbs,
                                       size_t nsbs);
/* The value read back is the one written, as the kernel keeps it: in whole pages. */
bool read_ahead_readback_ok(unsigned long wanted, unsigned long now, unsigned long page_kb);

/*
 * How the helper's write of a new bdi's read_ahead_kb meets udev's rules for that bdi (udev
 * runs them on the bdi's add event, nfs-utils' nfsrahead among them, asynchronously).
 */
enum read_ahead_udev {
        READ_AHEAD_UDEV_NONE, /* udev is not running: write at once */
        READ_AHEAD_UDEV_RULE, /* nfs-tuned's rule writes the same value last in the event:
                                * write at once (right when mount returns), no wait */
        READ_AHEAD_UDEV_WAIT, /* wait until udev finished the event, then write */
};

/*
 * `rule_last`: nfs-tuned's rule is the last rule file udev runs that writes read_ahead_kb
 * (core/udevrule.c, udev_rule_state()); `udev_sees_mount`: udev runs in the mount's network
 * and mount namespaces, so the rule finds the mount and its record as the helper does;
 * `auto_window`: read_ahead_kb = auto, sized from a round trip the rule cannot know yet (it
 * may run before the mount path measured it): always after udev's event.
 */
enum read_ahead_udev read_ahead_udev_decide(bool udev_running, bool rule_last, bool udev_sees_mount,
                                            bool auto_window);
