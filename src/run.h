/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>

/* The real mount.nfs would be this very program (a dpkg-divert loop). */
int run_is_self(const char *path, bool *ret);
/* fork + execv + wait: the child's exit status, or a mount(8) code for a failure. */
int run_mount_nfs(const char *path, char *const argv[]);
