/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `nfs-tuned status`, the mounts (core/status.c): what each mount asked, what its client has,
 * what the config says now, and the findings about the differences.
 */
#include <errno.h>
#include <sys/sysmacros.h>

#include "core/clients.h"
#include "core/config.h"
#include "core/record.h"
#include "core/status.h"
#include "shared/macro.h"
#include "unit.h"

#define MAXM 3
#define PAGE_KB 4

/* Super options of a v4.2 mount of 10.0.0.1 with rsize 1 MiB. */
#define V42(extra) "rw,vers=4.2,rsize=1048576,wsize=1048576,hard,proto=tcp,addr=10.0.0.1" extra

struct mount_row {
        const char *opts, *target; /* NULL opts: no more mounts; source "srv:" + target */
        unsigned dev;              /* minor of 0:N */
};

struct record_row {
        const char *target; /* NULL: no record */
        const char *spec;   /* NULL: the mount's source */
        unsigned requested;
        enum setting_origin nc_from;
        const char *ra; /* NULL: keep */
        enum setting_origin ra_from;
        unsigned dev; /* minor of 0:N; 0: not known (bg) */
};

struct facts_row {
        struct record_row rec;
        const char *fstab; /* fstab options; NULL: no entry */
        int xprts;
        long ra_now;
};

#define NOFACTS                        \
        {                              \
                { NULL }, NULL, -1, -1 \
        }
#define RA(kb)                         \
        {                              \
                { NULL }, NULL, -1, kb \
        }

