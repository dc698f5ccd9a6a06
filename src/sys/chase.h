/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

/* Every directory and link on the way root's and, unless sticky, not writable by group or
 * others (doas and sudo check their configuration's path so): for what root reads as policy.
 * What is at the end is its opener's to check.  Without it: systemd's CHASE_SAFE alone. */
#define CHASE_TRUSTED 1u

/* The last component may not be a link (-ELOOP, as O_NOFOLLOW): a directory of root's own
 * making (the run directory) is never one. */
#define CHASE_NOFOLLOW 2u

enum chase_why {
        CHASE_FOREIGN,      /* owned by another user than the directory it is reached from */
        CHASE_FOREIGN_LINK, /* a link owned by neither root nor its directory's owner */
        CHASE_NOT_ROOTS,    /* CHASE_TRUSTED: not root's */
        CHASE_WRITABLE,     /* CHASE_TRUSTED: a directory others may write, not sticky */
};

/* Why a path was refused: the component as reached, its owner, and the one it came from. */
struct chase_refusal {
        enum chase_why why;
        char where[PATH_MAX];
        uid_t owner;
        uid_t from_owner;
        mode_t mode;
};

/*
 * Opens `path` the way root must follow a path an administrator gave (systemd's chase() with
 * CHASE_SAFE): component by component, each opened with O_PATH|O_NOFOLLOW relative to the
 * directory before it, so a rename elsewhere cannot redirect it.  A step from a directory of a
 * user other than root into a directory, link or file of another owner (root included) is
 * refused: whoever owns that directory could make it lead anywhere.  A symlink is followed
 * only when root or its directory's owner owns it, absolute targets from `rootfd` (-1: "/").
 * A relative `path` starts at `dirfd` (AT_FDCWD: the working directory).
 * The final component is opened with `open_flags` (O_NOFOLLOW|O_CLOEXEC added) and must be
 * the file checked.  The fd, or -EPERM with `*ret` filled (when given; its `where` is empty
 * otherwise) when a rule refused, -ELOOP after 40 links, or -errno.
 */
int chase_at(int dirfd, int rootfd, const char *path, unsigned flags, int open_flags,
             struct chase_refusal *ret);

/* "WHERE is owned by uid N ...: why" for a message. */
void chase_describe(const struct chase_refusal *r, char *buf, size_t size);
