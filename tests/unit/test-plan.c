/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>

#include "core/optmap.h"
#include "core/plan.h"
#include "unit.h"

/* Builds the merged options of a config text and a command line (host "s", dir "/m"). */
static void merge(const char *conf, const char *cmd, struct config *c, struct merged *m)
{
        struct optlist l = { 0 };
        struct match_input in = { "s", NULL, 0, "/m" };
        *c = (struct config){ 0 };
        ck_assert_int_eq(config_parse(c, "t.conf", conf), 0);
        ck_assert_uint_eq(c->nerrors, 0);
        ck_assert_int_eq(optlist_parse(&l, cmd), 0);
        ck_assert_int_eq(config_merge(c, &l, &in, false, m), 0);
        optlist_done(&l);
}

/* clang-format off */
static const struct {
        const char *conf, *cmd;
        int rc;
        const char *bad; /* name of the bad option */
        bool bad_from_config;
        int ra_kind;
        unsigned long ra_n;
        enum policy ncpol, krbpol;
} settings_rows[] = {
        /* 0: defaults */
        { "", "", 0, NULL, false, READ_AHEAD_KEEP, 0, POLICY_WARN, POLICY_WARN },
        { "read_ahead_kb = 15360\nnconnect_policy = refuse\nkrb5_policy = refuse\nmount_nfs = /opt/mount.nfs\n",
          "", 0, NULL, false, READ_AHEAD_KB, 15360, POLICY_REFUSE, POLICY_REFUSE },
        { "read_ahead_kb = 15x\n", "", 0, NULL, false, READ_AHEAD_RSIZE_MULT, 15, POLICY_WARN, POLICY_WARN },
        /* helper keys on the command line override the config */
        { "read_ahead_kb = 15360\nnconnect_policy = refuse\n", "read_ahead_kb=keep,nconnect_policy=follow", 0, NULL,
          false, READ_AHEAD_KEEP, 0, POLICY_FOLLOW, POLICY_WARN },
        { "[mountpoint /m]\nread_ahead_kb = 4x\n[global]\nread_ahead_kb = 8x\n", "", 0, NULL, false,
          READ_AHEAD_RSIZE_MULT, 4, POLICY_WARN, POLICY_WARN },
        /* 5: bad values from the command line */
        { "", "read_ahead_kb=lots", -EINVAL, "read_ahead_kb", false, 0, 0, 0, 0 },
        { "", "read_ahead_kb", -EINVAL, "read_ahead_kb", false, 0, 0, 0, 0 },
        { "", "nconnect_policy=maybe", -EINVAL, "nconnect_policy", false, 0, 0, 0, 0 },
        { "", "nconnect_policy", -EINVAL, "nconnect_policy", false, 0, 0, 0, 0 },
        { "", "krb5_policy=follow", -EINVAL, "krb5_policy", false, 0, 0, 0, 0 },
        /* 10 */
        { "", "krb5_policy=Warn", -EINVAL, "krb5_policy", false, 0, 0, 0, 0 },
        /* mount_nfs never from the command line, even with a config one */
        { "", "mount_nfs=/tmp/evil", -EINVAL, "mount_nfs", false, 0, 0, 0, 0 },
        { "mount_nfs = /opt/mount.nfs\n", "mount_nfs=/tmp/evil", -EINVAL, "mount_nfs", false, 0, 0, 0, 0 },
        { "", "mount_nfs", -EINVAL, "mount_nfs", false, 0, 0, 0, 0 },
        /* the last one of a repeated command-line key counts */
        { "", "nconnect_policy=bogus,nconnect_policy=refuse", 0, NULL, false, READ_AHEAD_KEEP, 0, POLICY_REFUSE,
          POLICY_WARN },
};
/* clang-format on */

