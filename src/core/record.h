/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

#include "core/merge.h"
#include "core/mountinfo.h"
#include "core/opts.h"
#include "core/readahead.h"

/* Where a setting of the record came from; unknown: a record of an older helper. */
const char *setting_origin_to_string(enum setting_origin o);

/*
 * What the mount path planned for one mount point, left in <rundir>/mounts/<name> for the
 * udev mode (a bg mount that lands later) and for tools that report on mounts.  Text, one
 * `key=value` a line after a `# nfs-tuned mount record 1` line; unknown keys are skipped
 * (doc/DESIGN.md "The mount record").
 */
struct mount_record {
        char *spec;                   /* as typed: host:/path */
        char *target;                 /* canonical mount point */
        char *server;                 /* the address mount.nfs was to use; "" unresolved */
        unsigned nconnect;            /* connections the plan expects; 0: cannot be known */
        struct read_ahead read_ahead; /* the setting the mount path decided */
        bool bg;                      /* mount.nfs may finish the mount in the background */
        unsigned nconnect_requested;  /* asked by -o or the config, before any policy; 0: none */
        enum setting_origin nconnect_from, read_ahead_from;
        char xprtsec[8];              /* the TLS asked (xprtsec=): none, tls, mtls; "": not
                                        * recorded (an older helper) */
        dev_t dev;                    /* the superblock once mounted; 0: not known (bg) */
        long long verified_ms;        /* CLOCK_MONOTONIC (ms) when `dev` was seen mounted; 0: not
                                * recorded (an older helper) */
        char boot_id[BOOT_ID_STRLEN]; /* the boot it was written in; "": not known */
        unsigned long rtt_us;         /* read_ahead_kb = auto: the round trip its window was sized
                                * from (microseconds); 0: none yet */
};

#define MOUNT_RECORD_HEADER "# nfs-tuned mount record 1"
/* Largest record read, in bytes: a few paths and numbers. */
#define MOUNT_RECORD_MAX (3 * 4096 + 512)

void mount_record_done(struct mount_record *r);
/*
 * The file name of the record of mount point `target`: the path escaped as
 * `systemd-escape --path` does ("/mnt/data-1" -> "mnt-data\x2d1", "/" -> "-").
 * -ENAMETOOLONG beyond NAME_MAX, -ENOMEM.
 */
int mount_record_name(const char *target, char **ret);
/* The record's text (free it); -EINVAL when a value has a newline, -ENOMEM. */
int mount_record_format(const struct mount_record *r, char **ret);
/* The record's lines "dev=0:53\nverified_ms=81234\n", added once the mount is verified
 * (verified_ms 0: that line left out). */
#define MOUNT_RECORD_DEV_STRLEN 64
void mount_record_format_dev(dev_t dev, long long verified_ms,
                             char buf[static MOUNT_RECORD_DEV_STRLEN]);
/* The line "read_ahead_rtt_us=900\n", added when auto's window is sized. */
#define MOUNT_RECORD_LINE_STRLEN 48
void mount_record_format_rtt(unsigned long rtt_us, char buf[static MOUNT_RECORD_LINE_STRLEN]);
/* 0, -EINVAL when the header or spec/target lines are missing, -ENOMEM.  Keys of later
 * versions of the helper are skipped; a key an older one did not write stays 0. */
int mount_record_parse(const char *text, struct mount_record *ret);
/*
 * The record `r` is the plan of the mount `m`: same mount point and source, and the same
 * superblock when the record names one (one rule for the udev mode and status).  With `w`:
 * a record of another boot is not (a run directory kept on disk), and when `w` knows when m's
 * superblock was made (status: mountstats' age), a record verified before that is of an
 * earlier mount whose device number the kernel has given again.
 */
bool mount_record_matches(const struct mount_record *r, const struct nfs_mount *m,
                          const struct mount_when *w);