/* clang-format off */
static const struct {
        const char *name;
        const char *conf;
        struct mount_row m[MAXM];
        struct facts_row f[MAXM];
        const char *findings; /* "code target" joined by ';' */
        const char *rows;     /* "record req from" per mount joined by ';'; NULL: not checked */
        const char *text;     /* a substring of some finding's text; NULL: none checked */
} rows[] = {
        /* 0 */
        { "inherited: the record asked 8, the client of an earlier mount has 4", "",
          { { V42(",nconnect=4"), "/a", 40 }, { V42(",nconnect=4"), "/b", 41 } },
          { NOFACTS, { { "/b", NULL, 8, ORIGIN_CMDLINE, NULL, ORIGIN_NONE, 41 }, NULL, -1, -1 } },
          "nconnect-inherited /b", "none 0 -;current 8 record",
          "/b asked for nconnect=8 (as the helper recorded when it mounted it) but has 4: it "
          "shares the NFS client of 10.0.0.1 (NFSv4.2) that /a set up first" },
        { "inherited: fstab asked 8", "",
          { { V42(",nconnect=4"), "/a", 40 }, { V42(",nconnect=4"), "/b", 41 } },
          { NOFACTS, { { NULL }, "rw,nconnect=8,hard", -1, -1 } },
          "nconnect-inherited /b", "none 0 -;none 8 fstab", "nconnect=8 (in fstab) but has 4" },
        { "differs: the client's creator itself asked another nconnect", "",
          { { V42(",nconnect=4"), "/a", 40 } },
          { { { "/a", NULL, 8, ORIGIN_CMDLINE, NULL, ORIGIN_NONE, 40 }, NULL, -1, -1 } },
          "nconnect-differs /a", "current 8 record", "was set up before it" },
        { "asked what it has: nothing to say", "",
          { { V42(",nconnect=4"), "/a", 40 }, { V42(",nconnect=4"), "/b", 41 } },
          { { { "/a", NULL, 4, ORIGIN_CMDLINE, NULL, ORIGIN_NONE, 40 }, NULL, -1, -1 },
            { { NULL }, "nconnect=4", -1, -1 } },
          "", "current 4 record;none 4 fstab", NULL },
        { "fstab's nconnect=0 and a bad value are not asked", "",
          { { V42(",nconnect=4"), "/a", 40 }, { V42(",nconnect=4"), "/b", 41 } },
          { { { NULL }, "nconnect=0", -1, -1 }, { { NULL }, "nconnect=x", -1, -1 } },
          "", "none 0 -;none 0 -", NULL },
        /* 5 */
        { "krb5p over the client's 4 connections", "",
          { { V42(",nconnect=4,sec=krb5p"), "/a", 40 } }, { NOFACTS },
          "krb5-multi-connection /a", NULL, "uses sec=krb5p over 4 connections" },
        { "krb5 over 2 live transports of an nconnect=1 client", "",
          { { V42(",sec=krb5"), "/a", 40 } }, { { { NULL }, NULL, 2, -1 } },
          "krb5-multi-connection /a", NULL, "uses sec=krb5 over 2 connections" },
        { "sys over 4 connections: nothing", "", { { V42(",nconnect=4,sec=sys"), "/a", 40 } },
          { { { NULL }, NULL, 4, -1 } }, "", NULL, NULL },
        { "krb5i over one connection: nothing", "", { { V42(",sec=krb5i"), "/a", 40 } },
          { { { NULL }, NULL, 1, -1 } }, "", NULL, NULL },
        { "read-ahead lost: the config asks 15360, the bdi has the kernel's 128",
          "read_ahead_kb = 15360\n", { { V42(""), "/a", 40 } }, { RA(128) },
          "read-ahead-lost /a", "none 0 -",
          "read_ahead_kb of bdi 0:40 is 128 (the kernel's default), the config asks 15360" },
        /* 10 */
        { "read-ahead overwritten: the record set 15360, the bdi has 4096", "",
          { { V42(""), "/a", 40 } },
          { { { "/a", NULL, 0, ORIGIN_NONE, "15360", ORIGIN_CMDLINE, 40 }, NULL, -1, 4096 } },
          "read-ahead-overwritten /a", "current 0 -",
          "is 4096, not the 15360 the helper set when it mounted it" },
        { "read-ahead within a page of what is wanted", "read_ahead_kb = 15362\n",
          { { V42(""), "/a", 40 }, { V42(""), "/b", 41 } }, { RA(15360), RA(15362) }, "", NULL,
          NULL },
        { "read-ahead one page short", "read_ahead_kb = 15362\n", { { V42(""), "/a", 40 } },
          { RA(15356) }, "read-ahead-lost /a", NULL, NULL },
        { "read-ahead not known: nothing", "read_ahead_kb = 15360\n", { { V42(""), "/a", 40 } },
          { RA(-1) }, "", NULL, NULL },
        { "the second mount of one superblock shares its bdi", "read_ahead_kb = 15360\n",
          { { V42(""), "/a", 40 }, { V42(""), "/b", 40 } }, { RA(128), RA(128) },
          "read-ahead-lost /a", NULL, NULL },
        /* 15 */
        { "config-mismatch: the record's nconnect came from the config, which now gives 8",
          "[global]\nnconnect = 8\n", { { V42(",nconnect=4"), "/a", 40 } },
          { { { "/a", NULL, 4, ORIGIN_CONFIG, NULL, ORIGIN_NONE, 40 }, NULL, -1, -1 } },
          "config-mismatch /a", "current 4 record",
          "/a was mounted when the config gave it nconnect=4, and it now gives 8" },
        { "config-mismatch: the record's 15x came from the config, which now says 15360",
          "read_ahead_kb = 15360\n", { { V42(""), "/a", 40 } },
          { { { "/a", NULL, 0, ORIGIN_NONE, "15x", ORIGIN_CONFIG, 40 }, NULL, -1, 15360 } },
          "config-mismatch /a", NULL,
          "config gave it read_ahead_kb = 15x, and it now says 15360" },
        { "config-mismatch: 15 KiB is not 15x", "read_ahead_kb = 15\n", { { V42(""), "/a", 40 } },
          { { { "/a", NULL, 0, ORIGIN_NONE, "15x", ORIGIN_CONFIG, 40 }, NULL, -1, 15360 } },
          "config-mismatch /a", NULL, "config gave it read_ahead_kb = 15x, and it now says 15:" },
        { "the config still says what the record has", "read_ahead_kb = 15360\n",
          { { V42(""), "/a", 40 } },
          { { { "/a", NULL, 0, ORIGIN_NONE, "15360", ORIGIN_CONFIG, 40 }, NULL, -1, 15360 } },
          "", NULL, NULL },
        { "the record's settings from the command line: no mismatch",
          "[global]\nnconnect = 8\nread_ahead_kb = 15360\n", { { V42(",nconnect=4"), "/a", 40 } },
          { { { "/a", NULL, 4, ORIGIN_CMDLINE, "15x", ORIGIN_CMDLINE, 40 }, NULL, -1, 15360 } },
          "", NULL, NULL },
        /* 20 */
        { "no record, config nconnect 8: its creator has 1, the mount sharing it is not told",
          "[global]\nnconnect = 8\n", { { V42(""), "/a", 40 }, { V42(""), "/b", 41 } },
          { NOFACTS, NOFACTS }, "config-mismatch /a", NULL,
          "the config gives /a nconnect=8 but it has 1" },
        { "no record, config nconnect 8, the mount has 8", "[global]\nnconnect = 8\n",
          { { V42(",nconnect=8"), "/a", 40 } }, { NOFACTS }, "", NULL, NULL },
        { "a record of another superblock is stale and not used", "",
          { { V42(",nconnect=4"), "/a", 40 } },
          { { { "/a", NULL, 8, ORIGIN_CMDLINE, "15360", ORIGIN_CMDLINE, 99 }, NULL, -1, 128 } },
          "", "stale 0 -", NULL },
        { "a stale record gives way to fstab", "", { { V42(",nconnect=4"), "/a", 40 } },
          { { { "/a", NULL, 2, ORIGIN_CMDLINE, NULL, ORIGIN_NONE, 99 }, "nconnect=8", -1, -1 } },
          "nconnect-differs /a", "stale 8 fstab", "(in fstab)" },
        { "a record of another source is stale", "", { { V42(",nconnect=4"), "/a", 40 } },
          { { { "/a", "other:/a", 8, ORIGIN_CMDLINE, NULL, ORIGIN_NONE, 40 }, NULL, -1, -1 } },
          "", "stale 0 -", NULL },
        { "a bg record (no superblock yet) is current", "", { { V42(",nconnect=4"), "/a", 40 } },
          { { { "/a", NULL, 8, ORIGIN_CMDLINE, NULL, ORIGIN_NONE, 0 }, NULL, -1, -1 } },
          "nconnect-differs /a", "current 8 record", NULL },
        { "findings of one mount in order", "read_ahead_kb = 15360\n",
          { { V42(",nconnect=2"), "/a", 40 }, { V42(",nconnect=2,sec=krb5p"), "/b", 41 } },
          { RA(15360), { { NULL }, "nconnect=8", 2, 64 } },
          "nconnect-inherited /b;krb5-multi-connection /b;read-ahead-lost /b", NULL,
          "(its NFS client was set up by /a with nconnect=2)" },
        { "config-mismatch: nothing was set when mounted, the config now gives 8",
          "[global]\nnconnect = 8\n", { { V42(""), "/a", 40 } },
          { { { "/a", NULL, 0, ORIGIN_NONE, NULL, ORIGIN_NONE, 40 }, NULL, -1, -1 } },
          "config-mismatch /a", NULL,
          "/a was mounted when the config gave it nconnect=1, and it now gives 8" },
        /* 25 */
        { "a record of an older helper (origins unknown): no mismatch claimed",
          "[global]\nnconnect = 8\nread_ahead_kb = 15360\n", { { V42(""), "/a", 40 } },
          { { { "/a", NULL, 0, ORIGIN_UNKNOWN, NULL, ORIGIN_UNKNOWN, 40 }, NULL, -1, -1 } },
          "", NULL, NULL },
        /* TLS: asked in fstab, folded into the plain client of an earlier mount */
        { "tls-not-applied: fstab asked tls, the client has none", "",
          { { V42(""), "/a", 40 }, { V42(""), "/b", 41 } },
          { NOFACTS, { { NULL }, "vers=4.2,xprtsec=tls", -1, -1 } },
          "tls-not-applied /b", NULL,
          "/b asked for xprtsec=tls (in fstab) but its NFS client of 10.0.0.1 (NFSv4.2), set up "
          "by /a, has no TLS; lacking: encryption and integrity protection" },
        { "tls-not-applied: mtls asked, the client has tls", "",
          { { V42(",xprtsec=tls"), "/a", 40 }, { V42(",xprtsec=tls"), "/b", 41 } },
          { NOFACTS, { { NULL }, "xprtsec=mtls", -1, -1 } },
          "tls-not-applied /b", NULL, "has xprtsec=tls; lacking: the client certificate" },
        { "TLS as asked, or more: nothing", "",
          { { V42(",xprtsec=mtls"), "/a", 40 }, { V42(",xprtsec=mtls"), "/b", 41 } },
          { { { NULL }, "xprtsec=mtls", -1, -1 }, { { NULL }, "xprtsec=tls", -1, -1 } },
          "", NULL, NULL },
};
/* clang-format on */