START_TEST(test_settings)
{
        struct config c;
        struct merged m = { 0 };
        struct settings s = { .krb5_policy = POLICY_FOLLOW }; /* no valid result has it */
        const struct merged_opt *bad = NULL;
        merge(settings_rows[_i].conf, settings_rows[_i].cmd, &c, &m);
        int r = plan_settings(&m, &s, &bad);
        ck_assert_msg(r == settings_rows[_i].rc, "row %d: rc %d", _i, r);
        if (r < 0) {
                ck_assert_ptr_nonnull(bad);
                ck_assert_str_eq(bad->opt.name, settings_rows[_i].bad);
                ck_assert_int_eq(bad->from != NULL, settings_rows[_i].bad_from_config);
                ck_assert_int_eq(s.krb5_policy, POLICY_FOLLOW); /* untouched */
        } else {
                ck_assert_ptr_null(bad);
                ck_assert_int_eq(s.read_ahead.kind, settings_rows[_i].ra_kind);
                ck_assert_uint_eq(s.read_ahead.n, settings_rows[_i].ra_n);
                ck_assert_int_eq(s.nconnect_policy, settings_rows[_i].ncpol);
                ck_assert_int_eq(s.krb5_policy, settings_rows[_i].krbpol);
        }
        merged_done(&m);
        config_done(&c);
}
END_TEST

START_TEST(test_settings_null_bad)
{
        struct config c;
        struct merged m = { 0 };
        struct settings s;
        merge("", "krb5_policy=follow", &c, &m);
        ck_assert_int_eq(plan_settings(&m, &s, NULL), -EINVAL);
        merged_done(&m);
        config_done(&c);
}
END_TEST

#define NOVERDICT (-1)

/* clang-format off */
static const struct {
        const char *conf, *cmd;
        int action; /* verdict's nconnect action, NOVERDICT: no verdict (NULL) */
        const char *want;
} options_rows[] = {
        /* 0: helper keys never reach mount.nfs, from either place */
        { "read_ahead_kb = 15360\nnconnect_policy = follow\nkrb5_policy = warn\nmount_nfs = /x\nhard\n",
          "vers=3,read_ahead_kb=keep,nconnect_policy=warn,krb5_policy=refuse", NOVERDICT, "hard,vers=3" },
        { "nconnect = 4\n", "", NOVERDICT, "nconnect=4" },
        { "nconnect = 4\n", "", ACTION_NONE, "nconnect=4" },
        { "nconnect = 4\n", "", ACTION_WARN, "nconnect=4" },
        { "nconnect = 4\n", "", ACTION_REFUSE, "nconnect=4" },
        /* 5: following drops nconnect, and only it */
        { "nconnect = 4\nhard\n", "", ACTION_FOLLOW_QUIET, "hard" },
        { "hard\n", "vers=4.1,nconnect=8,max_connect=2", ACTION_FOLLOW, "hard,vers=4.1,max_connect=2" },
        { "", "nconnect=2,nconnect=8", ACTION_FOLLOW, "" },
        { "", "nconnect=2,nconnect=8", ACTION_WARN, "nconnect=2,nconnect=8" },
        /* quoted values and duplicates pass unchanged */
        { "", "context=\"system_u:object_r:nfs_t:s0:c1,c2\",hard,hard", ACTION_NONE,
          "context=\"system_u:object_r:nfs_t:s0:c1,c2\",hard,hard" },
        /* 10: empty */
        { "", "", ACTION_NONE, "" },
        { "read_ahead_kb = keep\n", "", ACTION_FOLLOW, "" },
        /* order: config (global first) then the command line */
        { "timeo = 600\n[server s]\nnconnect = 4\n[mountpoint /m]\nrsize = 1048576\n", "sec=sys", ACTION_NONE,
          "timeo=600,nconnect=4,rsize=1048576,sec=sys" },
};
/* clang-format on */

