/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>
#include <sys/types.h>

#include "core/clients.h"
#include "sys/mounttable.h"
#include "sys/paths.h"

/*
 * The NFS clients of this host as both binaries see them: the mounts of the mount table that
 * `f` wants (NULL: all) grouped into clients by the core's sharing rule (clients_group()), the
 * clients only nfsfs shows (hidden), their connections where the sunrpc switches tell; and,
 * when ret_sbs is given, every NFS superblock.  sys/ fetches each piece, the core groups and
 * counts.  -ENOMEM, or -errno when the mount table cannot be read.
 */
int survey_clients(const struct paths *p, const struct scan_filter *f, struct clients *ret,
                   dev_t **ret_sbs, size_t *ret_nsbs, struct nfsfs_status *ret_nfsfs);