static struct mount_record record_of(const struct record_row *rr, const char *source)
{
        struct mount_record r = { .spec = strdup(rr->spec ? rr->spec : source),
                                  .target = strdup(rr->target),
                                  .server = strdup("10.0.0.1"),
                                  .nconnect = rr->requested,
                                  .read_ahead = { READ_AHEAD_KEEP, 0 },
                                  .nconnect_requested = rr->requested,
                                  .nconnect_from = rr->nc_from,
                                  .read_ahead_from = rr->ra_from,
                                  .dev = rr->dev ? makedev(0, rr->dev) : 0 };
        if (rr->ra)
                ck_assert_int_eq(read_ahead_parse(rr->ra, &r.read_ahead), 0);
        return r;
}

static const char *const record_words[] = { "none", "current", "stale" };
static const char *const from_words[] = { "-", "record", "fstab" };

static char *render_findings(const struct status_report *rep)
{
        char *s = strdup("");
        for (size_t i = 0; i < rep->nfindings; i++)
                sbuf_add(&s, "%s%s %s", i ? ";" : "", rep->findings[i].code,
                         S(rep->findings[i].target));
        return s;
}

static char *render_rows(const struct status_report *rep)
{
        char *s = strdup("");
        for (size_t i = 0; i < rep->nmounts; i++) {
                const struct status_mount *m = &rep->mounts[i];
                sbuf_add(&s, "%s%s %u %s", i ? ";" : "", record_words[m->record], m->req,
                         from_words[m->req_from]);
        }
        return s;
}

