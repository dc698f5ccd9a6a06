/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <sys/stat.h>

#include "sys/paths.h"

/* Only the helper's own user (root) may own or write what it trusts in its run directory. */
bool rundir_trusted(const struct stat *st);

/*
 * The run directory, created when missing and opened without following a link; -EPERM when
 * it is not the helper's user's or is writable by group or others.  Returns the fd.
 */
int rundir_open(const struct paths *p);

/* A directory inside it (created when missing), held to the same rules.  Returns the fd. */
int rundir_subdir(int dirfd, const char *name);
