/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The udev mode's decision (core/bdievent.c) and the mount record (core/record.c).  The same
 * table is decided by the mount path's steps too: the two paths must never disagree.
 */
#include <errno.h>
#include <sys/sysmacros.h>

#include "core/bdievent.h"
#include "core/config.h"
#include "core/merge.h"
#include "core/plan.h"
#include "core/record.h"
#include "core/spec.h"
#include "shared/macro.h"
#include "unit.h"

#define CONF                                                 \
        "[global]\nread_ahead_kb = 1024\n"                   \
        "[server \"filer\"]\nread_ahead_kb = 2048\n"         \
        "[server \"*.example.com\"]\nread_ahead_kb = 3072\n" \
        "[server \"10.20.0.0/16\"]\nread_ahead_kb = 15x\n"   \
        "[server \"fd00::/64\"]\nread_ahead_kb = 5120\n"     \
        "[mountpoint \"/data\"]\nread_ahead_kb = 4096\n"     \
        "[mountpoint \"/scratch/*\"]\nread_ahead_kb = keep\n"

#define OPTS(rsize, nconnect, addr) \
        "rw,vers=3,rsize=" rsize ",wsize=1048576,hard" nconnect ",proto=tcp,sec=sys,addr=" addr

/* clang-format off */
static const struct {
        const char *name;
        const char *source, *target, *opts; /* NULL source: only nfsfs volumes lists it */
        const char *volume_addr;
        const char *record;                 /* the record's read_ahead_kb; NULL: no record */
        enum read_ahead_step step;
        unsigned long kb;
        const char *from;                   /* section pattern, "global", "record", "" none */
} rows[] = {
        { "global", "10.99.0.1:/e", "/mnt/e", OPTS("1048576", "", "10.99.0.1"), NULL, NULL,
          READ_AHEAD_WRITE, 1024, "global" },
        { "server by name as written", "filer:/e", "/mnt/e", OPTS("1048576", "", "10.99.0.1"),
          NULL, NULL, READ_AHEAD_WRITE, 2048, "filer" },
        { "server by name, case", "FILER:/e", "/mnt/e", OPTS("1048576", "", "10.99.0.1"), NULL,
          NULL, READ_AHEAD_WRITE, 2048, "filer" },
        { "server by glob", "nas.example.com:/e", "/mnt/e", OPTS("1048576", "", "10.99.0.1"),
          NULL, NULL, READ_AHEAD_WRITE, 3072, "*.example.com" },
        { "server by CIDR over addr=, 15x rsize", "n:/e", "/mnt/e",
          OPTS("262144", "", "10.20.3.4"), NULL, NULL, READ_AHEAD_WRITE, 3840, "10.20.0.0/16" },
        { "server by IPv6 CIDR", "[fd00::1]:/e", "/mnt/e", OPTS("1048576", "", "fd00::1"), NULL,
          NULL, READ_AHEAD_WRITE, 5120, "fd00::/64" },
        { "mountpoint beats server", "filer:/e", "/data", OPTS("1048576", "", "10.99.0.1"),
          NULL, NULL, READ_AHEAD_WRITE, 4096, "/data" },
        { "mountpoint glob keep", "filer:/e", "/scratch/x", OPTS("1048576", "", "10.99.0.1"),
          NULL, NULL, READ_AHEAD_LEAVE, 0, "/scratch/*" },
        { "the record beats every section", "filer:/e", "/data", OPTS("1048576", "", "10.99.0.1"),
          NULL, "8192", READ_AHEAD_WRITE, 8192, "record" },
        { "the record's keep", "filer:/e", "/data", OPTS("1048576", "", "10.99.0.1"), NULL,
          "keep", READ_AHEAD_LEAVE, 0, "record" },
        { "the record's 15x", "n:/e", "/mnt/e", OPTS("65536", "", "10.99.0.1"), NULL, "15x",
          READ_AHEAD_WRITE, 960, "record" },
        { "volume only: server section by address", NULL, NULL, NULL, "10.20.0.9", NULL,
          READ_AHEAD_LEAVE, 0, "10.20.0.0/16" }, /* 15x of an unknown rsize */
        { "volume only: global", NULL, NULL, NULL, "10.99.0.1", NULL, READ_AHEAD_WRITE, 1024,
          "global" },
};
/* clang-format on */

