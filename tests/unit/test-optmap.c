/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>

#include "core/optmap.h"
#include "unit.h"

/* One row per rule: the table answers every question about an option. */
static const struct {
        const char *name, *value;
        bool helper;
        int check;        /* opt_check_value() */
        const char *hint; /* opt_hint() */
} rows[] = {
        { "read_ahead_kb", "15x", true, 0, "a size in KiB (15360), a multiple of rsize (15x) or keep" },
        { "read_ahead_kb", "lots", true, -EINVAL, NULL },
        { "read_ahead_kb", NULL, true, -EINVAL, NULL },
        { "nconnect_policy", "follow", true, 0, "warn, refuse or follow" },
        { "nconnect_policy", "maybe", true, -EINVAL, NULL },
        { "krb5_policy", "refuse", true, 0, "warn or refuse" },
        { "krb5_policy", "follow", true, -EINVAL, NULL },
        { "mount_nfs", "/sbin/mount.nfs", true, 0, "an absolute path" },
        { "mount_nfs", "mount.nfs", true, -EINVAL, NULL },
        /* NFS options: the request parser checks them, the table gives the words */
        { "nconnect", "99", false, 0, "a number from 1 to 16" },
        { "nfsvers", "9", false, 0, "3, 4, 4.0, 4.1 or 4.2" },
        { "proto", "sctp", false, 0, "tcp, tcp6, udp, udp6, rdma or rdma6" },
        /* addr= carries why it is not used, not a hint */
        { "addr", "10.0.0.1", false, 0, "see nfs(5)" },
        { "hard", NULL, false, 0, "see nfs(5)" },
        { "READ_AHEAD_KB", "lots", false, 0, "see nfs(5)" },
        { "", NULL, false, 0, "see nfs(5)" },
};

START_TEST(test_rows)
{
        ck_assert_int_eq(is_helper_key(rows[_i].name), rows[_i].helper);
        ck_assert_int_eq(opt_check_value(rows[_i].name, rows[_i].value), rows[_i].check);
        if (rows[_i].hint)
                ck_assert_str_eq(opt_hint(rows[_i].name), rows[_i].hint);
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

static Suite *optmap_suite(void)
{
        Suite *s = suite_create("optmap");
        TCase *tc = tcase_create("rows");
        tcase_add_loop_test(tc, test_rows, 0, ELEMS(rows));
        tcase_add_test(tc, test_flags);
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(optmap_suite)
