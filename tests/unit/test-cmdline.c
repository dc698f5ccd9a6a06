/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>

#include "core/cmdline.h"
#include "unit.h"

#define MAXARGS 16

static const char *const mode_names[] = {
        [RUN_MOUNT] = "mount",
        [RUN_UMOUNT] = "umount",
        [RUN_HELP] = "help",
        [RUN_VERSION] = "version",
        [RUN_CHECK_CONFIG] = "check-config",
};

/* "mode prog v4 spec dir flags vN opts=[..] type=.. ns=.." */
static char *render(const struct cmdline *c)
{
        char *s = NULL;
        sbuf_add(&s, "%s %s%s %s %s ", mode_names[c->mode], c->progname, c->v4_by_name ? " v4" : "",
                 S(c->spec), S(c->dir));
        sbuf_add(&s, "-%s%s%s%s%s", c->sloppy ? "s" : "", c->fake ? "f" : "", c->nomtab ? "n" : "",
                 c->ro ? "r" : "", c->rw ? "w" : "");
        sbuf_add(&s, " v%d", c->verbose);
        if (c->opts)
                sbuf_add(&s, " opts=[%s]", c->opts);
        if (c->type)
                sbuf_add(&s, " type=%s", c->type);
        if (c->ns)
                sbuf_add(&s, " ns=%s", c->ns);
        return s;
}