static struct nfs_mount mount_of(size_t i)
{
        struct nfs_mount m = { 0 };
        if (rows[i].source)
                ck_assert_int_eq(nfs_mount_from_entry("nfs", rows[i].opts, rows[i].target,
                                                      rows[i].source, makedev(0, 60), &m),
                                 0);
        return m;
}

static struct mount_record record_of(size_t i)
{
        struct mount_record r = { .spec = strdup(S(rows[i].source)),
                                  .target = strdup(S(rows[i].target)),
                                  .server = strdup("10.99.0.1"),
                                  .nconnect = 1 };
        if (rows[i].record)
                ck_assert_int_eq(read_ahead_parse(rows[i].record, &r.read_ahead), 0);
        return r;
}

static struct config config_of(const char *text)
{
        struct config c = { 0 };
        ck_assert_int_eq(config_parse(&c, "/etc/nfs-tuned.conf", text), 0);
        ck_assert_uint_eq(c.nerrors, 0);
        return c;
}

static const char *from_of(const struct bdi_decision *d)
{
        if (d->from_record)
                return "record";
        if (!d->from)
                return "";
        return d->from->pattern ? d->from->pattern : "global";
}

START_TEST(test_decide)
{
        struct config c = config_of(CONF);
        struct nfs_mount m = mount_of(_i);
        struct mount_record rec = record_of(_i);
        struct nfs_addr va;
        struct bdi_event ev = { .dev = makedev(0, 60),
                                .mount = rows[_i].source ? &m : NULL,
                                .record = rows[_i].record ? &rec : NULL };
        struct bdi_decision d;

        if (rows[_i].volume_addr) {
                ck_assert_int_eq(nfs_addr_parse(rows[_i].volume_addr, &va), 0);
                ev.volume_addr = &va;
        }
        ck_assert_int_eq(bdi_event_decide(&c, &ev, &d), 0);
        ck_assert_msg(d.plan.step == rows[_i].step, "%s: step %d, want %d", rows[_i].name,
                      d.plan.step, rows[_i].step);
        ck_assert_msg(d.plan.step != READ_AHEAD_WRITE || d.plan.kb == rows[_i].kb,
                      "%s: %lu KiB, want %lu", rows[_i].name, d.plan.kb, rows[_i].kb);
        ck_assert_msg(streq(from_of(&d), rows[_i].from), "%s: from '%s', want '%s'", rows[_i].name,
                      from_of(&d), rows[_i].from);
        ck_assert(!d.nconnect_differs);
        mount_record_done(&rec);
        nfs_mount_done(&m);
        config_done(&c);
}
END_TEST

/* What the mount path decides for the same mount, typed as the source and with its -o. */
static struct read_ahead_plan mount_path_plan(const struct config *c, const struct nfs_mount *m,
                                              const char *cmdline_ra)
{
        struct nfs_spec spec;
        struct optlist cmd = { 0 };
        struct merged merged;
        struct settings set;

        ck_assert_int_eq(nfs_spec_parse(m->source, &spec), 0);
        if (cmdline_ra)
                ck_assert_int_eq(optlist_add(&cmd, "read_ahead_kb", cmdline_ra), 0);
        struct match_input in = { spec.host, &m->addr, 1, m->target };
        ck_assert_int_eq(config_merge(c, &cmd, &in, false, &merged), 0);
        ck_assert_int_eq(plan_settings(&merged, &set, NULL), 0);
        struct read_ahead_plan p = read_ahead_plan(&set.read_ahead, m->dev, m->rsize, m->nconnect,
                                                   0, NULL, 0);
        merged_done(&merged);
        optlist_done(&cmd);
        nfs_spec_done(&spec);
        return p;
}

