/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "core/record.h"
#include "sys/paths.h"

/* Where the records live: <rundir>/mounts. */
#define RECORD_SUBDIR "mounts"

/*
 * Writes the record of r->target as <rundir>/mounts/<name> (mount_record_name()) with the one
 * atomic writer (write_file_atomic_at(): synced, renamed over it), so a reader never sees half
 * a record, even after a crash.  The only call that creates the directories.  0 or -errno.
 */
int record_write(const struct paths *p, const struct mount_record *r);
/* Removes the record of mount point `target` (a mount the helper undid); none there, or no
 * records' directory: 0.  0 or -errno. */
int record_remove(const struct paths *p, const char *target);
/*
 * The records' directory for a reader (nfs-tuned status, the udev mode): rundir_open_sub()
 * without creating anything; -EPERM when rundir_trusted() refuses it; -ENOENT when none.
 */
int records_open_readonly(const struct paths *p);
/* The record of mount point `target` in the records' directory `dir`. */
int record_read_at(int dir, const char *target, struct mount_record *ret);
/* The record of mount point `target`: 0, -ENOENT, -EPERM (not root's), -EINVAL, -errno. */
int record_read(const struct paths *p, const char *target, struct mount_record *ret);