/* Every finding of the report is listed by its mount's row, in order. */
static void check_finding_ranges(const struct status_report *rep)
{
        size_t next = 0;
        for (size_t i = 0; i < rep->nmounts; i++) {
                ck_assert_uint_eq(rep->mounts[i].first_finding, next);
                for (size_t k = 0; k < rep->mounts[i].nfindings; k++)
                        ck_assert_str_eq(rep->findings[next + k].target, rep->mounts[i].m->target);
                next += rep->mounts[i].nfindings;
        }
        ck_assert_uint_eq(next, rep->nfindings);
}

static bool some_text_has(const struct status_report *rep, const char *want)
{
        for (size_t i = 0; i < rep->nfindings; i++)
                if (strstr(rep->findings[i].text, want))
                        return true;
        return false;
}

static size_t build(struct clients *c, size_t row)
{
        size_t n = 0;
        for (; n < MAXM && rows[row].m[n].opts; n++) {
                const struct mount_row *mr = &rows[row].m[n];
                char source[64];
                struct nfs_mount m;
                snprintf(source, sizeof(source), "srv:%s", mr->target);
                ck_assert_int_eq(nfs_mount_from_entry("nfs4", mr->opts, mr->target, source,
                                                      makedev(0, mr->dev), &m),
                                 0);
                ck_assert_int_eq(clients_add_mount(c, &m), 0);
        }
        ck_assert_int_eq(clients_group(c), 0);
        return n;
}

START_TEST(test_analyse)
{
        struct clients c = { 0 };
        struct config conf = { 0 };
        struct mount_record recs[MAXM] = { 0 };
        struct status_facts facts[MAXM] = { 0 };
        struct mountstats_entry ents[MAXM] = { 0 };
        struct xprt_stats xs[16] = { 0 };
        struct status_report rep = { 0 };
        size_t n = build(&c, _i);

        ck_assert_int_eq(config_parse(&conf, "/etc/nfs-tuned.conf", rows[_i].conf), 0);
        ck_assert_uint_eq(conf.nerrors, 0);
        for (size_t i = 0; i < n; i++) {
                const struct facts_row *fr = &rows[_i].f[i];
                if (fr->rec.target) {
                        recs[i] = record_of(&fr->rec, c.mounts[i].source);
                        facts[i].record = &recs[i];
                }
                facts[i].fstab_options = fr->fstab;
                /* that many well-formed xprt: lines, none offline */
                ents[i] = (struct mountstats_entry){ .xprts = xs, .nxprts = (size_t)fr->xprts };
                facts[i].stats = fr->xprts >= 0 ? &ents[i] : NULL;
                facts[i].live = fr->xprts;
                facts[i].offline = fr->xprts >= 0 ? 0 : -1;
                facts[i].ra_now = fr->ra_now;
        }
        ck_assert_int_eq(status_analyse_mounts(&c, facts, &conf, PAGE_KB, &rep), 0);
        ck_assert_uint_eq(rep.nmounts, n);
        char *got = render_findings(&rep);
        ck_assert_msg(streq(got, rows[_i].findings), "row %d (%s): findings\n%s\nwant\n%s", _i,
                      rows[_i].name, got, rows[_i].findings);
        free(got);
        if (rows[_i].rows) {
                got = render_rows(&rep);
                ck_assert_msg(streq(got, rows[_i].rows), "row %d (%s): rows\n%s\nwant\n%s", _i,
                              rows[_i].name, got, rows[_i].rows);
                free(got);
        }
        ck_assert_msg(!rows[_i].text || some_text_has(&rep, rows[_i].text),
                      "row %d (%s): no finding says '%s'", _i, rows[_i].name, rows[_i].text);
        check_finding_ranges(&rep);
        status_report_done(&rep);
        for (size_t i = 0; i < MAXM; i++)
                mount_record_done(&recs[i]);
        config_done(&conf);
        clients_done(&c);
}
END_TEST

