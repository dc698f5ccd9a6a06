/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "core/record.h"
#include "sys/paths.h"

/* Where the records live: <rundir>/mounts. */
#define RECORD_SUBDIR "mounts"

/*
 * Writes the record of r->target as <rundir>/mounts/<name> (mount_record_name()), through a
 * temporary file renamed over it, so a reader never sees half a record.  0 or -errno.
 */
int record_write(const struct paths *p, const struct mount_record *r);
/* The record of mount point `target`: 0, -ENOENT, -EPERM (not root's), -EINVAL, -errno. */
int record_read(const struct paths *p, const char *target, struct mount_record *ret);
