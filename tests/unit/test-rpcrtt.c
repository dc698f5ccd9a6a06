/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>

#include "core/rpcrtt.h"
#include "unit.h"

/* clang-format off */
static const struct {
        const char *in;
        int rc;
        unsigned long long ops, rtt;
} op_rows[] = {
        { "READ: 10 10 0 1200 1048576 0 52 53 0", 0, 10, 52 },     /* 5.3 and later: errors */
        { "READ: 10 10 0 1200 1048576 0 52 53", 0, 10, 52 },       /* before: eight numbers */
        { "LOOKUP_ROOT: 1 1 0 200 300 0 3 3 0", 0, 1, 3 },
        { "NULL: 0 0 0 0 0 0 0 0 0", 0, 0, 0 },
        { "GETATTR: 18446744073709551615 1 0 1 1 0 7 7 0", 0, 18446744073709551615ULL, 7 },
        { "READ: 10 10 0 1200 1048576 0 52", -EINVAL, 0, 0 },     /* too few */
        { "READ: 10 10 0 1200 1048576 0 52 53 0 9", -EINVAL, 0, 0 }, /* too many */
        { "READ: 10 10 0 1200 1048576 0 52 53 x", -EINVAL, 0, 0 },
        { "READ:  10 10 0 1200 1048576 0 52 53 0", -EINVAL, 0, 0 },
        { "READ: -1 10 0 1200 1048576 0 52 53 0", -EINVAL, 0, 0 },
        { "READ: 10 10 0 1200 1048576 0 52 53 0 ", -EINVAL, 0, 0 },
        { "GETATTR: 18446744073709551616 1 0 1 1 0 7 7 0", -EINVAL, 0, 0 }, /* 2^64 */
        { "read: 10 10 0 1200 1048576 0 52 53 0", -EINVAL, 0, 0 }, /* not a procedure's name */
        { "xprt: tcp 0 0 1 0 0 10 10 0 10 0 2 0 0", -EINVAL, 0, 0 },
        { "bytes: 1 2 3 4 5 6 7 8", -EINVAL, 0, 0 },
        { ": 1 1 0 1 1 0 1 1 0", -EINVAL, 0, 0 },
        { "", -EINVAL, 0, 0 },
};
/* clang-format on */

START_TEST(test_op)
{
        uint64_t ops = 4242, rtt = 4242;
        int r = rpc_op_parse(op_rows[_i].in, &ops, &rtt);
        ck_assert_msg(r == op_rows[_i].rc, "'%s': %d", op_rows[_i].in, r);
        if (r < 0) {
                ck_assert_uint_eq(ops, 4242);
                return;
        }
        ck_assert_uint_eq(ops, op_rows[_i].ops);
        ck_assert_uint_eq(rtt, op_rows[_i].rtt);
}
END_TEST

/* A mountstats text: the per-op sums of the mount asked for, the last one on its mount point,
 * nothing of the lines before "per-op statistics" or of other mounts. */
static const char *const stats_text[] = {
        "device rootfs mounted on / with fstype rootfs",
        "device srv:/a mounted on /mnt/x with fstype nfs4 statvers=1.1",
        "\tage:\t10",
        "\tper-op statistics",
        "\t        NULL: 1 1 0 44 24 0 900 900 0",
        "device srv:/b mounted on /mnt/my\\040data with fstype nfs statvers=1.1",
        "\tevents:\t1 2 3",
        "\t        READ: 99 99 0 1 1 0 99 99 0", /* before per-op statistics: not counted */
        "\tper-op statistics",
        "\t        NULL: 1 1 0 44 24 0 5 5 0",
        "\t     GETATTR: 4 4 0 600 400 0 20 21 0",
        "\t      FSINFO: 2 2 0 300 200 0 9 9 0",
        "\t      LOOKUP: 0 0 0 0 0 0 0 0 0",
        "\t      BROKEN: 1 2",
        "device srv:/c mounted on /mnt/my\\040data2 with fstype nfs statvers=1.1",
        "\tper-op statistics",
        "\t     GETATTR: 7 7 0 600 400 0 700 700 0",
        "device tmp mounted on /mnt/my\\040data with fstype tmpfs",
        "\tper-op statistics",
        "\t     GETATTR: 7 7 0 600 400 0 700 700 0",
};

static const struct {
        const char *target;
        bool found;
        unsigned long long ops, rtt;
        unsigned kinds;
} scan_rows[] = {
        { "/mnt/my data", true, 7, 34, 3 },
        { "/mnt/x", true, 1, 900, 1 },
        { "/mnt/my data2", true, 7, 700, 1 },
        { "/mnt/my", false, 0, 0, 0 },
        { "/mnt/my\\040data", false, 0, 0, 0 }, /* the escaped text is not the path */
        { "/", false, 0, 0, 0 },                /* not NFS */
};

START_TEST(test_scan)
{
        struct rpc_rtt_scan s = { .target = scan_rows[_i].target };
        for (size_t i = 0; i < ELEMS(stats_text); i++)
                rpc_rtt_feed(&s, stats_text[i]);
        ck_assert_int_eq(s.found, scan_rows[_i].found);
        ck_assert_uint_eq(s.rtt.ops, scan_rows[_i].ops);
        ck_assert_uint_eq(s.rtt.rtt_ms, scan_rows[_i].rtt);
        ck_assert_uint_eq(s.rtt.kinds, scan_rows[_i].kinds);
}
END_TEST

/* A mount mounted over another on the same mount point: the last one's figures. */
START_TEST(test_scan_last)
{
        static const char *const text[] = {
                "device srv:/a mounted on /m with fstype nfs statvers=1.1",
                "\tper-op statistics",
                "\t     GETATTR: 7 7 0 600 400 0 700 700 0",
                "device srv:/b mounted on /m with fstype nfs4 statvers=1.1",
                "\tper-op statistics",
                "\t     GETATTR: 2 2 0 600 400 0 10 10 0",
        };
        struct rpc_rtt_scan s = { .target = "/m" };
        for (size_t i = 0; i < ELEMS(text); i++)
                rpc_rtt_feed(&s, text[i]);
        ck_assert_uint_eq(s.rtt.ops, 2);
        ck_assert_uint_eq(s.rtt.rtt_ms, 10);
}
END_TEST

static Suite *rpcrtt_suite(void)
{
        Suite *s = suite_create("rpcrtt");
        TCase *tc = tcase_create("core");
        tcase_add_loop_test(tc, test_op, 0, ELEMS(op_rows));
        tcase_add_loop_test(tc, test_scan, 0, ELEMS(scan_rows));
        tcase_add_test(tc, test_scan_last);
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(rpcrtt_suite)
