/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "core/addr.h"

/*
 * fstab's NFS entries as the mount path reads them: the entry a user's mount may use and the
 * admin's options on a mount point.  `nfs-tuned status` analyses the same entries
 * (core/hostcheck.h); the setuid helper links only this.
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
const char *fstab_target_options(const struct fstab_nfs *v, size_t n, const char *target);

/*
 * The fstab entry a user's setuid mount may use, as nfs-utils' mount.nfs requires one: the
 * last entry with this mount point, this spec and the type the helper was called for (nfs4
 * for mount.nfs4 or -t nfs4, else nfs or the helper's own nfs-tuned), whatever its options;
 * NULL when none.  Its options are the admin's word on that mount.
 */
const struct fstab_nfs *fstab_user_entry(const struct fstab_nfs *v, size_t n, const char *spec,
                                         const char *target, bool v4);
/* Whether fstab options let a user mount the entry: `user` or `users` not taken back by a later
 * `nouser` or `nousers` (libmount's reading). */
bool fstab_allows_user(const char *options);
