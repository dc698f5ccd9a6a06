/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sys/chase.c against a scratch tree of directories, links and owners (root and nobody). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shared/macro.h"
#include "sys/chase.h"
#include "scratch.h"

static void mk(const char *rel, mode_t mode, uid_t uid)
{
        scratch_mkdir(rel, mode, uid);
}

static void file(const char *rel, uid_t uid)
{
        scratch_file(rel, "x\n", 0644, uid);
}

#define link_ scratch_link
#define base scratch_base

/* the tree of the rows: root's and nobody's (root only) */
static void tree(void)
{
        mk("etc", 0755, 0);
        mk("etc/conf.d", 0755, 0);
        file("etc/conf.d/a.conf", 0);
        file("etc/shadow", 0);
        mk("var", 0755, 0);
        mk("var/prom", 0755, NOBODY); /* /var/lib/prometheus, user prometheus */
        mk("var/prom/node", 0755, NOBODY);
        file("var/prom/node/x.prom", NOBODY);
        mk("home", 0755, 0);
        mk("home/user", 0755, NOBODY);
        file("home/user/evil.conf", NOBODY);
        mk("tmp", 01777, 0);
        mk("open", 0777, 0);
        mk("other", 0755, NOBODY + 1); /* another user again */
}

struct row {
        const char *path; /* "@/x": base/x */
        unsigned flags;
        int open_flags;
        int want;           /* 0: an fd; else -errno */
        enum chase_why why; /* when -EPERM */
        const char *where;  /* when -EPERM: the component, "@" for base */
};

static void check(const struct row *t)
{
        char path[2 * PATH_MAX], where[2 * PATH_MAX], desc[PATH_MAX + 256];
        struct chase_refusal why = { 0 };

        snprintf(path, sizeof(path), "%s%s", t->path[0] == '@' ? base : "",
                 t->path + (t->path[0] == '@'));
        int fd = chase_at(AT_FDCWD, -1, path, t->flags, t->open_flags, &why);
        chase_describe(&why, desc, sizeof(desc));
        if (t->want == 0) {
                ck_assert_msg(fd >= 0, "%s: %s (%s)", t->path, strerror(-fd),
                              fd == -EPERM ? desc : "");
                close(fd);
                return;
        }
        ck_assert_msg(fd == t->want, "%s: got %d (%s), want %d", t->path, fd,
                      fd >= 0 ? "an fd" : strerror(-fd), t->want);
        if (t->want != -EPERM)
                return;
        snprintf(where, sizeof(where), "%s%s", base, t->where + 1);
        ck_assert_msg(why.why == t->why, "%s: why %d, want %d (%s)", t->path, why.why, t->why,
                      desc);
        ck_assert_msg(streq(why.where, where), "%s: where %s, want %s", t->path, why.where, where);
}

