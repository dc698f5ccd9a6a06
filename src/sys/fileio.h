/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/*
 * Reads a whole small regular file from an open fd, NUL-terminated.  -EINVAL when not a
 * regular file, -EPERM when `check_owner` and it is not root's or is writable by group or
 * others, -EFBIG when larger than `max`, or -errno.
 */
int read_fd(int fd, size_t max, bool check_owner, char **ret, size_t *ret_len);
