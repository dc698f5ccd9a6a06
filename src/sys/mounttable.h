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

/*
 * The NFS mounts of the mountinfo file (through libmount), grouped into clients, and the hidden
 * clients of nfsfs.  -ENOMEM, or -errno when the mount table cannot be read.
 */
int load_clients(const struct paths *p, struct clients *ret, struct nfsfs_status *ret_nfsfs);
/* Superblock devices of every NFS volume of the network namespace and this mount table. */
int load_superblocks(const struct paths *p, const struct clients *c, dev_t **ret, size_t *ret_n);
/* The mount on `target` (the last, the top one); -ENOENT when none. */
int find_mount(const struct paths *p, const char *target, struct nfs_mount *ret);
