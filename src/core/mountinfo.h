/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/addr.h"
#include "core/request.h"

/* One NFS mount as /proc/self/mountinfo shows it. */
struct nfs_mount {
        char *target;
        char *source;
        dev_t dev;            /* the superblock's anonymous device: the bdi name */
        struct nfs_addr addr; /* addr=: the client's server address */
        unsigned port;
        char transport[8];
        char xprtsec[8];
        char sec[16]; /* sec=: the flavour ("sys", "krb5p"); "" when not shown */
        struct nfs_version vers;
        unsigned nconnect; /* 1 when not shown */
        unsigned long rsize;
        int id;                 /* the mountinfo ID, when read from mountinfo */
        const char *unreadable; /* a super option shown but not understood ("nconnect",
                                 * "vers", "port"): its figure is a guess; NULL: none */
};

void nfs_mount_done(struct nfs_mount *m);

/* The kernel's boot_id: a UUID, "4b7d8a1e-...", 36 characters. */
#define BOOT_ID_STRLEN 37
/* 36 characters of hex digits and dashes. */
bool boot_id_valid(const char *s);

/*
 * When a mount's superblock was made: in which boot (boot_id; "": not known), and on that
 * boot's CLOCK_MONOTONIC in milliseconds, after lo_ms and at hi_ms at the latest (mountstats'
 * `age:`, whole seconds, read between two readings of the clock; known false: no bound).
 */
struct mount_when {
        long long lo_ms, hi_ms;
        bool known;
        char boot_id[BOOT_ID_STRLEN];
};

/*
 * From one mountinfo entry: fstype, super options, target, source and device.  Returns 0 and
 * fills *ret, or -ENOENT when it is not an NFS mount the kernel keys on an address.
 */
int nfs_mount_from_entry(const char *fstype, const char *super_opts, const char *target,
                         const char *source, dev_t dev, struct nfs_mount *ret);

/* One line of mountinfo (proc_pid_mountinfo(5)), its fields decoded in place. */
struct mountinfo_entry {
        int id;
        int parent;
        dev_t dev; /* major:minor: the superblock's device */
        const char *root;
        const char *target; /* the mount point (" (deleted)" at its end when it was removed) */
        const char *vfs_opts;
        const char *fstype;
        const char *source; /* "" when the kernel shows none */
        const char *super_opts;
};

/*
 * Splits the mountinfo line `line` (NUL-terminated; a newline at its end is dropped) in place:
 * each field ends in a NUL and the kernel's \ooo escapes (space, tab, newline, backslash) are
 * decoded.  Fields are separated by blanks, and " - " ends the optional fields, as libmount
 * reads them (the unit test holds the two together).  0, or -EINVAL when it is no mountinfo
 * line.  Nothing is allocated: the mount path reads every line of the table with it.
 */
int mountinfo_split(char *line, struct mountinfo_entry *ret);
