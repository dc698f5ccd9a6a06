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

/*
 * From one mountinfo entry: fstype, super options, target, source and device.  Returns 0 and
 * fills *ret, or -ENOENT when it is not an NFS mount the kernel keys on an address.
 */
int nfs_mount_from_entry(const char *fstype, const char *super_opts, const char *target,
                         const char *source, dev_t dev, struct nfs_mount *ret);

/*
 * Whether the mountinfo line `line` (`len` bytes) has `target` as its mount point, the fifth
 * field, which the kernel writes with space, tab, newline and backslash as \ooo (libmount
 * reads it back the same way).  The verification hands libmount only these lines: the mount
 * just made is one of them, and the rest of the table is not parsed for it.
 */
bool mountinfo_line_target_is(const char *line, size_t len, const char *target);