START_TEST(test_paths_agree)
{
        struct config c = config_of(CONF);
        struct nfs_mount m = mount_of(_i);
        struct mount_record rec = record_of(_i);
        struct bdi_event ev = { .dev = m.dev,
                                .mount = &m,
                                .record = rows[_i].record ? &rec : NULL };
        struct bdi_decision d;

        if (!rows[_i].source)
                goto out; /* the mount path always has a mount */
        ck_assert_int_eq(bdi_event_decide(&c, &ev, &d), 0);
        struct read_ahead_plan p = mount_path_plan(&c, &m, rows[_i].record);
        ck_assert_msg(p.step == d.plan.step && p.kb == d.plan.kb,
                      "%s: mount path %d/%lu, udev path %d/%lu", rows[_i].name, p.step, p.kb,
                      d.plan.step, d.plan.kb);
out:
        mount_record_done(&rec);
        nfs_mount_done(&m);
        config_done(&c);
}
END_TEST

/* A record is used only for its own mount point and source; a bg mount's nconnect is checked. */
START_TEST(test_record_match_and_bg)
{
        struct config c = config_of(CONF);
        struct nfs_mount m;
        struct bdi_decision d;
        struct mount_record rec = { .spec = strdup("filer:/e"),
                                    .target = strdup("/data"),
                                    .server = strdup("10.99.0.1"),
                                    .nconnect = 8,
                                    .read_ahead = { READ_AHEAD_KB, 8192 },
                                    .bg = true };

        ck_assert_int_eq(nfs_mount_from_entry("nfs", OPTS("1048576", ",nconnect=4", "10.99.0.1"),
                                              "/data", "filer:/e", makedev(0, 61), &m),
                         0);
        struct bdi_event ev = { .dev = m.dev, .mount = &m, .record = &rec };
        ck_assert_int_eq(bdi_event_decide(&c, &ev, &d), 0);
        ck_assert(d.from_record && d.plan.kb == 8192 && d.nconnect_differs);
        /* the plan was nconnect=4: no word */
        rec.nconnect = 4;
        ck_assert_int_eq(bdi_event_decide(&c, &ev, &d), 0);
        ck_assert(!d.nconnect_differs);
        /* not bg: the helper verified it itself */
        rec.nconnect = 8;
        rec.bg = false;
        ck_assert_int_eq(bdi_event_decide(&c, &ev, &d), 0);
        ck_assert(!d.nconnect_differs);
        /* a record of another source on this mount point (stale) is not used */
        free(rec.spec);
        rec.spec = strdup("other:/e");
        rec.bg = true;
        ck_assert_int_eq(bdi_event_decide(&c, &ev, &d), 0);
        ck_assert(!d.from_record && d.plan.kb == 4096 && !d.nconnect_differs);
        /* one of this source and mount point but another superblock (a plain mount.nfs made
         * it later): stale, for the udev mode as for status, so a udevadm trigger does not
         * write its value again */
        free(rec.spec);
        rec.spec = strdup("filer:/e");
        rec.dev = makedev(0, 53);
        ck_assert_int_eq(bdi_event_decide(&c, &ev, &d), 0);
        ck_assert(!d.from_record && d.plan.kb == 4096);
        ck_assert(!mount_record_matches(&rec, &m, NULL));
        rec.dev = m.dev;
        ck_assert_int_eq(bdi_event_decide(&c, &ev, &d), 0);
        ck_assert(d.from_record && d.plan.kb == 8192);
        mount_record_done(&rec);
        nfs_mount_done(&m);
        config_done(&c);
}
END_TEST

/* clang-format off */
static const struct {
        const char *target, *name;
} name_rows[] = {
        { "/mnt/data", "mnt-data" },
        { "/", "-" },
        { "/mnt/data-1", "mnt-data\\x2d1" },
        { "/mnt//a/", "mnt-a" },
        { "/.hidden/x y", "\\x2ehidden-x\\x20y" },
        { "/a/.b", "a-.b" },
        { "/srv/näs", "srv-n\\xc3\\xa4s" },
        { "/a:b_c.d", "a:b_c.d" },
};
/* clang-format on */

