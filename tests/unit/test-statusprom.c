/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* `nfs-tuned status --prometheus` (core/statusprom.c): the text format, one series a target. */
#include <errno.h>
#include <sys/sysmacros.h>

#include "core/clients.h"
#include "core/config.h"
#include "core/status.h"
#include "core/statusprom.h"
#include "shared/macro.h"
#include "unit.h"

#define OPTS(extra) "rw,vers=4.2,rsize=1048576,hard,proto=tcp,sec=sys,addr=10.0.0.1" extra

/* A mount point with every character a label value escapes: quote, backslash, a control
 * byte (as \x0a, the rule of shared/escape.c), and one that is not UTF-8 (\xe9). */
#define ODD "/mnt/q\"a\\b\nc"
#define ODD_LABEL "mountpoint=\"/mnt/q\\\"a\\\\b\\\\x0ac\""
#define LATIN1 "/mnt/caf\xe9"
#define LATIN1_LABEL "mountpoint=\"/mnt/caf\\\\xe9\""
#define UTF8 "/mnt/caf\xc3\xa9"

static struct xprt_stats xa[4] = { { .sends = 100 },
                                   { .sends = 200 },
                                   { .sends = 300 },
                                   { .sends = 400, .recvs = 399, .backlog = 7 } };
static struct mountstats_entry ea = { .xprts = xa, .nxprts = 4 };
static struct mountstats_entry e1 = { .xprts = xa, .nxprts = 1 };

static const struct {
        const char *opts, *target, *source;
        unsigned dev;
        struct status_facts f;
} mounts[] = {
        { OPTS(",nconnect=4"), "/a", "srv:/a", 40, { NULL, "nconnect=8", &ea, 4, 0, 2048, { 0 } } },
        { OPTS(",nconnect=4"), ODD, "srv:/odd", 41, { NULL, NULL, NULL, -1, -1, -1, { 0 } } },
        { OPTS(",nconnect=4"), "/s", "srv:/s1", 42, { NULL, "nconnect=2", &e1, 1, 0, 128, { 0 } } },
        { OPTS(",nconnect=4"), "/s", "srv:/s2", 43, { NULL, "nconnect=4", &ea, 4, 0, 1024, { 0 } } },
        { OPTS(",nconnect=4"), LATIN1, "srv:/l", 44, { NULL, NULL, &ea, 4, 0, 1024, { 0 } } },
        { OPTS(",nconnect=4"), UTF8, "srv:/u", 45, { NULL, NULL, &ea, 4, 0, 1024, { 0 } } },
};

/* The report of the table above, and what status_prometheus() wrote for it (`transports`:
 * with the counters of each transport). */
static char *prometheus_of(struct status_report *rep, bool transports)
{
        struct clients c = { 0 };
        struct config conf = { 0 };
        struct status_facts facts[ELEMS(mounts)];
        char *text = NULL;

        for (size_t i = 0; i < ELEMS(mounts); i++) {
                struct nfs_mount m;
                ck_assert_int_eq(nfs_mount_from_entry("nfs4", mounts[i].opts, mounts[i].target,
                                                      mounts[i].source, makedev(0, mounts[i].dev),
                                                      &m),
                                 0);
                ck_assert_int_eq(clients_add_mount(&c, &m), 0);
                facts[i] = mounts[i].f;
        }
        ck_assert_int_eq(clients_group(&c), 0);
        ck_assert_int_eq(config_parse(&conf, "t.conf", "read_ahead_kb = 1024\n"), 0);
        ck_assert_int_eq(status_analyse_mounts(&c, facts, &conf, 4, rep), 0);
        /* findings by hand: counted by (code, target) */
        ck_assert_int_eq(status_add_finding(rep, SEV_WARNING, F_RA_LOST, "/a", "x"), 0);
        ck_assert_int_eq(status_add_finding(rep, SEV_WARNING, F_UDEV_SHADOW, NULL, "x"), 0);
        ck_assert_int_eq(status_add_finding(rep, SEV_WARNING, F_RA_LOST, ODD, "x"), 0);
        ck_assert_int_eq(status_add_finding(rep, SEV_WARNING, F_UDEV_SHADOW, NULL, "y"), 0);
        ck_assert_int_eq(status_add_finding(rep, SEV_WARNING, F_UDEV_WRITER, NULL, "z"), 0);
        struct status_inputs in = { 0 };
        ck_assert_int_eq(status_inputs_add(&in, IN_BDI, "x"), 0);
        struct strbuf out = { 0 };
        ck_assert_int_eq(status_prometheus(&out, rep, &c, &in, "1.2\"3", transports), 0);
        status_inputs_done(&in);
        ck_assert_ptr_nonnull((text = strbuf_steal(&out, NULL)));
        config_done(&conf);
        clients_done(&c);
        return text;
}

