/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "core/addr.h"
#include "core/config.h"
#include "core/status.h"

/*
 * `nfs-tuned status`, before the next boot: what fstab will do, and what on the host silently
 * defeats the helper's settings.  Pure decisions over what the front read.
 */

/* One NFS entry of fstab, with the address the front resolved for it. */
struct fstab_nfs {
        const char *spec;
        const char *target;
        const char *fstype;            /* nfs, nfs4 or nfs-tuned (as nfs) */
        const char *options;           /* "" when none */
        unsigned pos;                  /* 1-based, among fstab's entries */
        const struct nfs_addr *addr;   /* the address mount.nfs will use; NULL: unresolved */
};

/*
 * Entries that will share one NFS client (the kernel's key, with the config's defaults the
 * helper adds) but ask for different nconnect, or mix sec=krb5* with more than one
 * connection.  0 or -ENOMEM.
 */
int status_check_fstab(const struct fstab_nfs *v, size_t n, const struct config *conf,
                       struct status_report *rep);

/* nfs-tuned's udev rule and nfs-utils' (udev sorts rule files by name across directories). */
#define NFS_TUNED_UDEV_RULE "99-zz-nfs-tuned.rules"
#define NFS_UTILS_UDEV_RULE "99-nfs.rules"

/* One rule file udev uses (the first directory that has the name wins). */
struct udev_rule_file {
        const char *name;
        const char *path;
        const char *shadowed;        /* the file of the same name it hides; NULL: none */
        bool masked;                 /* empty, or a link to /dev/null */
        bool writes_read_ahead;      /* a rule line names read_ahead_kb */
};

/* Rules that mask or shadow nfs-tuned's or nfs-utils' rule, or write read_ahead_kb after
 * nfs-tuned's.  0 or -ENOMEM. */
int status_check_udev(const struct udev_rule_file *v, size_t n, struct status_report *rep);

/* The text has a line (not a comment) that names read_ahead_kb. */
bool udev_rule_writes_read_ahead(const char *text);

/*
 * nfs-utils' nfsmount.conf (`file`, its text): [ Server "name" ] and [ MountPoint "path" ]
 * sections, and global options that decide the NFS client (nconnect, vers, sec, proto, port,
 * xprtsec), which mount.nfs adds after the helper decided.  0 or -ENOMEM.
 */
int status_check_nfsmount_conf(const char *file, const char *text, struct status_report *rep);