START_TEST(test_rows)
{
        tree();
        link_("etc/conf.d/root-link.conf", "@/etc/shadow", 0);
        link_("etc/conf.d/rel.conf", "../shadow", 0);
        link_("etc/conf.d/to-user.conf", "@/home/user/evil.conf", 0);
        link_("home/user/to-shadow", "@/etc/shadow", NOBODY);
        link_("home/user/up", "../../etc/shadow", NOBODY);
        link_("home/user/own", "evil.conf", NOBODY);
        link_("tmp/planted", "@/etc/shadow", NOBODY);
        link_("var/prom/node-link", "@/etc", NOBODY);
        link_("var/prom/node-rel", "node", NOBODY);
        link_("etc/loop", "loop", 0);
        /* clang-format off */
        const struct row rows[] = {
                /* root's all the way, root's links absolute and relative */
                { .path = "@/etc/conf.d/a.conf", .flags = CHASE_TRUSTED, .open_flags = O_RDONLY, .want = 0 },
                { .path = "@/etc/conf.d/root-link.conf", .flags = CHASE_TRUSTED, .open_flags = O_RDONLY, .want = 0 },
                { .path = "@/etc/conf.d/rel.conf", .flags = CHASE_TRUSTED, .open_flags = O_RDONLY, .want = 0 },
                { .path = "@//etc/./conf.d//a.conf", .flags = CHASE_TRUSTED, .open_flags = O_RDONLY, .want = 0 },
                { .path = "@/etc/conf.d/../conf.d/a.conf", .flags = CHASE_TRUSTED, .open_flags = O_RDONLY, .want = 0 },
                { .path = "@/etc/conf.d", .flags = CHASE_TRUSTED, .open_flags = O_RDONLY | O_DIRECTORY, .want = 0 },
                /* a drop-in link into a user's directory: the policy path is root's or refused */
                { .path = "@/etc/conf.d/to-user.conf", .flags = CHASE_TRUSTED, .open_flags = O_RDONLY, .want = -EPERM, .why = CHASE_NOT_ROOTS, .where = "@/home/user" },
                /* a user's directory under root's is fine (prometheus' textfile directory) */
                { .path = "@/var/prom/node", .flags = 0, .open_flags = O_RDONLY | O_DIRECTORY, .want = 0 },
                { .path = "@/var/prom/node/x.prom", .flags = 0, .open_flags = O_RDONLY, .want = 0 },
                { .path = "@/var/prom/node-rel", .flags = 0, .open_flags = O_RDONLY | O_DIRECTORY, .want = 0 },
                /* but a link that user planted leading back into root's is not */
                { .path = "@/var/prom/node-link", .flags = 0, .open_flags = O_RDONLY | O_DIRECTORY, .want = -EPERM, .why = CHASE_FOREIGN, .where = "@/var/prom/node-link" },
                { .path = "@/home/user/to-shadow", .flags = 0, .open_flags = O_RDONLY, .want = -EPERM, .why = CHASE_FOREIGN, .where = "@/home/user/to-shadow" },
                { .path = "@/home/user/up", .flags = 0, .open_flags = O_RDONLY, .want = -EPERM, .why = CHASE_FOREIGN, .where = "@/home" },
                { .path = "@/home/user/own", .flags = 0, .open_flags = O_RDONLY, .want = 0 },
                { .path = "@/home/user/../../etc/shadow", .flags = 0, .open_flags = O_RDONLY, .want = -EPERM, .why = CHASE_FOREIGN, .where = "@/home" },
                /* a user's link in a root-owned sticky directory is not followed */
                { .path = "@/tmp/planted", .flags = 0, .open_flags = O_RDONLY, .want = -EPERM, .why = CHASE_FOREIGN_LINK, .where = "@/tmp/planted" },
                /* another user's directory inside a user's */
                { .path = "@/home/user/../../other", .flags = 0, .open_flags = O_RDONLY | O_DIRECTORY, .want = -EPERM, .why = CHASE_FOREIGN, .where = "@/home" },
                { .path = "@/open/x", .flags = CHASE_TRUSTED, .open_flags = O_RDONLY, .want = -EPERM, .why = CHASE_WRITABLE, .where = "@/open" },
                { .path = "@/tmp", .flags = CHASE_TRUSTED, .open_flags = O_RDONLY | O_DIRECTORY, .want = 0 },
                /* the end is the opener's to judge */
                { .path = "@/open", .flags = CHASE_TRUSTED, .open_flags = O_RDONLY | O_DIRECTORY, .want = 0 },
                { .path = "@/home/user", .flags = CHASE_TRUSTED, .open_flags = O_RDONLY | O_DIRECTORY, .want = 0 },
                { .path = "@/var/prom/node", .flags = CHASE_TRUSTED, .open_flags = O_RDONLY | O_DIRECTORY, .want = -EPERM, .why = CHASE_NOT_ROOTS, .where = "@/var/prom" },
                { .path = "@/etc/conf.d/root-link.conf", .flags = CHASE_NOFOLLOW, .open_flags = O_RDONLY, .want = -ELOOP },
                { .path = "@/var/prom/node-rel/x.prom", .flags = CHASE_NOFOLLOW, .open_flags = O_RDONLY, .want = 0 },
                { .path = "@/etc/loop", .flags = 0, .open_flags = O_RDONLY, .want = -ELOOP },
                { .path = "@/etc/none", .flags = 0, .open_flags = O_RDONLY, .want = -ENOENT },
                { .path = "@/etc/shadow/x", .flags = 0, .open_flags = O_RDONLY, .want = -ENOTDIR },
                /* the file checked is the one opened: a directory where a file is wanted */
                { .path = "@/etc", .flags = 0, .open_flags = O_RDONLY | O_DIRECTORY, .want = 0 },
        };
        /* clang-format on */
        for (size_t i = 0; i < ELEMS(rows); i++)
                check(&rows[i]);
}
END_TEST

/* a tree of the caller's own: any user's run */
START_TEST(test_dotdot_stays_under_root)
{
        char p[2 * PATH_MAX];

        mk("etc", 0755, ME);
        file("etc/shadow", ME);
        snprintf(p, sizeof(p), "%s/etc", base);
        int root = open(p, O_PATH | O_DIRECTORY);
        ck_assert(root >= 0);
        /* "/.." of a root is that root: /../../shadow is <root>/shadow */
        int fd = chase_at(AT_FDCWD, root, "/../../shadow", 0, O_RDONLY, NULL);
        ck_assert_msg(fd >= 0, "%s", strerror(-fd));
        close(fd);
        close(root);
}
END_TEST

SCRATCH_MAIN("chase", (test_dotdot_stays_under_root), (test_rows))