START_TEST(test_record_name)
{
        char *n = NULL;
        ck_assert_int_eq(mount_record_name(name_rows[_i].target, &n), 0);
        ck_assert_str_eq(n, name_rows[_i].name);
        free(n);
}
END_TEST

START_TEST(test_record_name_too_long)
{
        char t[300], *n = NULL;
        memset(t, 'a', sizeof(t) - 1);
        t[0] = '/';
        t[sizeof(t) - 1] = '\0';
        ck_assert_int_eq(mount_record_name(t, &n), -ENAMETOOLONG);
        ck_assert_ptr_null(n);
}
END_TEST

START_TEST(test_record_roundtrip)
{
        struct mount_record in = { .spec = "filer:/export",
                                   .target = "/mnt/data",
                                   .server = "10.99.0.1",
                                   .nconnect = 8,
                                   .read_ahead = { READ_AHEAD_RSIZE_MULT, 15 },
                                   .bg = true,
                                   .nconnect_from = ORIGIN_NONE,
                                   .read_ahead_from = ORIGIN_NONE };
        struct mount_record out;
        char *text = NULL;

        ck_assert_int_eq(mount_record_format(&in, &text), 0);
        ck_assert_str_eq(text, "# nfs-tuned mount record 1\nspec=filer:/export\n"
                               "target=/mnt/data\nserver=10.99.0.1\nnconnect=8\n"
                               "read_ahead_kb=15x\nbg=yes\nnconnect_requested=0\n"
                               "nconnect_from=none\nread_ahead_from=none\nxprtsec=none\n");
        ck_assert_int_eq(mount_record_parse(text, &out), 0);
        ck_assert_str_eq(out.spec, in.spec);
        ck_assert_str_eq(out.target, in.target);
        ck_assert_str_eq(out.server, in.server);
        ck_assert_uint_eq(out.nconnect, 8);
        ck_assert(out.read_ahead.kind == READ_AHEAD_RSIZE_MULT && out.read_ahead.n == 15);
        ck_assert(out.bg);
        mount_record_done(&out);
        free(text);
        in.target = "/mnt/a\nb";
        ck_assert_int_eq(mount_record_format(&in, &text), -EINVAL);
}
END_TEST

/* What was asked and where it came from, and the superblock, read back as written. */
START_TEST(test_record_roundtrip_asked)
{
        struct mount_record in = { .spec = "filer:/export",
                                   .target = "/mnt/data",
                                   .server = "",
                                   .nconnect = 4,
                                   .read_ahead = { READ_AHEAD_KB, 15360 },
                                   .nconnect_requested = 8,
                                   .nconnect_from = ORIGIN_CONFIG,
                                   .read_ahead_from = ORIGIN_CMDLINE,
                                   .dev = makedev(0, 53),
                                   .xprtsec = "mtls" };
        struct mount_record out;
        char *text = NULL;

        ck_assert_int_eq(mount_record_format(&in, &text), 0);
        ck_assert_str_eq(text, "# nfs-tuned mount record 1\nspec=filer:/export\n"
                               "target=/mnt/data\nserver=\nnconnect=4\nread_ahead_kb=15360\n"
                               "bg=no\nnconnect_requested=8\nnconnect_from=config\n"
                               "read_ahead_from=cmdline\nxprtsec=mtls\ndev=0:53\n");
        ck_assert_int_eq(mount_record_parse(text, &out), 0);
        ck_assert_str_eq(out.server, "");
        ck_assert_uint_eq(out.nconnect, 4);
        ck_assert(out.read_ahead.kind == READ_AHEAD_KB && out.read_ahead.n == 15360);
        ck_assert(!out.bg);
        ck_assert_uint_eq(out.nconnect_requested, 8);
        ck_assert_int_eq(out.nconnect_from, ORIGIN_CONFIG);
        ck_assert_int_eq(out.read_ahead_from, ORIGIN_CMDLINE);
        ck_assert(out.dev == makedev(0, 53));
        ck_assert_str_eq(out.xprtsec, "mtls");
        mount_record_done(&out);
        free(text);
        /* the largest device number of the format, and a record with every origin "none" */
        in.dev = makedev(4095, 1048575);
        in.nconnect_from = in.read_ahead_from = ORIGIN_NONE;
        ck_assert_int_eq(mount_record_format(&in, &text), 0);
        ck_assert_int_eq(mount_record_parse(text, &out), 0);
        ck_assert(out.dev == makedev(4095, 1048575));
        ck_assert_int_eq(out.nconnect_from, ORIGIN_NONE);
        ck_assert_int_eq(out.read_ahead_from, ORIGIN_NONE);
        mount_record_done(&out);
        free(text);
}
END_TEST

