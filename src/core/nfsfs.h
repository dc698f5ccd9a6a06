/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>
#include <sys/types.h>

#include "core/clients.h"

/*
 * /proc/fs/nfsfs/servers of the network namespace: adds the clients that no mount here
 * accounts for (another mount namespace made them: hidden), and marks the clients of mounts
 * here that the file does not list (made from another network namespace: the kernel keeps
 * clients per netns).  Only lines of `addrs` count when given (the mounts were read for those
 * only).  Returns the number of malformed lines skipped, or -ENOMEM.
 */
int clients_add_nfsfs_servers(struct clients *c, const char *text, const struct nfs_addr *addrs,
                              size_t naddrs);

/* The superblock devices of /proc/fs/nfsfs/volumes ("v3 0a630001 801 0:31 1:0 no"). */
int nfsfs_volumes_parse(const char *text, dev_t **ret, size_t *ret_n);
/* The server address of the volume on superblock `dev` in /proc/fs/nfsfs/volumes; -ENOENT. */
int nfsfs_volume_find(const char *text, dev_t dev, struct nfs_addr *ret_addr);