/* clang-format off */
static const struct {
        const char *argv[MAXARGS]; /* NULL-terminated */
        int rc;
        const char *want; /* render() on success, the error message on failure */
} rows[] = {
        /* 0: as mount(8) calls it */
        { { "/sbin/mount.nfs-tuned", "srv:/x", "/mnt", "-o", "rw,vers=3" }, 0,
          "mount mount.nfs-tuned srv:/x /mnt - v0 opts=[rw,vers=3]" },
        { { "mount.nfs-tuned", "srv:/x", "/mnt" }, 0, "mount mount.nfs-tuned srv:/x /mnt - v0" },
        /* options before, between and after the positionals */
        { { "mount.nfs-tuned", "-v", "-o", "hard", "srv:/x", "-s", "/mnt", "-n", "-o", "nconnect=4" }, 0,
          "mount mount.nfs-tuned srv:/x /mnt -sn v1 opts=[hard,nconnect=4]" },
        { { "mount.nfs-tuned", "-o", "a", "-o", "b=1", "-o", "c", "srv:/x", "/mnt" }, 0,
          "mount mount.nfs-tuned srv:/x /mnt - v0 opts=[a,b=1,c]" },
        /* -oOPTS attached; an empty -o adds nothing */
        { { "mount.nfs-tuned", "-overs=4.1", "srv:/x", "/mnt", "-o", "", "-onconnect=2" }, 0,
          "mount mount.nfs-tuned srv:/x /mnt - v0 opts=[vers=4.1,nconnect=2]" },
        /* 5: combined flags, with an argument option last */
        { { "mount.nfs-tuned", "-fvs", "srv:/x", "/mnt" }, 0, "mount mount.nfs-tuned srv:/x /mnt -sf v1" },
        { { "mount.nfs-tuned", "-fvo", "hard", "srv:/x", "/mnt" }, 0,
          "mount mount.nfs-tuned srv:/x /mnt -f v1 opts=[hard]" },
        { { "mount.nfs-tuned", "-vvv", "-v", "srv:/x", "/mnt" }, 0, "mount mount.nfs-tuned srv:/x /mnt - v4" },
        /* the letters after -o are its argument, not flags */
        { { "mount.nfs-tuned", "-ofv", "srv:/x", "/mnt" }, 0, "mount mount.nfs-tuned srv:/x /mnt - v0 opts=[fv]" },
        /* -r / -w: the last one wins */
        { { "mount.nfs-tuned", "-r", "-w", "srv:/x", "/mnt" }, 0, "mount mount.nfs-tuned srv:/x /mnt -w v0" },
        /* 10 */
        { { "mount.nfs-tuned", "-w", "-r", "srv:/x", "/mnt" }, 0, "mount mount.nfs-tuned srv:/x /mnt -r v0" },
        /* -t nfs4 means v4; -t and -N are kept apart */
        { { "mount.nfs-tuned", "srv:/x", "/mnt", "-t", "nfs4" }, 0, "mount mount.nfs-tuned v4 srv:/x /mnt - v0 type=nfs4" },
        { { "mount.nfs-tuned", "srv:/x", "/mnt", "-t", "nfs" }, 0, "mount mount.nfs-tuned srv:/x /mnt - v0 type=nfs" },
        { { "mount.nfs-tuned", "srv:/x", "/mnt", "-tnfs-tuned" }, 0,
          "mount mount.nfs-tuned srv:/x /mnt - v0 type=nfs-tuned" },
        { { "mount.nfs-tuned", "srv:/x", "/mnt", "-N", "1234" }, 0, "mount mount.nfs-tuned srv:/x /mnt - v0 ns=1234" },
        /* 15 */
        { { "mount.nfs-tuned", "-N/proc/1/ns/mnt", "srv:/x", "/mnt" }, 0,
          "mount mount.nfs-tuned srv:/x /mnt - v0 ns=/proc/1/ns/mnt" },
        /* called by another name */
        { { "/sbin/mount.nfs4", "srv:/x", "/mnt" }, 0, "mount mount.nfs4 v4 srv:/x /mnt - v0" },
        { { "/sbin/mount.nfs", "srv:/x", "/mnt" }, 0, "mount mount.nfs srv:/x /mnt - v0" },
        { { "mount.nfs4", "srv:/x", "/mnt", "-t", "nfs" }, 0, "mount mount.nfs4 v4 srv:/x /mnt - v0 type=nfs" },
        /* umount: every argument left alone, even bad ones */
        { { "/sbin/umount.nfs", "/mnt", "-f", "-l", "--bogus" }, 0, "umount umount.nfs (null) (null) - v0" },
        /* 20 */
        { { "umount.nfs4", "/mnt" }, 0, "umount umount.nfs4 (null) (null) - v0" },
        /* help, version, check-config need no positionals */
        { { "mount.nfs-tuned", "-h" }, 0, "help mount.nfs-tuned (null) (null) - v0" },
        { { "mount.nfs-tuned", "--help" }, 0, "help mount.nfs-tuned (null) (null) - v0" },
        { { "mount.nfs-tuned", "-V" }, 0, "version mount.nfs-tuned (null) (null) - v0" },
        { { "mount.nfs-tuned", "--version" }, 0, "version mount.nfs-tuned (null) (null) - v0" },
        /* 25 */
        { { "mount.nfs-tuned", "--check-config" }, 0, "check-config mount.nfs-tuned (null) (null) - v0" },
        { { "mount.nfs-tuned", "-v", "--check-config" }, 0, "check-config mount.nfs-tuned (null) (null) - v1" },
        /* "--" ends the options; "-" alone is a positional */
        { { "mount.nfs-tuned", "--", "-srv:/x", "-mnt" }, 0, "mount mount.nfs-tuned -srv:/x -mnt - v0" },
        { { "mount.nfs-tuned", "-v", "srv:/x", "--", "-mnt" }, 0, "mount mount.nfs-tuned srv:/x -mnt - v1" },
        { { "mount.nfs-tuned", "-", "/mnt" }, 0, "mount mount.nfs-tuned - /mnt - v0" },
        /* 30: an option argument may start with '-' */
        { { "mount.nfs-tuned", "-o", "-v", "srv:/x", "/mnt" }, 0, "mount mount.nfs-tuned srv:/x /mnt - v0 opts=[-v]" },
        /* quoted option values stay as they are */
        { { "mount.nfs-tuned", "srv:/x", "/mnt", "-o", "context=\"a,b\"", "-o", "hard" }, 0,
          "mount mount.nfs-tuned srv:/x /mnt - v0 opts=[context=\"a,b\",hard]" },
        /* argv[0] missing or empty */
        { { "", "srv:/x", "/mnt" }, 0, "mount mount.nfs-tuned srv:/x /mnt - v0" },
        /* errors */
        { { "mount.nfs-tuned" }, -EINVAL, "missing remote file system and mount point" },
        { { "mount.nfs-tuned", "srv:/x" }, -EINVAL, "missing mount point" },
        /* 35 */
        { { "mount.nfs-tuned", "-o", "hard", "srv:/x" }, -EINVAL, "missing mount point" },
        { { "mount.nfs-tuned", "srv:/x", "/mnt", "extra" }, -EINVAL, "unexpected argument 'extra'" },
        { { "mount.nfs-tuned", "srv:/x", "/mnt", "-o" }, -EINVAL, "option '-o' needs an argument" },
        { { "mount.nfs-tuned", "srv:/x", "/mnt", "-t" }, -EINVAL, "option '-t' needs an argument" },
        { { "mount.nfs-tuned", "srv:/x", "/mnt", "-vN" }, -EINVAL, "option '-N' needs an argument" },
        /* 40 */
        { { "mount.nfs-tuned", "srv:/x", "/mnt", "-x" }, -EINVAL, "unknown option '-x'" },
        { { "mount.nfs-tuned", "srv:/x", "/mnt", "-vfq" }, -EINVAL, "unknown option '-q'" },
        { { "mount.nfs-tuned", "srv:/x", "/mnt", "--verbose" }, -EINVAL, "unknown option '--verbose'" },
        { { "mount.nfs-tuned", "srv:/x", "/mnt", "-t", "ext4" }, -EINVAL,
          "file system type 'ext4' is not nfs, nfs4 or nfs-tuned" },
        { { "mount.nfs-tuned", "srv:/x", "/mnt", "-t", "nfs.sub" }, -EINVAL,
          "file system type 'nfs.sub' is not nfs, nfs4 or nfs-tuned" },
        /* 45 */
        { { "mount.nfs-tuned", "srv:/x", "/mnt", "-t", "" }, -EINVAL, "file system type '' is not nfs, nfs4 or nfs-tuned" },
        { { "mount.nfs-tuned", "srv:/x", "/mnt", "-t", "NFS4" }, -EINVAL,
          "file system type 'NFS4' is not nfs, nfs4 or nfs-tuned" },
        { { "mount.nfs-tuned", "srv:/x", "/mnt", "-N", "" }, -EINVAL, "option -N needs a PID or a namespace file" },
        { { "mount.nfs-tuned", "-h", "-x" }, -EINVAL, "unknown option '-x'" },
};
/* clang-format on */

