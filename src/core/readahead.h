/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* read_ahead_kb = 15360 | 15x | keep */
struct read_ahead {
        enum { READ_AHEAD_KEEP, READ_AHEAD_KB, READ_AHEAD_RSIZE_MULT } kind;
        unsigned long n;
};

/* The largest value accepted, in KiB (1 GiB); the kernel caps it lower in practice. */
#define READ_AHEAD_KB_MAX (1024UL * 1024)
/* The largest multiple of rsize accepted ("1024x"). */
#define READ_AHEAD_MULT_MAX 1024

int read_ahead_parse(const char *s, struct read_ahead *ret);
/* "keep", "15360" or "15x": what read_ahead_parse() reads back. */
#define READ_AHEAD_STRLEN 32
const char *read_ahead_to_string(const struct read_ahead *ra, char buf[static READ_AHEAD_STRLEN]);
/* The KiB to write for a mount with `rsize` bytes; 0 when nothing is to be written. */
unsigned long read_ahead_kb(const struct read_ahead *ra, unsigned long rsize);

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
 * For the mount on superblock `dev` with `rsize` bytes: `sbs` are the superblocks that existed
 * before mount.nfs ran (read then, because afterwards the new one is among them).
 */
struct read_ahead_plan read_ahead_plan(const struct read_ahead *ra, dev_t dev, unsigned long rsize,
                                       const dev_t *sbs, size_t nsbs);
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
 * and mount namespaces, so the rule finds the mount and its record as the helper does.
 */
enum read_ahead_udev read_ahead_udev_decide(bool udev_running, bool rule_last,
                                            bool udev_sees_mount);