static size_t count(const char *text, const char *needle)
{
        size_t n = 0;
        for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
                n++;
        return n;
}

#define CLIENT "mountaddr=\"10.0.0.1\",port=\"2049\",protocol=\"tcp\",vers=\"4.2\""

/* Series expected exactly once, as whole lines. */
/* clang-format off */
static const char *const present[] = {
        "nfs_tuned_build_info{version=\"1.2\\\"3\"} 1\n",
        /* an input could not be read: the answer is not whole */
        "nfs_tuned_status_success 0\n",
        "nfs_tuned_input_success{input=\"bdi\"} 0\n",
        "nfs_tuned_input_success{input=\"mountinfo\"} 1\n",
        "nfs_tuned_input_success{input=\"nfsmount_conf\"} 1\n",
        "nfs_tuned_mount_info{mountpoint=\"/a\",export=\"srv:/a\"," CLIENT ",sec=\"sys\",xprtsec=\"none\","
        "xprtsec_requested=\"none\",set_by=\"/a\",record=\"none\"} 1\n",
        "nfs_tuned_mount_info{" ODD_LABEL ",export=\"srv:/odd\"," CLIENT ",sec=\"sys\",xprtsec=\"none\","
        "xprtsec_requested=\"\",set_by=\"/a\",record=\"none\"} 1\n",
        /* the figures, a gauge each: the one not known (ODD's bdi) and none asked (ODD's
         * nconnect) have no series */
        "nfs_tuned_mount_read_ahead_bytes{mountpoint=\"/a\"} 2097152\n",
        "nfs_tuned_mount_read_ahead_wanted_bytes{mountpoint=\"/a\"} 1048576\n",
        "nfs_tuned_mount_nconnect_requested{mountpoint=\"/a\"} 8\n",
        "nfs_tuned_mount_read_ahead_wanted_bytes{" ODD_LABEL "} 1048576\n",
        "nfs_tuned_mount_read_ahead_bytes{mountpoint=\"/s\"} 1048576\n",
        "nfs_tuned_mount_nconnect_requested{mountpoint=\"/s\"} 4\n",
        "# TYPE nfs_tuned_mount_read_ahead_bytes gauge\n",
        "nfs_tuned_mount_info{mountpoint=\"/s\",export=\"srv:/s2\",",
        "nfs_tuned_mount_info{" LATIN1_LABEL ",",
        "nfs_tuned_mount_info{mountpoint=\"" UTF8 "\",",
        /* the client once, with its transports */
        "nfs_tuned_client_nconnect{" CLIENT "} 4\n",
        "nfs_tuned_client_transports{" CLIENT "} 4\n",
        "nfs_tuned_client_transports_live{" CLIENT "} 4\n",
        "nfs_tuned_client_transport_sends_total{" CLIENT ",transport=\"0\"} 100\n",
        "nfs_tuned_client_transport_sends_total{" CLIENT ",transport=\"3\"} 400\n",
        "nfs_tuned_client_transport_receives_total{" CLIENT ",transport=\"3\"} 399\n",
        "nfs_tuned_client_transport_backlog_total{" CLIENT ",transport=\"3\"} 7\n",
        "# TYPE nfs_tuned_client_transport_sends_total counter\n",
        "nfs_tuned_hidden_clients 0\n",
        /* the analysis found nconnect-differs and read-ahead-lost on /a, and on /s (from the
         * mount under it) nconnect-inherited and read-ahead-lost */
        "nfs_tuned_findings{code=\"nconnect-differs\",mountpoint=\"/a\"} 1\n",
        "nfs_tuned_findings{code=\"read-ahead-lost\",mountpoint=\"/a\"} 2\n",
        "nfs_tuned_findings{code=\"nconnect-inherited\",mountpoint=\"/s\"} 1\n",
        "nfs_tuned_findings{code=\"read-ahead-lost\",mountpoint=\"/s\"} 1\n",
        "nfs_tuned_findings{code=\"read-ahead-lost\"," ODD_LABEL "} 1\n",
        "nfs_tuned_findings{code=\"udev-rule-shadowed\",mountpoint=\"\"} 2\n",
        "nfs_tuned_findings{code=\"udev-rule-overrides\",mountpoint=\"\"} 1\n",
        "# TYPE nfs_tuned_findings gauge\n",
};
/* clang-format on */

