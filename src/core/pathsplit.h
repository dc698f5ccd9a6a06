/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/*
 * The components of a path, one at a time, as the chaser (sys/chase.c) opens them: slashes
 * are separators however many, "." is skipped, ".." is returned as it is (the chaser decides
 * what it means).  `*pos` starts at 0 and advances past each component.
 * 1 and the component (a pointer into `path`, not NUL-terminated, and its length: at least 1,
 * at most NAME_MAX, no '/'), 0 at the end, -ENAMETOOLONG for a component longer than NAME_MAX.
 */
int path_next_component(const char *path, size_t *pos, const char **ret, size_t *ret_len);

/*
 * Where a symlink leads: its target followed by what was left of the path after the link,
 * in `buf` (size `size`).  0, or -ENAMETOOLONG when it does not fit.
 */
int path_join_rest(const char *target, const char *rest, char *buf, size_t size);