/* The row's facts as status shows them: client, set_by, live transports, read-ahead. */
START_TEST(test_row_fields)
{
        struct clients c = { 0 };
        struct config conf = { 0 };
        struct xprt_stats xs[3] = { 0 };
        struct mountstats_entry e = { .xprts = xs, .nxprts = 3 };
        struct status_facts facts[2] = { { NULL, NULL, &e, 2, 1, 2048, { 0 } },
                                         { NULL, NULL, NULL, -1, -1, -1, { 0 } } };
        struct status_report rep = { 0 };
        struct nfs_mount a, b;

        ck_assert_int_eq(config_parse(&conf, "t.conf",
                                      "[global]\nnconnect = 2\n"
                                      "read_ahead_kb = 2048\n"),
                         0);
        ck_assert_int_eq(nfs_mount_from_entry("nfs4", V42(",nconnect=2"), "/a", "srv:/a",
                                              makedev(0, 40), &a),
                         0);
        ck_assert_int_eq(nfs_mount_from_entry("nfs4", V42(",nconnect=2"), "/b", "srv:/b",
                                              makedev(0, 41), &b),
                         0);
        ck_assert_int_eq(clients_add_mount(&c, &a), 0);
        ck_assert_int_eq(clients_add_mount(&c, &b), 0);
        ck_assert_int_eq(clients_group(&c), 0);
        ck_assert_int_eq(status_analyse_mounts(&c, facts, &conf, PAGE_KB, &rep), 0);
        ck_assert_uint_eq(rep.nmounts, 2);
        ck_assert_uint_eq(rep.nfindings, 0);
        for (size_t i = 0; i < 2; i++) {
                ck_assert_ptr_eq(rep.mounts[i].m, &c.mounts[i]);
                ck_assert_ptr_eq(rep.mounts[i].client, &c.v[0]);
                ck_assert_ptr_eq(rep.mounts[i].set_by, &c.mounts[0]);
                ck_assert_uint_eq(rep.mounts[i].nconnect_config, 2);
                ck_assert_uint_eq(rep.mounts[i].ra_want, 2048);
                ck_assert(!rep.mounts[i].ra_shared);
        }
        ck_assert_int_eq(rep.mounts[0].xprts, 3);
        ck_assert_int_eq(rep.mounts[0].live, 2);
        ck_assert_int_eq(rep.mounts[1].live, -1);
        ck_assert_int_eq(rep.mounts[0].ra_now, 2048);
        ck_assert_int_eq(rep.mounts[1].xprts, -1);
        ck_assert_int_eq(rep.mounts[1].ra_now, -1);
        status_report_done(&rep);
        ck_assert_ptr_null(rep.mounts);
        config_done(&conf);
        clients_done(&c);
}
END_TEST

START_TEST(test_no_mounts)
{
        struct clients c = { 0 };
        struct config conf = { 0 };
        struct status_report rep = { .nmounts = 99 };

        ck_assert_int_eq(clients_group(&c), 0);
        ck_assert_int_eq(status_analyse_mounts(&c, NULL, &conf, PAGE_KB, &rep), 0);
        ck_assert_uint_eq(rep.nmounts, 0);
        ck_assert_uint_eq(rep.nfindings, 0);
        status_report_done(&rep);
        clients_done(&c);
}
END_TEST

START_TEST(test_add_finding)
{
        struct status_report rep = { 0 };

        ck_assert_int_eq(
                status_add_finding(&rep, SEV_WARNING, F_UDEV_SHADOW, NULL, "%s=%d", "x", 7), 0);
        ck_assert_int_eq(status_add_finding(&rep, SEV_INFO, F_RA_LOST, "/m", "plain"), 0);
        ck_assert_uint_eq(rep.nfindings, 2);
        ck_assert_ptr_null(rep.findings[0].target);
        ck_assert_str_eq(rep.findings[0].text, "x=7");
        ck_assert_str_eq(rep.findings[0].code, "udev-rule-shadowed");
        ck_assert_int_eq(rep.findings[1].sev, SEV_INFO);
        ck_assert_str_eq(rep.findings[1].target, "/m");
        status_report_done(&rep);
        ck_assert_uint_eq(rep.nfindings, 0);
}
END_TEST

static Suite *make_suite(void)
{
        Suite *s = suite_create("status");
        TCase *tc = tcase_create("core");
        tcase_add_loop_test(tc, test_analyse, 0, ELEMS(rows));
        tcase_add_test(tc, test_row_fields);
        tcase_add_test(tc, test_no_mounts);
        tcase_add_test(tc, test_add_finding);
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(make_suite)
