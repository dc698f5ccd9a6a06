/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

#include "core/clients.h"
#include "core/config.h"
#include "sys/paths.h"

/* Largest config file read, in bytes. */
#define CONFIG_FILE_MAX (1024 * 1024)
/* Most drop-in files read. */
#define CONFIG_DROPINS_MAX 256

/*
 * The config file and its drop-ins (<config>.d/NAME.conf, sorted).  When `check_owner`, a file
 * not owned by root or writable by group/other is skipped with an error entry.  A missing
 * file is no error.
 */
int load_config(const char *path, bool check_owner, struct config *c);

/* The NFS mounts of the mountinfo file (through libmount) and the hidden nfsfs clients. */
int load_clients(const struct paths *p, struct clients *ret);
/* Superblock devices of every NFS volume of the network namespace and this mount table. */
int load_superblocks(const struct paths *p, const struct clients *c, dev_t **ret, size_t *ret_n);
/* The mount on `target` (the last, the top one); -ENOENT when none. */
int find_mount(const struct paths *p, const char *target, struct nfs_mount *ret);