START_TEST(test_options)
{
        struct config c;
        struct merged m = { 0 };
        struct optlist out = { 0 };
        struct verdict v = { 0 };
        merge(options_rows[_i].conf, options_rows[_i].cmd, &c, &m);
        if (options_rows[_i].action != NOVERDICT)
                v.nconnect = (enum action)options_rows[_i].action;
        ck_assert_int_eq(plan_options(&m, options_rows[_i].action == NOVERDICT ? NULL : &v, &out),
                         0);
        char *s = optlist_to_string(&out);
        ck_assert_msg(streq_ptr_(s, options_rows[_i].want), "row %d: '%s', want '%s'", _i, s,
                      options_rows[_i].want);
        free(s);
        /* never a helper key */
        for (size_t i = 0; i < out.n; i++)
                ck_assert_msg(!is_helper_key(out.v[i].name), "row %d: helper key %s passed", _i,
                              out.v[i].name);
        optlist_done(&out);
        merged_done(&m);
        config_done(&c);
}
END_TEST

#define MAXARGS 16

/* clang-format off */
static const struct {
        const char *argv[MAXARGS];
        const char *opts;
        const char *want; /* argv joined with ' ' */
} argv_rows[] = {
        /* 0 */
        { { "mount.nfs-tuned", "srv:/x", "/mnt", "-o", "vers=3" }, "vers=3", "mount.nfs srv:/x /mnt -o vers=3" },
        /* -f, -t and -N are never passed */
        { { "mount.nfs-tuned", "-f", "srv:/x", "/mnt", "-t", "nfs", "-N", "1234" }, "hard", "mount.nfs srv:/x /mnt -o hard" },
        { { "mount.nfs-tuned", "-fv", "srv:/x", "/mnt" }, "", "mount.nfs srv:/x /mnt -v" },
        /* -t nfs4 and the mount.nfs4 name make argv[0] mount.nfs4 */
        { { "mount.nfs-tuned", "srv:/x", "/mnt", "-t", "nfs4" }, "vers=4.1", "mount.nfs4 srv:/x /mnt -o vers=4.1" },
        { { "/sbin/mount.nfs4", "srv:/x", "/mnt" }, NULL, "mount.nfs4 srv:/x /mnt" },
        /* 5: mount.nfs's own flags are passed, in a fixed order */
        { { "mount.nfs-tuned", "-r", "-n", "-s", "-v", "srv:/x", "/mnt" }, "ro", "mount.nfs srv:/x /mnt -s -n -v -r -o ro" },
        { { "mount.nfs-tuned", "-w", "srv:/x", "/mnt" }, NULL, "mount.nfs srv:/x /mnt -w" },
        { { "mount.nfs-tuned", "-r", "-w", "srv:/x", "/mnt" }, NULL, "mount.nfs srv:/x /mnt -w" },
        /* -v at most three times */
        { { "mount.nfs-tuned", "-vvvvvvv", "srv:/x", "/mnt" }, NULL, "mount.nfs srv:/x /mnt -v -v -v" },
        { { "mount.nfs-tuned", "-vv", "srv:/x", "/mnt" }, NULL, "mount.nfs srv:/x /mnt -v -v" },
        /* 10: everything */
        { { "mount.nfs", "-sfnvrw", "srv:/x", "/mnt", "-t", "nfs4", "-N", "/proc/1/ns/mnt", "-o", "x" },
          "nconnect=4,hard", "mount.nfs4 srv:/x /mnt -s -n -v -w -o nconnect=4,hard" },
        /* the options given are passed as one argument, even with blanks and quotes */
        { { "mount.nfs-tuned", "srv:/x", "/mnt" }, "context=\"a b,c\"", "mount.nfs srv:/x /mnt -o context=\"a b,c\"" },
        /* IPv6 spec and odd directories unchanged */
        { { "mount.nfs-tuned", "[fd00::1]:/x", "/mnt/a b" }, NULL, "mount.nfs [fd00::1]:/x /mnt/a b" },
};
/* clang-format on */

