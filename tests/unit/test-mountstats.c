/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The live transports of each NFS mount, from /proc/self/mountstats (core/mountstats.c). */
#include <errno.h>

#include "core/mountstats.h"
#include "unit.h"

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
        "  xprt:\tudp 0 1 2 3",
        "device srv:/d1 mounted on /mnt/d with fstype nfs4 statvers=1.1",
        "\txprt:\ttcp 1",
        "device srv:/d2 mounted on /mnt/d with fstype nfs4 statvers=1.1",
        "\txprt:\ttcp 1",
        "\txprt:\ttcp 2",
        "\txprt:\ttcp 3",
        "device tmpfs mounted on /mnt/e with fstype tmpfs",
        "\txprt:\ttcp 1",
        "device srv:/f mounted on /mnt/f with fstype nfs4x statvers=1.1",
        "\txprt:\ttcp 1",
        "device srv:/g mounted on /mnt/back\\134slash\\011tab with fstype nfs statvers=1.1",
        "device srv:/h mounted on /mnt/odd\\9x\\04 with fstype nfs4 statvers=1.1",
        "\txprt:\ttcp 1",
        "\txprtx",
        "device broken line without the words",
        "\txprt:\ttcp 1", /* after a line that names no mount: counted for none */
        "",
};

static const struct {
        const char *target;
        int xprts;
} takes[] = {
        { "/mnt/a b", 2 },
        { "/mnt/a b", -1 },   /* taken */
        { "/mnt/a\\040b", -1 }, /* the escaped form is not a mount point */
        { "/mnt/c", 1 },
        { "/mnt/d", 1 },      /* mounted over: in the file's order */
        { "/mnt/d", 3 },
        { "/mnt/d", -1 },
        { "/proc", -1 },
        { "/", -1 },
        { "/mnt/e", -1 },
        { "/mnt/f", -1 },
        { "/mnt/back\\slash\ttab", 0 },
        { "/mnt/odd\\9x\\04", 1 },
        { "/nowhere", -1 },
};

START_TEST(test_mountstats)
{
        struct mountstats s = { 0 };

        for (size_t i = 0; i < ELEMS(lines); i++)
                ck_assert_int_eq(mountstats_feed(&s, lines[i]), 0);
        ck_assert_uint_eq(s.n, 6);
        for (size_t i = 0; i < ELEMS(takes); i++) {
                int got = mountstats_take(&s, takes[i].target);
                ck_assert_msg(got == takes[i].xprts, "take %zu (%s): %d, want %d", i,
                              takes[i].target, got, takes[i].xprts);
        }
        mountstats_done(&s);
        ck_assert_uint_eq(s.n, 0);
        ck_assert_ptr_null(s.v);
}
END_TEST

START_TEST(test_mountstats_empty)
{
        struct mountstats s = { 0 };

        ck_assert_int_eq(mountstats_feed(&s, "\txprt:\ttcp 1"), 0);
        ck_assert_int_eq(mountstats_take(&s, "/"), -1);
        mountstats_done(&s);
}
END_TEST

static Suite *make_suite(void)
{
        Suite *s = suite_create("mountstats");
        TCase *tc = tcase_create("core");
        tcase_add_test(tc, test_mountstats);
        tcase_add_test(tc, test_mountstats_empty);
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(make_suite)
