/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <sys/sysmacros.h>

#include "core/readahead.h"
#include "unit.h"

#define KEEP READ_AHEAD_KEEP
#define KB READ_AHEAD_KB
#define MULT READ_AHEAD_RSIZE_MULT
#define AUTO READ_AHEAD_AUTO

/* clang-format off */
static const struct {
        const char *in;
        int rc;
        int kind;
        unsigned long n;
} parse_rows[] = {
        { "keep", 0, KEEP, 0 },
        { "15360", 0, KB, 15360 },
        { "1", 0, KB, 1 },
        { "1048576", 0, KB, 1048576 },
        { "016384", 0, KB, 16384 },
        { "15x", 0, MULT, 15 },
        { "1x", 0, MULT, 1 },
        { "1024x", 0, MULT, 1024 },
        { "0000000000000000000000000015", 0, KB, 15 }, /* 28 characters */
        { "auto", 0, AUTO, 15360 },
        { "auto:8192", 0, AUTO, 8192 },
        { "auto:128", 0, AUTO, 128 },
        { "auto:1048576", 0, AUTO, 1048576 },
        { "auto:127", -EINVAL, 0, 0 }, /* below the kernel's own */
        { "auto:1048577", -EINVAL, 0, 0 },
        { "auto:", -EINVAL, 0, 0 },
        { "auto:x", -EINVAL, 0, 0 },
        { "auto:8M", -EINVAL, 0, 0 },
        { "AUTO", -EINVAL, 0, 0 },
        { "auto ", -EINVAL, 0, 0 },
        { "autox", -EINVAL, 0, 0 },
        { "1048577", -EINVAL, 0, 0 },
        { "0", -EINVAL, 0, 0 },
        { "0x", -EINVAL, 0, 0 },
        { "1025x", -EINVAL, 0, 0 },
        { "x", -EINVAL, 0, 0 },
        { "15xx", -EINVAL, 0, 0 },
        { "15X", -EINVAL, 0, 0 },
        { "x15", -EINVAL, 0, 0 },
        { "KEEP", -EINVAL, 0, 0 },
        { "keep ", -EINVAL, 0, 0 },
        { " keep", -EINVAL, 0, 0 },
        { "", -EINVAL, 0, 0 },
        { NULL, -EINVAL, 0, 0 },
        { "-1", -EINVAL, 0, 0 },
        { "+5", -EINVAL, 0, 0 },
        { " 15", -EINVAL, 0, 0 },
        { "15 ", -EINVAL, 0, 0 },
        { "15 x", -EINVAL, 0, 0 },
        { "15k", -EINVAL, 0, 0 },
        { "15M", -EINVAL, 0, 0 },
        { "1.5x", -EINVAL, 0, 0 },
        { "0x10", -EINVAL, 0, 0 },
        { "18446744073709551616", -EINVAL, 0, 0 },
        { "00000000000000000000000000000015", -EINVAL, 0, 0 }, /* 32 characters: too long */
        { "0000000000000000000000000000015x", -EINVAL, 0, 0 },
};
/* clang-format on */

START_TEST(test_parse)
{
        struct read_ahead ra = { .kind = KB, .n = 4242 };
        int r = read_ahead_parse(parse_rows[_i].in, &ra);
        ck_assert_msg(r == parse_rows[_i].rc, "'%s': rc %d, want %d", S(parse_rows[_i].in), r,
                      parse_rows[_i].rc);
        if (r < 0) {
                ck_assert_uint_eq(ra.n, 4242); /* untouched */
                return;
        }
        ck_assert_int_eq(ra.kind, parse_rows[_i].kind);
        ck_assert_uint_eq(ra.n, parse_rows[_i].n);
}
END_TEST

static const struct {
        int kind;
        unsigned long n, rsize, kb;
} kb_rows[] = {
        { KEEP, 0, 1048576, 0 },
        { KEEP, 15, 1048576, 0 },
        { KB, 15360, 0, 15360 },
        { KB, 15360, 1048576, 15360 },
        { KB, 1, 65536, 1 },
        { MULT, 15, 1048576, 15360 },
        { MULT, 15, 65536, 960 },
        { MULT, 15, 262144, 3840 },
        { MULT, 1, 1024, 1 },
        { MULT, 15, 1023, 0 }, /* less than 1 KiB of rsize: nothing */
        { MULT, 15, 0, 0 },    /* rsize unknown: nothing */
        { MULT, 2, 1536, 2 },  /* rsize rounded down to whole KiB */
        { MULT, 1024, 1048576, 1048576 },
        { MULT, 1024, 1UL << 30, READ_AHEAD_KB_MAX }, /* capped */
        { MULT, 1024, 4294967295UL, READ_AHEAD_KB_MAX },
};

