/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/chase.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/pathsplit.h"
#include "shared/macro.h"

#define CHASE_LINKS_MAX 40

/* The walk: the directory reached, its stat, the root, and the path as shown in a message. */
struct walk {
        int cur;
        struct stat cur_st;
        int root;
        struct stat root_st;
        char shown[PATH_MAX];
        unsigned flags;
        struct chase_refusal *ret;
};

static int refuse(struct walk *w, enum chase_why why, const struct stat *st)
{
        if (w->ret) {
                w->ret->why = why;
                snprintf(w->ret->where, sizeof(w->ret->where), "%s", *w->shown ? w->shown : "/");
                w->ret->owner = st->st_uid;
                w->ret->from_owner = w->cur_st.st_uid;
                w->ret->mode = st->st_mode & 07777;
        }
        return -EPERM;
}

/* systemd's unsafe_transition(): from root's anywhere, from a user's only to their own */
static int check_step(struct walk *w, const struct stat *st, bool last)
{
        if (w->cur_st.st_uid != 0 && w->cur_st.st_uid != st->st_uid)
                return refuse(w, CHASE_FOREIGN, st);
        if (S_ISLNK(st->st_mode) && st->st_uid != 0 && st->st_uid != w->cur_st.st_uid)
                return refuse(w, CHASE_FOREIGN_LINK, st);
        /* what is at the end is its opener's to check (owner, mode, kind) */
        if (!(w->flags & CHASE_TRUSTED) || (last && !S_ISLNK(st->st_mode)))
                return 0;
        if (st->st_uid != 0)
                return refuse(w, CHASE_NOT_ROOTS, st);
        if (S_ISDIR(st->st_mode) && (st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_mode & S_ISVTX))
                return refuse(w, CHASE_WRITABLE, st);
        return 0;
}

static void shown_add(struct walk *w, const char *name)
{
        size_t n = strlen(w->shown);
        snprintf(w->shown + n, sizeof(w->shown) - n, "/%s", name);
}

static void shown_up(struct walk *w)
{
        char *slash = strrchr(w->shown, '/');
        if (slash)
                *slash = '\0';
}

static void walk_move(struct walk *w, int fd, const struct stat *st)
{
        close(w->cur);
        w->cur = fd;
        w->cur_st = *st;
}

/* "..": the parent, never above the root. */
static int step_up(struct walk *w)
{
        struct stat st;

        if (w->cur_st.st_dev == w->root_st.st_dev && w->cur_st.st_ino == w->root_st.st_ino)
                return 0;
        int fd = openat(w->cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0 || fstat(fd, &st) < 0) {
                int r = -errno;
                if (fd >= 0)
                        close(fd);
                return r;
        }
        shown_up(w);
        int r = check_step(w, &st, false);
        if (r < 0) {
                close(fd);
                return r;
        }
        walk_move(w, fd, &st);
        return 0;
}

/* A link: what is left of the path now starts with its target. */
static int follow_link(struct walk *w, int fd, char *todo, size_t *pos)
{
        char target[PATH_MAX], joined[PATH_MAX];
        ssize_t n = readlinkat(fd, "", target, sizeof(target) - 1);

        if (n < 0)
                return -errno;
        target[n] = '\0';
        if (path_join_rest(target, todo + *pos, joined, sizeof(joined)) < 0)
                return -ENAMETOOLONG;
        strcpy(todo, joined);
        *pos = 0;
        if (target[0] != '/') {
                shown_up(w);
                return 0;
        }
        /* back to the root: from a user's directory that is a step into root's */
        int r = check_step(w, &w->root_st, false);
        if (r < 0)
                return r;
        int rfd = fcntl(w->root, F_DUPFD_CLOEXEC, 3);
        if (rfd < 0)
                return -errno;
        walk_move(w, rfd, &w->root_st);
        *w->shown = '\0';
        return 0;
}

/* The final component, opened as asked, and the same file as the one checked. */
static int open_final(struct walk *w, const char *name, const struct stat *st, int open_flags)
{
        struct stat now;
        int fd = openat(w->cur, name, open_flags | O_NOFOLLOW | O_CLOEXEC);

        if (fd < 0)
                return -errno;
        if (fstat(fd, &now) < 0 || now.st_dev != st->st_dev || now.st_ino != st->st_ino) {
                close(fd);
                return -EAGAIN;
        }
        return fd;
}

