/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The live transports of each NFS mount, from /proc/self/mountstats (core/mountstats.c). */
#include <errno.h>

#include "core/mountstats.h"
#include "unit.h"

#define T "\txprt:\ttcp 1 1 1 0 0 9 9 0 9 0 2 0 0"

/* As the kernel prints it, trimmed: mount points escaped with \ooo (seq_escape). */
static const char *const lines[] = {
        "device rootfs mounted on / with fstype rootfs",
        "device proc mounted on /proc with fstype proc",
        "\txprt:\ttcp 0 0 0 0 0 0 0 0 0 0 0 0 0", /* not an NFS mount's */
        "device srv:/a mounted on /mnt/a\\040b with fstype nfs4 statvers=1.1",
        "\topts:\trw,vers=4.2,rsize=1048576,nconnect=2",
        "\tRPC iostats version: 1.1  p/v: 100003/4 (nfs)",
        "\txprt:\ttcp 871 1 1 0 0 2 2 0 2 0 2 0 0",
        "\txprt:\ttcp 872 1 1 0 0 2 2 0 2 0 2 0 0",
        "\tper-op statistics",
        "device srv:/c mounted on /mnt/c with fstype nfs statvers=1.1",
        "  xprt:\tudp 0 1 2 3 4 5 6 7 8 9",
        "\txprt: GARBAGE",                          /* not counted */
        "\txprt:\tudp 0 1 2 3",                     /* too few numbers */
        "\txprt:\ttcp 1 1 1 0 0 9 9 0 9 0 2 0 0 7", /* too many for tcp */
        "\txprt:\ttcp 1 1 1 0 0 9 x 0 9 0 2 0 0",   /* not a number */
        "device srv:/d1 mounted on /mnt/d with fstype nfs4 statvers=1.1",
        T,
        "device srv:/d2 mounted on /mnt/d with fstype nfs4 statvers=1.1",
        T,
        T,
        "\txprt:\trdma 0 1 1 0 0 9 9 0 9 0 2 0 0 5 5 5 5",
        "device tmpfs mounted on /mnt/e with fstype tmpfs",
        T,
        "device srv:/f mounted on /mnt/f with fstype nfs4x statvers=1.1",
        T,
        "device srv:/g mounted on /mnt/back\\134slash\\011tab with fstype nfs statvers=1.1",
        "device srv:/h mounted on /mnt/odd\\9x\\04 with fstype nfs4 statvers=1.1",
        "\txprt:\tlocal 1 1 0 0 9 9 0 9 0 2 0 0",
        "\txprtx",
        "device broken line without the words",
        T, /* after a line that names no mount: counted for none */
        "",
};

/* clang-format off */
static const struct {
        const char *target;
        int xprts;      /* well-formed xprt lines; -1: no entry */
        unsigned bad;
} takes[] = {
        { "/mnt/a b", 2, 0 },
        { "/mnt/a b", -1, 0 },   /* taken */
        { "/mnt/a\\040b", -1, 0 }, /* the escaped form is not a mount point */
        { "/mnt/c", 1, 4 },
        { "/mnt/d", 1, 0 },      /* mounted over: in the file's order */
        { "/mnt/d", 3, 0 },
        { "/mnt/d", -1, 0 },
        { "/proc", -1, 0 },
        { "/", -1, 0 },
        { "/mnt/e", -1, 0 },
        { "/mnt/f", -1, 0 },
        { "/mnt/back\\slash\ttab", 0, 0 },
        { "/mnt/odd\\9x\\04", 1, 0 },
        { "/nowhere", -1, 0 },
};
/* clang-format on */

START_TEST(test_mountstats)
{
        struct mountstats s = { 0 };

        for (size_t i = 0; i < ELEMS(lines); i++)
                ck_assert_int_eq(mountstats_feed(&s, lines[i]), 0);
        ck_assert_uint_eq(s.n, 6);
        for (size_t i = 0; i < ELEMS(takes); i++) {
                const struct mountstats_entry *e = mountstats_take(&s, takes[i].target);
                int got = e ? (int)e->nxprts : -1;
                ck_assert_msg(got == takes[i].xprts, "take %zu (%s): %d, want %d", i,
                              takes[i].target, got, takes[i].xprts);
                ck_assert_uint_eq(e ? e->bad_xprts : 0, takes[i].bad);
        }
        mountstats_done(&s);
        ck_assert_uint_eq(s.n, 0);
        ck_assert_ptr_null(s.v);
}
END_TEST