START_TEST(test_parse)
{
        int argc = 0;
        while (argc < MAXARGS && rows[_i].argv[argc])
                argc++;
        char err[CMDLINE_ERR_MAX];
        struct cmdline c = { .mode = (enum run_mode)77 };
        memset(err, 'x', sizeof(err));
        int r = cmdline_parse(argc, (char *const *)rows[_i].argv, &c, err);
        ck_assert_msg(r == rows[_i].rc, "row %d: rc %d, want %d (%s)", _i, r, rows[_i].rc, err);
        if (r < 0) {
                ck_assert_str_eq(err, rows[_i].want);
                ck_assert_int_eq(c.mode, 77); /* untouched */
                return;
        }
        ck_assert_msg(err[0] == '\0', "row %d: err '%s' on success", _i, err);
        char *s = render(&c);
        ck_assert_msg(streq_ptr_(s, rows[_i].want), "row %d:\n%s\nwant:\n%s", _i, s, rows[_i].want);
        free(s);
        /* strings point into argv */
        if (c.spec && c.mode == RUN_MOUNT) {
                bool found = false;
                for (int i = 0; i < argc; i++)
                        found |= c.spec == rows[_i].argv[i];
                ck_assert(found);
        }
        cmdline_done(&c);
        ck_assert_ptr_null(c.opts);
}
END_TEST

START_TEST(test_argc_zero)
{
        char *const argv[] = { NULL };
        char err[CMDLINE_ERR_MAX];
        struct cmdline c;
        ck_assert_int_eq(cmdline_parse(0, argv, &c, err), -EINVAL);
        ck_assert_str_eq(err, "missing remote file system and mount point");
}
END_TEST

/* A very long -o list and many -o: nothing is cut. */
START_TEST(test_long_opts)
{
        char *big = NULL, *want = NULL;
        for (int i = 0; i < 500; i++)
                sbuf_add(&big, "%sopt%d=%d", i ? "," : "", i, i);
        const char *argv[] = { "mount.nfs-tuned", "srv:/x", "/mnt", "-o", big, "-o", big, NULL };
        sbuf_add(&want, "%s,%s", big, big);
        char err[CMDLINE_ERR_MAX];
        struct cmdline c;
        ck_assert_int_eq(cmdline_parse(7, (char *const *)argv, &c, err), 0);
        ck_assert_str_eq(c.opts, want);
        cmdline_done(&c);
        free(big);
        free(want);
}
END_TEST

/* An error message with a huge argument is cut to the buffer, never overflows. */
START_TEST(test_long_error)
{
        char arg[1000];
        memset(arg, 'a', sizeof(arg) - 1);
        arg[sizeof(arg) - 1] = '\0';
        const char *argv[] = { "mount.nfs-tuned", "srv:/x", "/mnt", arg, NULL };
        char err[CMDLINE_ERR_MAX + 16];
        memset(err, 'Z', sizeof(err));
        struct cmdline c;
        ck_assert_int_eq(cmdline_parse(4, (char *const *)argv, &c, err), -EINVAL);
        ck_assert_uint_eq(strlen(err), CMDLINE_ERR_MAX - 1);
        ck_assert_int_eq(strncmp(err, "unexpected argument 'aaa", 24), 0);
        for (size_t i = CMDLINE_ERR_MAX; i < sizeof(err); i++)
                ck_assert_int_eq(err[i], 'Z');
}
END_TEST

static Suite *cmdline_suite(void)
{
        Suite *s = suite_create("cmdline");
        TCase *tc = tcase_create("core");
        tcase_add_loop_test(tc, test_parse, 0, ELEMS(rows));
        tcase_add_test(tc, test_argc_zero);
        tcase_add_test(tc, test_long_opts);
        tcase_add_test(tc, test_long_error);
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(cmdline_suite)