START_TEST(test_argv)
{
        int argc = 0;
        while (argc < MAXARGS && argv_rows[_i].argv[argc])
                argc++;
        char err[CMDLINE_ERR_MAX];
        struct cmdline c;
        char **argv = NULL;
        ck_assert_int_eq(cmdline_parse(argc, (char *const *)argv_rows[_i].argv, &c, err), 0);
        ck_assert_int_eq(plan_argv(&c, argv_rows[_i].opts, &argv), 0);
        char *s = strdup("");
        size_t n = 0;
        for (; argv[n]; n++)
                sbuf_add(&s, "%s%s", n ? " " : "", argv[n]);
        ck_assert_msg(streq_ptr_(s, argv_rows[_i].want), "row %d: '%s', want '%s'", _i, s,
                      argv_rows[_i].want);
        /* -f, -t, -N never reach mount.nfs */
        for (size_t i = 1; i < n; i++) {
                ck_assert_str_ne(argv[i], "-f");
                ck_assert_str_ne(argv[i], "-t");
                ck_assert_str_ne(argv[i], "-N");
        }
        /* the options are one argument after -o */
        if (argv_rows[_i].opts && *argv_rows[_i].opts) {
                ck_assert_str_eq(argv[n - 2], "-o");
                ck_assert_str_eq(argv[n - 1], argv_rows[_i].opts);
        }
        free(s);
        plan_argv_free(argv);
        cmdline_done(&c);
}
END_TEST

START_TEST(test_argv_free_null)
{
        plan_argv_free(NULL);
}
END_TEST

/* A user's setuid run: helper keys on the command line only as fstab has them. */
/* clang-format off */
static const struct {
        const char *cmd, *fstab, *kept, *dropped;
} untrusted_rows[] = {
        { "vers=3,nconnect_policy=follow,krb5_policy=warn", NULL, "vers=3", "nconnect_policy=follow,krb5_policy=warn" },
        { "nconnect_policy=follow,read_ahead_kb=15x", "rw,user,nconnect_policy=follow,read_ahead_kb=16x",
          "nconnect_policy=follow", "read_ahead_kb=15x" },
        /* mount_nfs stays, to be refused outright */
        { "mount_nfs=/tmp/x,hard", "user", "mount_nfs=/tmp/x,hard", "" },
        { "hard,nconnect=8", "user,nconnect=4", "hard,nconnect=8", "" },
        { "", "user", "", "" },
};
/* clang-format on */

START_TEST(test_untrusted)
{
        struct optlist cmd = { 0 }, fstab = { 0 }, dropped = { 0 };
        ck_assert_int_eq(optlist_parse(&cmd, untrusted_rows[_i].cmd), 0);
        ck_assert_int_eq(optlist_parse(&fstab, untrusted_rows[_i].fstab), 0);
        ck_assert_int_eq(
                plan_drop_untrusted(&cmd, untrusted_rows[_i].fstab ? &fstab : NULL, &dropped), 0);
        char *kept = optlist_to_string(&cmd), *gone = optlist_to_string(&dropped);
        ck_assert_str_eq(kept, untrusted_rows[_i].kept);
        ck_assert_str_eq(gone, untrusted_rows[_i].dropped);
        free(kept);
        free(gone);
        optlist_done(&cmd);
        optlist_done(&fstab);
        optlist_done(&dropped);
}
END_TEST

static Suite *plan_suite(void)
{
        Suite *s = suite_create("plan");
        TCase *tc = tcase_create("core");
        tcase_add_loop_test(tc, test_settings, 0, ELEMS(settings_rows));
        tcase_add_test(tc, test_settings_null_bad);
        tcase_add_loop_test(tc, test_options, 0, ELEMS(options_rows));
        tcase_add_loop_test(tc, test_argv, 0, ELEMS(argv_rows));
        tcase_add_test(tc, test_argv_free_null);
        tcase_add_loop_test(tc, test_untrusted, 0, ELEMS(untrusted_rows));
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(plan_suite)