START_TEST(test_kb)
{
        struct read_ahead ra = { .n = kb_rows[_i].n };
        ra.kind = kb_rows[_i].kind;
        /* a fixed value or a multiple does not depend on nconnect */
        ck_assert_uint_eq(read_ahead_kb(&ra, kb_rows[_i].rsize, 1, 5000), kb_rows[_i].kb);
        ck_assert_uint_eq(read_ahead_kb(&ra, kb_rows[_i].rsize, 16, 5000), kb_rows[_i].kb);
}
END_TEST

/* auto: bandwidth x round trip + nconnect x rsize, rounded up to a power of two from 128 KiB,
 * at most MAX; MAX without a round trip. */
static const struct {
        const char *in;
        unsigned long bw, rtt_us, rsize;
        unsigned conns; /* nconnect */
        unsigned long kb;
} auto_rows[] = {
        { "auto", 1024, 0, 1048576, 1, 15360 }, /* no round trip known: MAX */
        { "auto:4096", 1024, 0, 0, 1, 4096 },
        { "auto", 1024, 1, 0, 1, 128 },          /* 2 KiB: the kernel's 128 KiB at least */
        { "auto", 1024, 122, 0, 1, 128 },        /* 127.9 KiB, up to 128 */
        { "auto", 1024, 123, 0, 1, 256 },        /* 129 KiB: the next power of two */
        { "auto", 1024, 500, 0, 1, 1024 },       /* 524.3 KiB */
        { "auto", 1024, 500, 262144, 1, 1024 },  /* 525 + 256 KiB */
        { "auto", 1024, 500, 1048576, 1, 2048 }, /* 525 + 1024 KiB */
        { "auto", 1024, 5000, 0, 1, 8192 },      /* 5 MiB */
        { "auto", 1024, 10000, 0, 1, 15360 },    /* 10 MiB: 16 MiB, capped at MAX */
        { "auto", 100, 5000, 0, 1, 512 },        /* 512 KiB, exactly */
        { "auto", 100, 5001, 0, 1, 1024 },
        { "auto", 100, 20000, 0, 1, 2048 },
        { "auto", 100, 40000, 0, 1, 4096 },
        { "auto", 100, 300, 32768, 1, 128 },    /* 31 + 32 KiB */
        { "auto", 100, 300, 131072, 1, 256 },   /* 31 + 128 KiB */
        { "auto", 100, 300, 1048576, 1, 2048 }, /* 31 + 1024 KiB */
        { "auto", 100, 300, 1000, 1, 128 },     /* less than 1 KiB of rsize: none */
        { "auto:65536", 100, 80000, 0, 1, 8192 },
        { "auto:2048", 100, 40000, 0, 1, 2048 },
        { "auto:300", 1024, 5000, 0, 1, 300 }, /* a MAX that is no power of two */
        { "auto:300", 1024, 200, 0, 1, 256 },
        { "auto", 1, 1, 0, 1, 128 },
        { "auto:1048576", 1048576, 60000000, 4294967295UL, 1,
          1048576 }, /* the largest: no overflow */
        { "auto:1048576", 1048576, 60000000, 4294967295UL, 16, 1048576 },
        /* nconnect 8: a read in flight on each connection (the lab's rawcap: 19 MiB/s, rsize
         * 256 KiB, 2.6 to 41 ms; 512 KiB to 2 MiB with one connection, 4 MiB with eight) */
        { "auto", 19, 2600, 262144, 1, 512 },     /* 51 + 256 KiB */
        { "auto", 19, 2600, 262144, 8, 4096 },    /* 51 + 8 x 256 KiB */
        { "auto", 19, 41000, 262144, 1, 2048 },   /* 798 + 256 KiB */
        { "auto", 19, 41000, 262144, 8, 4096 },   /* 798 + 2048 KiB */
        { "auto", 1024, 500, 1048576, 8, 15360 }, /* 525 + 8 MiB: 16 MiB, capped at MAX */
        { "auto", 100, 300, 131072, 0, 256 },     /* nconnect not shown: one connection */
        { "auto", 100, 300, 131072, 2, 512 },     /* 31 + 256 KiB */
};

