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

struct chase_refusal;

/*
 * Replaces `path` atomically with `len` bytes of `text`: written to a temporary file in the
 * same directory (mode 0644), synced and renamed over `path`, so a reader sees the old file
 * or the new one, never a part, even after a crash.  The directory is reached as root must
 * reach a path an administrator gave (sys/chase.c), and the temporary file and the rename are
 * made relative to it.  0 or -errno (the temporary file is removed); -EPERM with
 * `*ret_refusal` (when given) saying which component was refused and why.
 */
int write_file_atomic(const char *path, const char *text, size_t len,
                      struct chase_refusal *ret_refusal);
/* The same in a directory already reached and checked (the records'): `name` in `dir`.  The
 * one atomic writer: the textfile and the mount records both go through it. */
int write_file_atomic_at(int dir, const char *name, const char *text, size_t len);
/* The same, the file kept open: its fd (close-on-exec) for a later append (the records'
 * superblock line, record_add_dev()), or -errno. */
int write_file_atomic_keep(int dir, const char *name, const char *text, size_t len);

/* Writes all `len` bytes of buf to fd (again after EINTR or a short write).  0 or -errno. */
int write_full(int fd, const char *buf, size_t len);
/* write_full() of a string. */
int write_all(int fd, const char *text);
