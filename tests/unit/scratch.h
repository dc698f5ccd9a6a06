/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * A scratch tree of directories, files and links with chosen modes and owners, for the tests
 * of sys/ (path chasing, trust checks, the atomic writer).  Giving a file to another user
 * (chown) needs root: a test whose tree is the caller's own (ME) runs as any user, one with
 * root's and nobody's files runs as root only (SCRATCH_MAIN).
 */
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"

#define NOBODY 65534
/* the caller: root when root runs the suite, the builder of a package otherwise */
#define ME geteuid()

static char scratch_base[PATH_MAX];

/* base/rel in a static buffer of the caller's choosing; "@/x" and "x" both name base/x */
static inline const char *scratch_path(char buf[static 2 * PATH_MAX], const char *rel)
{
        rel += rel[0] == '@';
        snprintf(buf, 2 * PATH_MAX, "%s%s%s", scratch_base, rel[0] == '/' ? "" : "/", rel);
        return buf;
}

/* the group that goes with an owner: the caller's own group for the caller's files (a builder's
 * uid and gid need not be the same number) */
static inline gid_t scratch_gid(uid_t uid)
{
        return uid == geteuid() ? getegid() : (gid_t)uid;
}

/* Under TMPDIR: a package build's (tests/lib/builder.sh) is removed with it, and with it the
 * tree a failed test leaves (Check runs no teardown after a failure). */
static inline void scratch_new(void)
{
        const char *tmp = getenv("TMPDIR");
        snprintf(scratch_base, sizeof(scratch_base), "%s/nfs-tuned-unit.XXXXXX",
                 tmp && *tmp ? tmp : "/tmp");
        ck_assert(mkdtemp(scratch_base));
        ck_assert(chmod(scratch_base, 0755) == 0);
}

static inline void scratch_remove(void)
{
        char cmd[2 * PATH_MAX];
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch_base);
        ck_assert(system(cmd) == 0);
}

static inline void scratch_mkdir(const char *rel, mode_t mode, uid_t uid)
{
        char p[2 * PATH_MAX];
        scratch_path(p, rel);
        ck_assert_msg(mkdir(p, mode) == 0 && chmod(p, mode) == 0, "mkdir %s", p);
        ck_assert(chown(p, uid, scratch_gid(uid)) == 0);
}

static inline void scratch_file(const char *rel, const char *text, mode_t mode, uid_t uid)
{
        char p[2 * PATH_MAX];
        scratch_path(p, rel);
        int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, mode);
        ck_assert_msg(fd >= 0, "create %s", p);
        ck_assert(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
        ck_assert(fchown(fd, uid, scratch_gid(uid)) == 0 && fchmod(fd, mode) == 0);
        close(fd);
}

/* A link; an absolute target inside the tree is written "@/x" (base/x). */
static inline void scratch_link(const char *rel, const char *target, uid_t uid)
{
        char p[2 * PATH_MAX], t[2 * PATH_MAX];
        scratch_path(p, rel);
        if (target[0] == '@')
                scratch_path(t, target);
        else
                snprintf(t, sizeof(t), "%s", target);
        ck_assert(symlink(t, p) == 0 && lchown(p, uid, scratch_gid(uid)) == 0);
}

/* The names in directory rel, sorted, ' '-separated ("" when empty); free it. */
static inline char *scratch_list(const char *rel)
{
        char p[2 * PATH_MAX], cmd[3 * PATH_MAX], *out = NULL;
        size_t cap = 0;
        snprintf(cmd, sizeof(cmd), "ls -A '%s' | sort | xargs", scratch_path(p, rel));
        FILE *f = popen(cmd, "r");
        ck_assert(f);
        ssize_t n = getline(&out, &cap, f);
        pclose(f);
        if (n <= 0) {
                free(out);
                return strdup("");
        }
        out[strcspn(out, "\n")] = '\0';
        return out;
}

#define SCRATCH_UNPAREN(...) __VA_ARGS__

/*
 * main() of a test file whose tests each get a fresh scratch tree, removed after: without an
 * argument the tests of `user` (a parenthesized list), whose trees are the caller's own; with
 * "root" those of `root`, which give files to root and to nobody: another user's run of those
 * skips (77) and says why.  meson registers each half as a test (tests/unit/meson.build), so
 * that a build as an ordinary user counts what it could not check.
 */
#define SCRATCH_MAIN(name, user, root)                                                         \
        int main(int argc, char **argv)                                                        \
        {                                                                                      \
                const TTest *const u[] = { SCRATCH_UNPAREN user };                             \
                const TTest *const r[] = { SCRATCH_UNPAREN root };                             \
                bool as_root = argc > 1 && strcmp(argv[1], "root") == 0;                       \
                if (as_root && geteuid() != 0) {                                               \
                        printf("SKIP: needs root: the tests of %s give files to root and to "  \
                               "nobody (chown)\n",                                             \
                               name);                                                          \
                        return 77;                                                             \
                }                                                                              \
                SRunner *sr = srunner_create(                                                  \
                        as_root ? unit_suite(name "-root", scratch_new, scratch_remove, r,     \
                                             ELEMS(r))                                         \
                                : unit_suite(name, scratch_new, scratch_remove, u, ELEMS(u))); \
                srunner_run_all(sr, CK_ENV);                                                   \
                int failed = srunner_ntests_failed(sr);                                        \
                srunner_free(sr);                                                              \
                return failed ? EXIT_FAILURE : EXIT_SUCCESS;                                   \
        }
