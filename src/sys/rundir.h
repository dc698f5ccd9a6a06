/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <sys/stat.h>

#include "sys/paths.h"

/*
 * What the helper trusts in its run directory: root's or the running user's own, and written
 * by no one else (group or others).  One rule for the writer (root) and the readers.
 */
bool rundir_trusted(const struct stat *st);

/*
 * The run directory, opened without following a link; created first when missing and
 * `create` (the writers: locks, claims, records), else -ENOENT (a reader creates nothing).
 * -EPERM when rundir_trusted() refuses it.  Returns the fd.
 */
int rundir_open(const struct paths *p, bool create);

/*
 * A file only the helper's user may open (its owner, no group or other bits): what decides
 * root's mounts (a claim, a lock) is nothing another user can open, so nothing they can flock.
 */
bool rundir_private(const struct stat *st);

/*
 * A directory inside it, held to the same rules; when `create` (a writer), made with `mode`
 * when missing and narrowed to it when it is ours with more bits (0755 from older versions).
 */
int rundir_subdir(int dirfd, const char *name, mode_t mode, bool create);

/* The two above: <rundir>/<name>, the one way to reach the claims' and the records' directory. */
int rundir_open_sub(const struct paths *p, const char *name, mode_t mode, bool create);