/* read_ahead_kb = auto: its bandwidth and the round trip the mount path measured read back,
 * whichever order the lines come in */
START_TEST(test_record_roundtrip_auto)
{
        struct mount_record in = { .spec = "filer:/export",
                                   .target = "/mnt/data",
                                   .server = "10.99.0.1",
                                   .read_ahead = { READ_AHEAD_AUTO, 8192, 250 },
                                   .dev = makedev(0, 53),
                                   .rtt_us = 5071 };
        struct mount_record out;
        char *text = NULL;

        ck_assert_int_eq(mount_record_format(&in, &text), 0);
        ck_assert_str_eq(text, "# nfs-tuned mount record 1\nspec=filer:/export\n"
                               "target=/mnt/data\nserver=10.99.0.1\nnconnect=0\n"
                               "read_ahead_kb=auto:8192\nread_ahead_bandwidth=250\nbg=no\n"
                               "nconnect_requested=0\nnconnect_from=unknown\n"
                               "read_ahead_from=unknown\nxprtsec=none\ndev=0:53\n"
                               "read_ahead_rtt_us=5071\n");
        ck_assert_int_eq(mount_record_parse(text, &out), 0);
        ck_assert(out.read_ahead.kind == READ_AHEAD_AUTO && out.read_ahead.n == 8192);
        ck_assert_uint_eq(out.read_ahead.bw, 250);
        ck_assert_uint_eq(out.rtt_us, 5071);
        mount_record_done(&out);
        free(text);
        ck_assert_int_eq(mount_record_parse("# nfs-tuned mount record 1\nspec=a:/b\ntarget=/m\n"
                                            "read_ahead_bandwidth=40\nread_ahead_kb=auto\n",
                                            &out),
                         0);
        ck_assert(out.read_ahead.kind == READ_AHEAD_AUTO && out.read_ahead.n == 15360);
        ck_assert_uint_eq(out.read_ahead.bw, 40);
        ck_assert_uint_eq(out.rtt_us, 0);
        mount_record_done(&out);
}
END_TEST

START_TEST(test_record_origin_names)
{
        ck_assert_str_eq(setting_origin_to_string(ORIGIN_UNKNOWN), "unknown");
        ck_assert_str_eq(setting_origin_to_string(ORIGIN_NONE), "none");
        ck_assert_str_eq(setting_origin_to_string(ORIGIN_CMDLINE), "cmdline");
        ck_assert_str_eq(setting_origin_to_string(ORIGIN_CONFIG), "config");
}
END_TEST

#define OLD_RECORD                                                                        \
        "# nfs-tuned mount record 1\nspec=a:/b\ntarget=/m\nserver=10.0.0.1\nnconnect=4\n" \
        "read_ahead_kb=1024\nbg=yes\n"