START_TEST(test_auto)
{
        struct read_ahead ra;
        ck_assert_int_eq(read_ahead_parse(auto_rows[_i].in, &ra), 0);
        ck_assert_uint_eq(ra.bw, READ_AHEAD_BW_DEFAULT);
        ra.bw = auto_rows[_i].bw;
        unsigned long kb = read_ahead_kb(&ra, auto_rows[_i].rsize, auto_rows[_i].conns,
                                         auto_rows[_i].rtt_us);
        ck_assert_msg(kb == auto_rows[_i].kb, "row %d: %lu KiB, want %lu", _i, kb,
                      auto_rows[_i].kb);
}
END_TEST

/* mountstats' per-op sums to a mean round trip: each operation's sum is truncated to whole
 * ms, so half a ms comes back for each */
static const struct {
        unsigned long long ops, rtt_ms;
        unsigned kinds;
        unsigned long us;
} rtt_rows[] = {
        { 0, 0, 0, 0 }, /* no RPC: not known */
        { 0, 5, 1, 0 },
        { 10, 50, 5, 5250 }, /* (50 + 2.5) ms / 10 */
        { 4, 0, 4, 500 },    /* sub-ms round trips: each sum read as 0 */
        { 1, 0, 0, 1 },      /* never 0 once there was a request */
        { 1000, 20000, 8, 20004 },
        { 1, 100000000, 1, 60000000 }, /* capped at a minute */
};

START_TEST(test_rtt)
{
        ck_assert_uint_eq(
                read_ahead_rtt_us(rtt_rows[_i].ops, rtt_rows[_i].rtt_ms, rtt_rows[_i].kinds),
                rtt_rows[_i].us);
}
END_TEST

/* parse then compute: the config spellings end to end */
/* clang-format off */
static const struct {
        const char *in;
        unsigned long rsize, kb;
} e2e_rows[] = {
        { "15x", 1048576, 15360 }, { "16384", 4096, 16384 }, { "keep", 1048576, 0 }, { "4x", 524288, 2048 },
        { "auto", 1048576, 15360 }, { "auto:512", 0, 512 },
};
/* clang-format on */

START_TEST(test_end_to_end)
{
        struct read_ahead ra;
        ck_assert_int_eq(read_ahead_parse(e2e_rows[_i].in, &ra), 0);
        ck_assert_uint_eq(read_ahead_kb(&ra, e2e_rows[_i].rsize, 1, 0), e2e_rows[_i].kb);
}
END_TEST

/* The decision for a new mount: leave, shared superblock, or write how much. */
/* clang-format off */
static const struct {
        const char *ra;
        unsigned long rsize;
        unsigned dev_minor;          /* the new mount's superblock 0:N */
        unsigned before[3];          /* superblocks 0:N that existed before mount.nfs ran */
        unsigned long rtt_us;
        enum read_ahead_step step;
        unsigned long kb;
} plan_rows[] = {
        { "keep", 1048576, 50, { 0 }, 0, READ_AHEAD_LEAVE, 0 },
        { "15x", 1048576, 50, { 0 }, 0, READ_AHEAD_WRITE, 15360 },
        { "15x", 1048576, 50, { 48, 49 }, 0, READ_AHEAD_WRITE, 15360 },
        /* a shared superblock shares its bdi: never touched */
        { "15x", 1048576, 50, { 48, 50 }, 0, READ_AHEAD_SHARED, 15360 },
        { "16384", 0, 51, { 51 }, 0, READ_AHEAD_SHARED, 16384 },
        /* rsize unknown (0) with a multiple: nothing to write */
        { "15x", 0, 50, { 0 }, 0, READ_AHEAD_LEAVE, 0 },
        { "16384", 0, 50, { 0 }, 0, READ_AHEAD_WRITE, 16384 },
        /* auto: sized from the round trip (1 GiB/s x 1 ms + 1 MiB = 2.02 MiB: 4 MiB) */
        { "auto", 1048576, 50, { 0 }, 1000, READ_AHEAD_WRITE, 4096 },
        { "auto", 0, 50, { 0 }, 0, READ_AHEAD_WRITE, 15360 },
        { "auto", 1048576, 50, { 50 }, 1000, READ_AHEAD_SHARED, 4096 },
};
/* clang-format on */

