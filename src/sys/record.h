/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "core/record.h"
#include "sys/paths.h"

/* Where the records live: <rundir>/mounts. */
#define RECORD_SUBDIR "mounts"
/* read by `nfs-tuned status` as any user */
#define RECORD_DIR_MODE 0755

/*
 * Writes the record of r->target as <run>/mounts/<name> (mount_record_name()), `run` the run
 * directory's fd from rundir_open() (or its -errno, returned), with the one atomic writer
 * (write_file_atomic_keep(): synced, renamed over it), so a reader never sees half a record,
 * even after a crash.  The only call that creates the records' directory.  Returns the file's
 * fd (close-on-exec), kept for record_add_dev(), or -errno.
 */
int record_write(int run, const struct mount_record *r);
/*
 * Adds the superblock's line and the time it was seen mounted (verified_ms, CLOCK_MONOTONIC)
 * to the record written through `fd`, with one write(2) at its end: a reader sees the record without it or with all of it (the kernel moves the file's
 * size only after the bytes are in), never a part.  A short write is cut off again.  A
 * record another mount on that mount point put there since is not touched.  0 or -errno.
 */
int record_add_dev(int fd, dev_t dev);
/* Appends one line (a key=value and its newline) to the record open at `fd`: 0 or -errno. */
int record_add_line(int fd, const char *line);
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