/* A record of an older helper has none of the keys; odd values read as not known. */
static const struct {
        const char *text;
        unsigned requested;
        enum setting_origin nconnect_from, read_ahead_from;
        unsigned maj, min;
} asked_rows[] = {
        { OLD_RECORD, 0, ORIGIN_UNKNOWN, ORIGIN_UNKNOWN, 0, 0 },
        { OLD_RECORD "nconnect_requested=16\nnconnect_from=cmdline\nread_ahead_from=config\n"
                     "dev=1:2\n",
          16, ORIGIN_CMDLINE, ORIGIN_CONFIG, 1, 2 },
        { OLD_RECORD "nconnect_requested=99999\nnconnect_from=fstab\nread_ahead_from=\n", 0,
          ORIGIN_UNKNOWN, ORIGIN_UNKNOWN, 0, 0 },
        { OLD_RECORD "nconnect_requested=-1\nnconnect_from=Config\n", 0, ORIGIN_UNKNOWN,
          ORIGIN_UNKNOWN, 0, 0 },
        { OLD_RECORD "dev=x\n", 0, ORIGIN_UNKNOWN, ORIGIN_UNKNOWN, 0, 0 },
        { OLD_RECORD "dev=0:53x\n", 0, ORIGIN_UNKNOWN, ORIGIN_UNKNOWN, 0, 0 },
        { OLD_RECORD "dev=4096:0\n", 0, ORIGIN_UNKNOWN, ORIGIN_UNKNOWN, 0, 0 },
        { OLD_RECORD "dev=0:1048576\n", 0, ORIGIN_UNKNOWN, ORIGIN_UNKNOWN, 0, 0 },
        { OLD_RECORD "dev=0:53\ndev=0:54\nnconnect_from=config\nnconnect_from=none\n", 0,
          ORIGIN_NONE, ORIGIN_UNKNOWN, 0, 54 }, /* the last line wins */
};

START_TEST(test_record_parse_asked)
{
        struct mount_record r = { 0 };

        ck_assert_int_eq(mount_record_parse(asked_rows[_i].text, &r), 0);
        ck_assert_str_eq(r.server, "10.0.0.1");
        ck_assert_uint_eq(r.nconnect, 4);
        ck_assert(r.read_ahead.kind == READ_AHEAD_KB && r.read_ahead.n == 1024 && r.bg);
        ck_assert_msg(r.nconnect_requested == asked_rows[_i].requested, "row %d: requested %u", _i,
                      r.nconnect_requested);
        ck_assert_msg(r.nconnect_from == asked_rows[_i].nconnect_from, "row %d: nconnect_from", _i);
        ck_assert_msg(r.read_ahead_from == asked_rows[_i].read_ahead_from,
                      "row %d: read_ahead_from", _i);
        ck_assert_msg(r.dev == makedev(asked_rows[_i].maj, asked_rows[_i].min), "row %d: dev %u:%u",
                      _i, major(r.dev), minor(r.dev));
        mount_record_done(&r);
}
END_TEST

/* clang-format off */
static const struct {
        const char *text;
        int rc;
} parse_rows[] = {
        { "# nfs-tuned mount record 1\nspec=a:/b\ntarget=/m\n", 0 },
        { "# nfs-tuned mount record 1\nspec=a:/b\ntarget=/m\nfuture=1\nnconnect=99\n", 0 },
        { "# nfs-tuned mount record 1\nspec=a:/b\n", -EINVAL },
        { "# nfs-tuned mount record 2\nspec=a:/b\ntarget=/m\n", -EINVAL },
        { "spec=a:/b\ntarget=/m\n", -EINVAL },
        { "", -EINVAL },
};
/* clang-format on */

START_TEST(test_record_parse)
{
        struct mount_record r = { 0 };
        int rc = mount_record_parse(parse_rows[_i].text, &r);
        ck_assert_msg(rc == parse_rows[_i].rc, "row %d: rc %d", _i, rc);
        if (rc == 0) {
                ck_assert_uint_eq(r.nconnect, 0); /* out of range: unknown */
                ck_assert(r.read_ahead.kind == READ_AHEAD_KEEP && !r.bg);
                ck_assert_str_eq(r.server, "");
        }
        mount_record_done(&r);
}
END_TEST