/* What must not be there: the mount hidden under /s, raw bytes a label escapes. */
static const char *const absent[] = {
        "export=\"srv:/s1\"",
        "} 131072\n",                              /* /s1's read-ahead */
        "nconnect_requested{mountpoint=\"/s\"} 2", /* what /s1 asked */
        "read_ahead_bytes{" ODD_LABEL,             /* not known */
        "nconnect_requested{" ODD_LABEL,           /* none asked */
        "\nc\"",                                   /* a raw newline in a label */
        "\xe9",                                    /* a byte that is not UTF-8 */
        "transport=\"4\"",
        "target=",
};

START_TEST(test_prometheus)
{
        struct status_report rep = { 0 };
        char *text = prometheus_of(&rep, true);

        for (size_t i = 0; i < ELEMS(present); i++)
                ck_assert_msg(count(text, present[i]) == 1, "once: '%s' in\n%s", present[i], text);
        for (size_t i = 0; i < ELEMS(absent); i++)
                ck_assert_msg(!strstr(text, absent[i]), "never: '%s' in\n%s", absent[i], text);
        /* one series per mount point, one per client, one per transport */
        ck_assert_uint_eq(count(text, "\nnfs_tuned_mount_info{"), 5);
        ck_assert_uint_eq(count(text, "\nnfs_tuned_client_nconnect{"), 1);
        ck_assert_uint_eq(count(text, "\nnfs_tuned_client_transport_sends_total{"), 4);
        ck_assert_uint_eq(count(text, "\nnfs_tuned_mount_read_ahead_bytes{"), 4);
        ck_assert_uint_eq(count(text, "\nnfs_tuned_mount_read_ahead_wanted_bytes{"), 5);
        ck_assert_uint_eq(count(text, "\nnfs_tuned_mount_nconnect_requested{"), 2);
        ck_assert_uint_eq(count(text, "mountpoint=\"/s\""), 6);
        ck_assert_uint_eq(count(text, "\nnfs_tuned_findings{"), 7);
        ck_assert_uint_eq(count(text, "\nnfs_tuned_input_success{"), IN__MAX);
        /* every line is a comment or a series with a value */
        for (const char *p = text; *p; p = strchr(p, '\n') + 1) {
                size_t n = strcspn(p, "\n");
                ck_assert_msg(p[n] == '\n', "unterminated line: %s", p);
                ck_assert_msg(*p == '#' || (startswith(p, "nfs_tuned_") && memchr(p, ' ', n)),
                              "line: %.*s", (int)n, p);
        }
        free(text);
        status_report_done(&rep);
}
END_TEST

/* --no-transport-series: the same file without the three counters of each transport, the
 * client's own gauges kept. */
START_TEST(test_prometheus_no_transports)
{
        struct status_report rep = { 0 };
        char *text = prometheus_of(&rep, false);

        ck_assert_uint_eq(count(text, "client_transport_sends_total"), 0);
        ck_assert_uint_eq(count(text, "client_transport_receives_total"), 0);
        ck_assert_uint_eq(count(text, "client_transport_backlog_total"), 0);
        ck_assert_uint_eq(count(text, "\nnfs_tuned_client_nconnect{" CLIENT "} 4\n"), 1);
        ck_assert_uint_eq(count(text, "\nnfs_tuned_client_transports_live{" CLIENT "} 4\n"), 1);
        ck_assert_uint_eq(count(text, "\nnfs_tuned_mount_info{"), 5);
        ck_assert_uint_eq(count(text, "\nnfs_tuned_findings{"), 7);
        free(text);
        status_report_done(&rep);
}
END_TEST

START_TEST(test_prometheus_empty)
{
        struct status_report rep = { 0 };
        struct clients c = { 0 };
        struct strbuf out = { 0 };
        struct status_inputs in = { 0 };

        ck_assert_int_eq(status_prometheus(&out, &rep, &c, &in, "", true), 0);
        char *text = strbuf_steal(&out, NULL);
        ck_assert_ptr_nonnull(text);
        ck_assert_ptr_nonnull(strstr(text, "nfs_tuned_build_info{version=\"\"} 1\n"));
        ck_assert_ptr_nonnull(strstr(text, "nfs_tuned_hidden_clients 0\n"));
        ck_assert_ptr_nonnull(strstr(text, "nfs_tuned_status_success 1\n"));
        ck_assert_ptr_null(strstr(text, "mountpoint="));
        free(text);
}
END_TEST

static Suite *make_suite(void)
{
        Suite *s = suite_create("statusprom");
        TCase *tc = tcase_create("core");
        tcase_add_test(tc, test_prometheus);
        tcase_add_test(tc, test_prometheus_no_transports);
        tcase_add_test(tc, test_prometheus_empty);
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(make_suite)
