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
        const char *fstype;          /* nfs, nfs4 or nfs-tuned (as nfs) */
        const char *options;         /* "" when none */
        unsigned pos;                /* 1-based, among fstab's entries */
        const struct nfs_addr *addr; /* the address mount.nfs will use; NULL: unresolved */
};

/* The options of the last entry on `target` (mount(8) and systemd take the last); NULL when
 * none. */
const char *hostcheck_fstab_options(const struct fstab_nfs *v, size_t n, const char *target);

/*
 * The fstab entry a user's setuid mount may use, as nfs-utils' mount.nfs requires one: the
 * last entry with this mount point, this spec and the type the helper was called for (nfs4
 * for mount.nfs4 or -t nfs4, else nfs or the helper's own nfs-tuned), whatever its options;
 * NULL when none.  Its options are the admin's word on that mount.
 */
const struct fstab_nfs *hostcheck_fstab_user_entry(const struct fstab_nfs *v, size_t n,
                                                   const char *spec, const char *target, bool v4);
/* Whether fstab options let a user mount the entry: `user` or `users` not taken back by a later
 * `nouser` or `nousers` (libmount's reading). */
bool hostcheck_fstab_allows_user(const char *options);

/*
 * Entries that will share one NFS client (the kernel's key, with the config's defaults the
 * helper adds) but ask for different nconnect, or mix sec=krb5* with more than one
 * connection.  0 or -ENOMEM.
 */
int hostcheck_fstab(const struct fstab_nfs *v, size_t n, const struct config *conf,
                    struct status_report *rep);

/* nfs-tuned's udev rule and nfs-utils' (udev sorts rule files by name across directories). */
#define NFS_TUNED_UDEV_RULE "99-zz-nfs-tuned.rules"
#define NFS_UTILS_UDEV_RULE "99-nfs.rules"

/* One rule file udev uses (the first directory that has the name wins). */
struct udev_rule_file {
        const char *name;
        const char *path;
        const char *shadowed;   /* the file of the same name it hides; NULL: none */
        bool masked;            /* empty, or a link to /dev/null */
        bool writes_read_ahead; /* a rule line names read_ahead_kb */
};

/* Rules that mask or shadow nfs-tuned's or nfs-utils' rule, or write read_ahead_kb after
 * nfs-tuned's.  0 or -ENOMEM. */
int hostcheck_udev(const struct udev_rule_file *v, size_t n, struct status_report *rep);

/* Whether nfs-tuned's rule is the last word of udev on a new bdi's read_ahead_kb. */
enum udev_rule_state {
        UDEV_RULE_LAST,        /* udev runs it as installed, and no file after it writes
                                 * read_ahead_kb */
        UDEV_RULE_ABSENT,      /* no file of its name in udev's directories */
        UDEV_RULE_MASKED,      /* empty, or a link to /dev/null */
        UDEV_RULE_REPLACED,    /* a file of its name in an earlier directory runs instead */
        UDEV_RULE_INERT,       /* the file of its name writes no read_ahead_kb */
        UDEV_RULE_OVERWRITTEN, /* a rule file that sorts after it writes read_ahead_kb */
};

/*
 * The state of nfs-tuned's rule among the rule files udev uses (`v`, sorted by name; those
 * before it may be left out); *ret_path (when not NULL) is the file that decides it: the
 * rule, the file replacing it, or the later writer (NULL when absent).
 */
enum udev_rule_state udev_rule_state(const struct udev_rule_file *v, size_t n,
                                     const char **ret_path);
const char *udev_rule_state_to_string(enum udev_rule_state s);

/* The text has a line (not a comment) that names read_ahead_kb. */
bool udev_rule_writes_read_ahead(const char *text);

/*
 * nfs-utils' nfsmount.conf (`file`, its text): [ Server "name" ] and [ MountPoint "path" ]
 * sections, and global options that decide the NFS client (nconnect, vers, sec, proto, port,
 * xprtsec), which mount.nfs adds after the helper decided.  0 or -ENOMEM.
 */
int hostcheck_nfsmount_conf(const char *file, const char *text, struct status_report *rep);