/* The superblock and the time it was seen mounted: one write, both lines; read back. */
START_TEST(test_record_verified)
{
        char line[MOUNT_RECORD_DEV_STRLEN];
        struct mount_record out;
        char *text = NULL;

        mount_record_format_dev(makedev(4095, 1048575), 9223372036854775807LL, line);
        ck_assert_str_eq(line, "dev=4095:1048575\nverified_ms=9223372036854775807\n");
        mount_record_format_dev(makedev(0, 53), 0, line);
        ck_assert_str_eq(line, "dev=0:53\n");
        /* beyond 2^32 ms (49 days up): 64 bits on every architecture */
        struct mount_record in = { .spec = "filer:/e",
                                   .target = "/m",
                                   .server = "",
                                   .dev = makedev(0, 53),
                                   .verified_ms = 5000000000LL };
        ck_assert_int_eq(mount_record_format(&in, &text), 0);
        ck_assert_ptr_nonnull(strstr(text, "\ndev=0:53\nverified_ms=5000000000\n"));
        ck_assert_int_eq(mount_record_parse(text, &out), 0);
        ck_assert(out.verified_ms == 5000000000LL && out.dev == makedev(0, 53));
        mount_record_done(&out);
        free(text);
        /* not a count of milliseconds: as if not written */
        static const char *const bad[] = { "-5", "0", "x", "12x", " 12", "99999999999999999999" };
        for (size_t i = 0; i < ELEMS(bad); i++) {
                char t[512];
                snprintf(t, sizeof(t), OLD_RECORD "verified_ms=%s\n", bad[i]);
                ck_assert_int_eq(mount_record_parse(t, &out), 0);
                ck_assert_msg(out.verified_ms == 0, "%s: %lld", bad[i], out.verified_ms);
                mount_record_done(&out);
        }
}
END_TEST

/* A record seen mounted before the mount's superblock was made is an earlier mount's, whose
 * device number the kernel gave again (the churn's run directory faults): not this one's. */
/* clang-format off */
static const struct {
        long long verified_ms;
        struct mount_when when;
        bool matches;
} when_rows[] = {
        { 0, { .known = false }, true },           /* neither known: source, target, dev */
        { 0, { .lo_ms = 1000, .hi_ms = 2000, .known = true }, true },      /* an older helper's record: no time */
        { 5000, { .known = false }, true },        /* the udev mode: no age */
        { 5000, { .lo_ms = 3000, .hi_ms = 5100, .known = true }, true },   /* seen after it was made */
        { 5000, { .lo_ms = 5000, .hi_ms = 6100, .known = true }, true },   /* the same millisecond */
        { 4999, { .lo_ms = 5000, .hi_ms = 6100, .known = true }, false },  /* seen before: an earlier superblock */
        { 1, { .lo_ms = 90000, .hi_ms = 91100, .known = true }, false },   /* a cycle or a day before */
        { 90000, { .lo_ms = -1000, .hi_ms = 100, .known = true }, true },  /* a superblock older than the clock's start */
};
/* clang-format on */

START_TEST(test_record_when)
{
        struct nfs_mount m = { .target = "/m", .source = "filer:/e", .dev = makedev(0, 53) };
        struct mount_record r = { .spec = "filer:/e",
                                  .target = "/m",
                                  .dev = makedev(0, 53),
                                  .verified_ms = when_rows[_i].verified_ms };

        ck_assert_msg(mount_record_matches(&r, &m, &when_rows[_i].when) == when_rows[_i].matches,
                      "row %d", _i);
        /* without a superblock (a bg mount, a helper killed before its verification): the
         * time is never written, source and target alone decide */
        r.dev = 0;
        r.verified_ms = 0;
        ck_assert(mount_record_matches(&r, &m, &when_rows[_i].when));
}
END_TEST

/* A record of another boot (a run directory kept on disk across a reboot) is no mount's now,
 * for status and the udev mode alike; one of an unknown boot, or read where the boot is not
 * known, goes by the rest. */
#define BOOT_A "0b7d8a1e-0000-4000-8000-000000000001"
#define BOOT_B "0b7d8a1e-0000-4000-8000-000000000002"
/* clang-format off */
static const struct {
        const char *rec, *now;
        long long verified_ms, lo_ms;
        bool matches;
} boot_rows[] = {
        { BOOT_A, BOOT_A, 0, 0, true },
        { BOOT_A, BOOT_B, 0, 0, false },      /* without times too */
        { BOOT_A, BOOT_B, 9000, 5000, false },
        { "", BOOT_B, 0, 0, true },           /* an older helper's record */
        { BOOT_A, "", 0, 0, true },           /* no boot_id to read here */
        { BOOT_A, BOOT_A, 4000, 5000, false },/* this boot: the times decide */
};
/* clang-format on */