/* When each superblock was made: its age, and when the file was read. */
START_TEST(test_mountstats_age)
{
        static const char *const ls[] = {
                "device srv:/a mounted on /a with fstype nfs4 statvers=1.1",
                "\topts:\trw",
                "\tage:\t7",
                "\tper-op statistics",
                "\t age: 99", /* an op's line, not the age */
                "device srv:/b mounted on /b with fstype nfs statvers=1.1",
                "\tage:\tx",
                "device srv:/c mounted on /c with fstype nfs statvers=1.1",
                "device srv:/d mounted on /d with fstype nfs statvers=1.1",
                "\tage:\t0",
        };
        struct mountstats s = { 0 };
        const struct mountstats_entry *e;
        struct mount_when w;

        for (size_t i = 0; i < ELEMS(ls); i++)
                ck_assert_int_eq(mountstats_feed(&s, ls[i]), 0);
        /* read from a fixture, not the kernel: no time to count from */
        e = mountstats_take(&s, "/a");
        ck_assert_int_eq(e->age_s, 7);
        ck_assert(!mountstats_when(&s, e).known);
        s.read_start_ms = 100000;
        s.read_end_ms = 100040;
        /* made between 8 and 7 seconds before the reading, a tick either way */
        w = mountstats_when(&s, e);
        ck_assert(w.known);
        ck_assert_int_eq(w.lo_ms, 100000 - 8000 - 100);
        ck_assert_int_eq(w.hi_ms, 100040 - 7000 + 100);
        /* no age, or none to read: no bound */
        e = mountstats_take(&s, "/b");
        ck_assert_int_eq(e->age_s, -1);
        ck_assert(!mountstats_when(&s, e).known);
        e = mountstats_take(&s, "/c");
        ck_assert(!mountstats_when(&s, e).known);
        ck_assert(!mountstats_when(&s, NULL).known);
        e = mountstats_take(&s, "/d");
        w = mountstats_when(&s, e);
        ck_assert(w.known && w.lo_ms == 100000 - 1000 - 100 && w.hi_ms == 100040 + 100);
        mountstats_done(&s);
}
END_TEST

START_TEST(test_mountstats_empty)
{
        struct mountstats s = { 0 };

        ck_assert_int_eq(mountstats_feed(&s, "\txprt:\ttcp 1"), 0);
        ck_assert_ptr_null(mountstats_take(&s, "/"));
        mountstats_done(&s);
}
END_TEST

/* The figures of each transport, as the kernel's xs_*_print_stats lay them out. */
START_TEST(test_parse_xprt)
{
        struct xprt_stats x;

        ck_assert_int_eq(mountstats_parse_xprt("\ttcp 871 1 2 3 4 500 499 0 7 11 65 13 17", &x), 0);
        ck_assert_str_eq(x.proto, "tcp");
        ck_assert_uint_eq(x.srcport, 871);
        ck_assert_uint_eq(x.sends, 500);
        ck_assert_uint_eq(x.recvs, 499);
        ck_assert_uint_eq(x.backlog, 11);
        ck_assert_uint_eq(x.pending, 17);
        ck_assert_int_eq(mountstats_parse_xprt("udp 700 1 50 49 0 7 11 65 13 17", &x), 0);
        ck_assert_uint_eq(x.srcport, 700);
        ck_assert_uint_eq(x.sends, 50);
        ck_assert_uint_eq(x.backlog, 11);
        ck_assert_int_eq(mountstats_parse_xprt("local 1 2 3 -4 60 59 0 7 11 65 13 17", &x), 0);
        ck_assert_uint_eq(x.srcport, 0);
        ck_assert_uint_eq(x.sends, 60);
        ck_assert_int_eq(mountstats_parse_xprt("rdma 0 1 2 3 4 80 79 0 7 11 65 13 17 1 2 3", &x),
                         0);
        ck_assert_uint_eq(x.sends, 80);
        /* clang-format off */
        static const char *const bad[] = {
                "GARBAGE", "", "tcp", "tcp 1 2 3", "tcp 70000 1 2 3 4 5 6 7 8 9 10 11 12",
                "tcp 1 2 3 4 5 6 7 8 9 10 11 12 13 14", "tcpx 1 2 3 4 5 6 7 8 9 10 11 12 13",
                "tcp 1 2 3 4 5 6 7 8 9 10 11 12 1x", "tcp 1 2 3 4 5 6 7 8 9 10 11 12 -",
                "udp 1 2 3 4 5 6 7 8 9", "rdma 1 2 3", "tcp 1 2 3 4 5 6 7 8 9 10 11 12 123456789012345678901",
        };
        /* clang-format on */
        for (size_t i = 0; i < ELEMS(bad); i++)
                ck_assert_msg(mountstats_parse_xprt(bad[i], &x) == -EINVAL, "accepted: %s", bad[i]);
}
END_TEST