static bool is_last(const char *todo, size_t pos)
{
        const char *c;
        size_t len;
        return path_next_component(todo, &pos, &c, &len) == 0;
}

/* One component: a step down, "..", or a link; the fd of the final one into *ret_fd. */
static int step(struct walk *w, char *todo, size_t *pos, const char *name, int open_flags,
                int *links, int *ret_fd)
{
        struct stat st;

        if (streq(name, ".."))
                return step_up(w);
        int fd = openat(w->cur, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        _cleanup_(closep) int keep = fd;
        if (fstat(fd, &st) < 0)
                return -errno;
        shown_add(w, name);
        bool last = is_last(todo, *pos);
        int r = check_step(w, &st, last);
        if (r < 0)
                return r;
        if (S_ISLNK(st.st_mode) && last && (w->flags & CHASE_NOFOLLOW))
                return -ELOOP;
        if (S_ISLNK(st.st_mode))
                return ++*links > CHASE_LINKS_MAX ? -ELOOP : follow_link(w, fd, todo, pos);
        if (last) {
                r = open_final(w, name, &st, open_flags);
                if (r >= 0)
                        *ret_fd = r;
                return r < 0 ? r : 0;
        }
        if (!S_ISDIR(st.st_mode))
                return -ENOTDIR;
        keep = -1;
        walk_move(w, fd, &st);
        return 0;
}

static int walk_init(struct walk *w, int dirfd, int rootfd, const char *path)
{
        w->root = open(rootfd >= 0 ? "." : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (rootfd >= 0) {
                if (w->root >= 0)
                        close(w->root);
                w->root = fcntl(rootfd, F_DUPFD_CLOEXEC, 3);
        }
        if (w->root < 0 || fstat(w->root, &w->root_st) < 0)
                return -errno;
        if (path[0] == '/')
                w->cur = fcntl(w->root, F_DUPFD_CLOEXEC, 3);
        else
                w->cur = openat(dirfd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (w->cur < 0 || fstat(w->cur, &w->cur_st) < 0)
                return -errno;
        return 0;
}

int chase_at(int dirfd, int rootfd, const char *path, unsigned flags, int open_flags,
             struct chase_refusal *ret)
{
        struct walk w = { .cur = -1, .root = -1, .flags = flags, .ret = ret };
        char todo[PATH_MAX], name[NAME_MAX + 1];
        const char *c;
        size_t pos = 0, len;
        int links = 0, fd = -1, r;

        if (ret)
                ret->where[0] = '\0';
        if (strlen(path) >= sizeof(todo))
                return -ENAMETOOLONG;
        strcpy(todo, path);
        r = walk_init(&w, dirfd, rootfd, path);
        while (r >= 0 && fd < 0 && (r = path_next_component(todo, &pos, &c, &len)) == 1) {
                memcpy(name, c, len);
                name[len] = '\0';
                r = step(&w, todo, &pos, name, open_flags, &links, &fd);
        }
        /* no component left: the path named a directory reached ("/", "a/..") */
        if (r == 0 && fd < 0) {
                fd = openat(w.cur, ".", open_flags | O_CLOEXEC);
                r = fd < 0 ? -errno : 0;
        }
        if (w.cur >= 0)
                close(w.cur);
        if (w.root >= 0)
                close(w.root);
        return r < 0 ? r : fd;
}

void chase_describe(const struct chase_refusal *r, char *buf, size_t size)
{
        switch (r->why) {
        case CHASE_FOREIGN:
                snprintf(buf, size,
                         "%s leads from a directory of uid %u to one of uid %u: "
                         "the first could make it lead anywhere",
                         r->where, (unsigned)r->from_owner, (unsigned)r->owner);
                break;
        case CHASE_FOREIGN_LINK:
                snprintf(buf, size,
                         "%s is a symbolic link of uid %u in a directory of uid %u: "
                         "only root's or the directory owner's links are followed",
                         r->where, (unsigned)r->owner, (unsigned)r->from_owner);
                break;
        case CHASE_NOT_ROOTS:
                snprintf(buf, size,
                         "%s is owned by uid %u, not root: every directory and link "
                         "on the way must be root's",
                         r->where, (unsigned)r->owner);
                break;
        case CHASE_WRITABLE:
                snprintf(buf, size,
                         "%s is writable by group or others (mode %04o), so others "
                         "could replace what it holds",
                         r->where, (unsigned)r->mode);
                break;
        }
}
