/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <sys/types.h>

#include "core/clients.h"
#include "sys/paths.h"

/* How /proc/fs/nfsfs/servers was read: the caller says what it means. */
struct nfsfs_status {
        int error; /* -errno when it could not be read (not -ENOENT: no nfs module, no client) */
        int bad_lines; /* lines not understood, skipped */
};

/* What the scan keeps of the mount table. */
struct scan_filter {
        const struct nfs_addr *addrs; /* only mounts of these server addresses; NULL: all */
        size_t naddrs;
        int exclude_id;               /* a mountinfo ID left out (the new mount), or -1 */
};

/*
 * The NFS mounts of the mountinfo file (through libmount, in one pass that keeps no table)
 * that `f` wants (NULL: all), grouped into clients, with the hidden clients of nfsfs; and,
 * when ret_sbs is given, every NFS superblock of the mount table and of nfsfs volumes (a new
 * mount's is not among them).  -ENOMEM, or -errno when the mount table cannot be read.
 */
int load_clients(const struct paths *p, const struct scan_filter *f, struct clients *ret,
                 dev_t **ret_sbs, size_t *ret_nsbs, struct nfsfs_status *ret_nfsfs);
/* The mount on `target` (the last, the top one); -ENOENT when none. */
int find_mount(const struct paths *p, const char *target, struct nfs_mount *ret);
/* The options of the fstab entry on `target` (the last one); *ret NULL when none.  0 or -ENOMEM. */
int fstab_options(const struct paths *p, const char *target, char **ret);
