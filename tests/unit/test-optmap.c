/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>

#include "core/optmap.h"
#include "unit.h"

/* One row per rule: the table answers every question about an option. */
/* clang-format off */
static const struct {
        const char *name, *value;
        bool helper;
        int check;        /* optdef_check(): the row's check or number range; 0 where none */
        const char *hint; /* opt_hint() */
} rows[] = {
        { "read_ahead_kb", "15x", true, 0, "a size in KiB (15360), a multiple of rsize (15x), auto, auto:MAX (KiB) or keep" },
        { "read_ahead_kb", "lots", true, -EINVAL, "a size in KiB (15360), a multiple of rsize (15x), auto, auto:MAX (KiB) or keep" },
        { "read_ahead_kb", NULL, true, -EINVAL, "a size in KiB (15360), a multiple of rsize (15x), auto, auto:MAX (KiB) or keep" },
        { "nconnect_policy", "follow", true, 0, "warn, refuse or follow" },
        { "nconnect_policy", "maybe", true, -EINVAL, "warn, refuse or follow" },
        { "krb5_policy", "refuse", true, 0, "warn or refuse" },
        { "krb5_policy", "follow", true, -EINVAL, "warn or refuse" },
        { "mount_nfs", "/sbin/mount.nfs", true, 0, "an absolute path" },
        { "mount_nfs", "mount.nfs", true, -EINVAL, "an absolute path" },
        /* NFS options: the row holds the value rule the request parser applies */
        { "nconnect", "99", false, -EINVAL, "a number from 1 to 16" },
        { "nconnect", "0", false, -EINVAL, "a number from 1 to 16" },
        { "nconnect", "16", false, 0, "a number from 1 to 16" },
        { "port", "65536", false, -EINVAL, "a port number from 0 to 65535" },
        { "port", "0", false, 0, "a port number from 0 to 65535" },
        { "minorversion", "3", false, -EINVAL, "0, 1 or 2" },
        { "xprtsec", "ssl", false, -EINVAL, "none, tls or mtls" },
        { "xprtsec", "mtls", false, 0, "none, tls or mtls" },
        { "sec", "", false, -EINVAL, "a flavour such as sys, krb5, krb5i or krb5p" },
        { "nfsvers", "9", false, -EINVAL, "3, 4, 4.0, 4.1 or 4.2" },
        { "nfsvers", "4.2", false, 0, "3, 4, 4.0, 4.1 or 4.2" },
        /* proto's words are the request parser's own table */
        { "proto", "sctp", false, 0, "tcp, tcp6, udp, udp6, rdma or rdma6" },
        /* addr= carries why it is not used, not a hint */
        { "addr", "10.0.0.1", false, 0, NULL },
        { "hard", NULL, false, 0, NULL },
        { "READ_AHEAD_KB", "lots", false, 0, NULL },
        { "", NULL, false, 0, NULL },
        /* a version flag without a row: the ones there are */
        { "v4.99", NULL, false, 0, "v3, v4, v4.0, v4.1 or v4.2" },
};
/* clang-format on */

START_TEST(test_rows)
{
        ck_assert_int_eq(is_helper_key(rows[_i].name), rows[_i].helper);
        const struct optdef *d = optdef_find(rows[_i].name);
        ck_assert_int_eq(d ? optdef_check(d, rows[_i].value) : 0, rows[_i].check);
        ck_assert_msg(streq_ptr_(opt_hint(rows[_i].name), rows[_i].hint), "row %d: hint %s", _i,
                      S(opt_hint(rows[_i].name)));
}
END_TEST

START_TEST(test_flags)
{
        const struct optdef *d = optdef_find("mount_nfs");
        ck_assert_ptr_nonnull(d);
        ck_assert(d->flags & OPTF_GLOBAL_ONLY);
        ck_assert(d->flags & OPTF_NO_CMDLINE);
        ck_assert(optdef_find("addr")->flags & OPTF_IGNORED);
        ck_assert(!(optdef_find("read_ahead_kb")->flags & OPTF_NO_CMDLINE));
        ck_assert_ptr_null(optdef_find("Nconnect"));
}
END_TEST

/* The one sentence for a bad value, wherever it came from. */
/* clang-format off */
static const struct {
        const char *name, *value, *where, *want;
} describe_rows[] = {
        { "vers", "5", " (from the command line)",
          "vers=5 (from the command line) is not valid: it must be 3, 4, 4.0, 4.1 or 4.2" },
        { "v4.99", NULL, "", "v4.99 is not valid: it must be v3, v4, v4.0, v4.1 or v4.2" },
        { "frob", "1", " (from /etc/x:3)", "frob=1 (from /etc/x:3) is not valid: see nfs(5)" },
        { "sec", "", "", "sec= is not valid: it must be a flavour such as sys, krb5, krb5i or krb5p" },
};
/* clang-format on */

START_TEST(test_describe)
{
        char buf[256];
        opt_describe_invalid(buf, sizeof(buf), describe_rows[_i].name, describe_rows[_i].value,
                             describe_rows[_i].where);
        ck_assert_str_eq(buf, describe_rows[_i].want);
}
END_TEST

static Suite *optmap_suite(void)
{
        Suite *s = suite_create("optmap");
        TCase *tc = tcase_create("rows");
        tcase_add_loop_test(tc, test_rows, 0, ELEMS(rows));
        tcase_add_test(tc, test_flags);
        tcase_add_loop_test(tc, test_describe, 0, ELEMS(describe_rows));
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(optmap_suite)
