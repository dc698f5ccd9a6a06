/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <libmount.h>
#include <stdio.h>
#include <sys/types.h>

#include "core/clients.h"
#include "sys/paths.h"

static inline void mnt_unref_tablep(struct libmnt_table **t)
{
        mnt_unref_table(*t);
}

static inline void fclosep(FILE **f)
{
        if (*f)
                fclose(*f);
}

/*
 * The mount table p->mountinfo through libmount: read from `fd` when >= 0 (the caller keeps
 * it, e.g. to poll it afterwards), else opened here.  0 or -errno.
 */
int parse_mount_table(const struct paths *p, int fd, struct libmnt_table **ret);
/* <nfsfs>/<name> ("servers", "volumes") of the network namespace; -ENOENT: no nfs module. */
int read_nfsfs(const struct paths *p, const char *name, char **ret);

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
/*
 * The mount of superblock `dev` (read from `fd` when >= 0): 0, -ENOENT when no line shows it,
 * -EMEDIUMTYPE when it is not an NFS mount, or -errno.
 */
int find_mount_by_dev(const struct paths *p, int fd, dev_t dev, struct nfs_mount *ret);