START_TEST(test_plan)
{
        struct read_ahead ra;
        dev_t before[3];
        size_t n = 0;
        for (size_t i = 0; i < 3 && plan_rows[_i].before[i]; i++)
                before[n++] = makedev(0, plan_rows[_i].before[i]);
        ck_assert_int_eq(read_ahead_parse(plan_rows[_i].ra, &ra), 0);
        struct read_ahead_plan p = read_ahead_plan(&ra, makedev(0, plan_rows[_i].dev_minor),
                                                   plan_rows[_i].rsize, 1, plan_rows[_i].rtt_us,
                                                   before, n);
        ck_assert_msg(p.step == plan_rows[_i].step, "row %d: step %d", _i, p.step);
        ck_assert_uint_eq(p.kb, plan_rows[_i].kb);
}
END_TEST

/* What the kernel reads back: whole pages (4 KiB here; 64 KiB on some arm64 and ppc64). */
/* Waiting for udev, or the rule's last word: the rule must be udev's last writer and see the
 * mount as the helper does, else nfsrahead's value would stay. */
static const struct {
        bool running, rule_last, sees, auto_window;
        enum read_ahead_udev want;
} udev_rows[] = {
        { false, false, false, false, READ_AHEAD_UDEV_NONE },
        { false, true, true, false, READ_AHEAD_UDEV_NONE },
        { true, true, true, false, READ_AHEAD_UDEV_RULE },
        { true, false, true, false,
          READ_AHEAD_UDEV_WAIT }, /* absent, masked, replaced, overwritten */
        { true, true, false, false, READ_AHEAD_UDEV_WAIT }, /* udev in other namespaces */
        { true, false, false, false, READ_AHEAD_UDEV_WAIT },
        /* auto: the rule cannot know the round trip the mount path measures */
        { true, true, true, true, READ_AHEAD_UDEV_WAIT },
        { false, true, true, true, READ_AHEAD_UDEV_NONE },
};

START_TEST(test_udev_decide)
{
        enum read_ahead_udev got = read_ahead_udev_decide(
                udev_rows[_i].running, udev_rows[_i].rule_last, udev_rows[_i].sees,
                udev_rows[_i].auto_window);
        ck_assert_msg(got == udev_rows[_i].want, "row %d: %d", _i, got);
}
END_TEST

static const struct {
        unsigned long wanted, now, page_kb;
        bool ok;
} readback_rows[] = {
        { 15360, 15360, 4, true }, { 777, 776, 4, true },    { 777, 777, 4, true },
        { 777, 772, 4, false },    { 15360, 128, 4, false }, { 100, 64, 64, true },
        { 100, 96, 64, false },    { 100, 100, 0, true },    { 100, 96, 0, false },
        { 3, 0, 4, true },
};

START_TEST(test_readback)
{
        ck_assert_int_eq(read_ahead_readback_ok(readback_rows[_i].wanted, readback_rows[_i].now,
                                                readback_rows[_i].page_kb),
                         readback_rows[_i].ok);
}
END_TEST

static Suite *readahead_suite(void)
{
        Suite *s = suite_create("readahead");
        TCase *tc = tcase_create("core");
        tcase_add_loop_test(tc, test_parse, 0, ELEMS(parse_rows));
        tcase_add_loop_test(tc, test_auto, 0, ELEMS(auto_rows));
        tcase_add_loop_test(tc, test_rtt, 0, ELEMS(rtt_rows));
        tcase_add_loop_test(tc, test_kb, 0, ELEMS(kb_rows));
        tcase_add_loop_test(tc, test_end_to_end, 0, ELEMS(e2e_rows));
        tcase_add_loop_test(tc, test_plan, 0, ELEMS(plan_rows));
        tcase_add_loop_test(tc, test_readback, 0, ELEMS(readback_rows));
        tcase_add_loop_test(tc, test_udev_decide, 0, ELEMS(udev_rows));
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(readahead_suite)
