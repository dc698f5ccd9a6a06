/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdio.h>
#include <sys/types.h>

#include "core/clients.h"
#include "sys/paths.h"

/* <nfsfs>/<name> ("servers", "volumes") of the network namespace; -ENOENT: no nfs module. */
int read_nfsfs(const struct paths *p, const char *name, char **ret);

/* How /proc/fs/nfsfs/servers was read: the caller says what it means. */
struct nfsfs_status {
        int error;    /* -errno when it could not be read (not -ENOENT: no nfs module, no client) */
        bool missing; /* -ENOENT: no nfs module, or a /proc that is not the kernel's */
        int bad_lines; /* lines not understood, skipped */
};

/* What the scan keeps of the mount table. */
struct scan_filter {
        const struct nfs_addr *addrs; /* only mounts of these server addresses; NULL: all */
        size_t naddrs;
        int exclude_id; /* a mountinfo ID left out (the new mount), or -1 */
};

/*
 * The NFS mounts of the mountinfo file (split by core/mountinfo.c, one pass, no table kept)
 * that `f` wants (NULL: all), added to `c` and not grouped (clients_group() is the caller's),
 * and what could not be read in c->problems; when ret_sbs is given, every NFS superblock of the
 * mount table and of nfsfs volumes (a new mount's is not among them).  -ENOMEM, or -errno when
 * the mount table cannot be read.
 */
int scan_nfs_mounts(const struct paths *p, const struct scan_filter *f, struct clients *c,
                    dev_t **ret_sbs, size_t *ret_nsbs);
/*
 * The clients of /proc/fs/nfsfs/servers at the addresses `f` wants that no mount of `c` (grouped
 * already) shows, added to `c` as hidden; how the file was read in *ret_status.  0 or -ENOMEM.
 */
int nfsfs_add_servers(const struct paths *p, const struct scan_filter *f, struct clients *c,
                      struct nfsfs_status *ret_status);
/*
 * The mount on `target` (the last, the top one) whose parent is mount `parent` (the mount the
 * directory was on before: the one a mount of it makes), or which is that mount (a remount;
 * -1: any); -ENOENT when none.
 */
int find_mount(const struct paths *p, const char *target, int parent, struct nfs_mount *ret);
/*
 * The mount of superblock `dev` (read from `fd` when >= 0): 0, -ENOENT when no line shows it,
 * -EMEDIUMTYPE when it is not an NFS mount, or -errno.
 */
int find_mount_by_dev(const struct paths *p, int fd, dev_t dev, struct nfs_mount *ret);