START_TEST(test_record_boot)
{
        struct nfs_mount m = { .target = "/m", .source = "filer:/e", .dev = makedev(0, 53) };
        struct mount_record r = { .spec = "filer:/e",
                                  .target = "/m",
                                  .dev = makedev(0, 53),
                                  .verified_ms = boot_rows[_i].verified_ms };
        struct mount_when w = { .lo_ms = boot_rows[_i].lo_ms,
                                .hi_ms = boot_rows[_i].lo_ms + 1100,
                                .known = boot_rows[_i].lo_ms > 0 };

        snprintf(r.boot_id, sizeof(r.boot_id), "%s", boot_rows[_i].rec);
        snprintf(w.boot_id, sizeof(w.boot_id), "%s", boot_rows[_i].now);
        ck_assert_msg(mount_record_matches(&r, &m, &w) == boot_rows[_i].matches, "row %d", _i);
}
END_TEST

/* The boot it was written in: a line of the record, read back; what is no boot_id is not
 * written, nor read. */
START_TEST(test_record_boot_line)
{
        struct mount_record in = {
                .spec = "filer:/e", .target = "/m", .server = "", .boot_id = BOOT_A
        };
        struct mount_record out;
        char *text = NULL;

        ck_assert_int_eq(mount_record_format(&in, &text), 0);
        ck_assert_ptr_nonnull(strstr(text, "\nxprtsec=none\nboot_id=" BOOT_A "\n"));
        ck_assert_int_eq(mount_record_parse(text, &out), 0);
        ck_assert_str_eq(out.boot_id, BOOT_A);
        mount_record_done(&out);
        free(text);
        snprintf(in.boot_id, sizeof(in.boot_id), "%s", "0b7d8a1e\n0000-4000-8000-000000000001");
        ck_assert_int_eq(mount_record_format(&in, &text), -EINVAL);
        static const char *const bad[] = { "x", BOOT_A "0", "0B7D8A1E-0000-4000-8000-000000000001",
                                           "0b7d8a1e-0000-4000-8000-00000000000g" };
        for (size_t i = 0; i < ELEMS(bad); i++) {
                char t[512];
                snprintf(t, sizeof(t), OLD_RECORD "boot_id=%s\n", bad[i]);
                ck_assert_int_eq(mount_record_parse(t, &out), 0);
                ck_assert_msg(out.boot_id[0] == '\0', "%s: '%s'", bad[i], out.boot_id);
                mount_record_done(&out);
        }
}
END_TEST

static Suite *make_suite(void)
{
        Suite *s = suite_create("bdievent");
        TCase *tc = tcase_create("core");
        tcase_add_loop_test(tc, test_decide, 0, ELEMS(rows));
        tcase_add_loop_test(tc, test_paths_agree, 0, ELEMS(rows));
        tcase_add_test(tc, test_record_match_and_bg);
        tcase_add_loop_test(tc, test_record_name, 0, ELEMS(name_rows));
        tcase_add_test(tc, test_record_name_too_long);
        tcase_add_test(tc, test_record_roundtrip);
        tcase_add_test(tc, test_record_roundtrip_asked);
        tcase_add_test(tc, test_record_roundtrip_auto);
        tcase_add_test(tc, test_record_verified);
        tcase_add_loop_test(tc, test_record_when, 0, ELEMS(when_rows));
        tcase_add_loop_test(tc, test_record_boot, 0, ELEMS(boot_rows));
        tcase_add_test(tc, test_record_boot_line);
        tcase_add_test(tc, test_record_origin_names);
        tcase_add_loop_test(tc, test_record_parse_asked, 0, ELEMS(asked_rows));
        tcase_add_loop_test(tc, test_record_parse, 0, ELEMS(parse_rows));
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(make_suite)