/* The switch of a client in the sunrpc sysfs: by the main transport's local port, else by its
 * count of transports (with or without those offline: 6.1 leaves them out of mountstats). */
START_TEST(test_switch)
{
        /* the kernel shows the main transport's port at most */
        struct xprt_stats xs[3] = { { .srcport = 801 }, { .srcport = 0 }, { .srcport = 0 } };
        struct mountstats_entry e = { .xprts = xs, .nxprts = 3 };
        struct mountstats_entry no_port = { .xprts = xs + 1, .nxprts = 2 };
        struct mountstats_entry one = { .xprts = xs + 1, .nxprts = 1 };
        struct xprt_state st[7] = {
                { .switch_id = 1, .srcport = 801 },
                { .switch_id = 1, .srcport = 40001, .offline = true },
                { .switch_id = 1, .srcport = 40002 },
                { .switch_id = 2, .srcport = 40003, .offline = true }, /* another client's */
                { .switch_id = 2, .srcport = 802 },
                { .switch_id = 3, .srcport = 40004 }, /* and a third's */
                { .switch_id = 3, .srcport = 40005 },
        };
        struct nfs_addr a, other;
        unsigned total = 99, offline = 99;

        ck_assert_int_eq(nfs_addr_parse("10.0.0.1", &a), 0);
        ck_assert_int_eq(nfs_addr_parse("10.0.0.2", &other), 0);
        for (size_t i = 0; i < ELEMS(st); i++) {
                st[i].addr = a;
                st[i].port = 2049;
        }
        ck_assert_int_eq(mountstats_switch(&e, &a, 2049, st, ELEMS(st), &total, &offline), 0);
        ck_assert_uint_eq(total, 3);
        ck_assert_uint_eq(offline, 1);
        ck_assert_int_eq(mountstats_switch(&e, &other, 2049, st, ELEMS(st), &total, &offline),
                         -ENOENT);
        ck_assert_int_eq(mountstats_switch(&e, &a, 2049, st, 0, &total, &offline), -ENOENT);
        /* no port shown, 2 lines: switch 1 (3, 1 offline), 2 (2) and 3 (2) fit: not known */
        ck_assert_int_eq(mountstats_switch(&no_port, &a, 2049, st, ELEMS(st), &total, &offline),
                         -ENOENT);
        st[5].port = 20048; /* switch 3 goes elsewhere too; switch 2 (1 offline) and 1 remain */
        ck_assert_int_eq(mountstats_switch(&no_port, &a, 2049, st, ELEMS(st), &total, &offline),
                         -ENOENT);
        st[1].offline = false; /* switch 1 has 3 live: only switch 2 fits 2 */
        ck_assert_int_eq(mountstats_switch(&no_port, &a, 2049, st, ELEMS(st), &total, &offline), 0);
        ck_assert_uint_eq(total, 2);
        ck_assert_uint_eq(offline, 1);
        /* 1 line: switch 2 without its offline one */
        st[4].offline = false;
        ck_assert_int_eq(mountstats_switch(&one, &a, 2049, st, ELEMS(st), &total, &offline), 0);
        ck_assert_uint_eq(total, 2);
        ck_assert_uint_eq(offline, 1);
}
END_TEST

static Suite *make_suite(void)
{
        Suite *s = suite_create("mountstats");
        TCase *tc = tcase_create("core");
        tcase_add_test(tc, test_mountstats);
        tcase_add_test(tc, test_mountstats_age);
        tcase_add_test(tc, test_mountstats_empty);
        tcase_add_test(tc, test_parse_xprt);
        tcase_add_test(tc, test_switch);
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(make_suite)
