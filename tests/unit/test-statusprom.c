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

/* A mount point with every character a label value escapes. */
#define ODD "/mnt/q\"a\\b\nc"
#define ODD_LABEL "target=\"/mnt/q\\\"a\\\\b\\nc\""

static const struct {
        const char *opts, *target, *source;
        unsigned dev;
        struct status_facts f;
} mounts[] = {
        { OPTS(",nconnect=4"), "/a", "srv:/a", 40, { NULL, "nconnect=8", 4, 2048 } },
        { OPTS(",nconnect=4"), ODD, "srv:/odd", 41, { NULL, NULL, -1, -1 } },
        { OPTS(",nconnect=4"), "/s", "srv:/s1", 42, { NULL, "nconnect=2", 1, 128 } },
        { OPTS(",nconnect=4"), "/s", "srv:/s2", 43, { NULL, "nconnect=4", 4, 1024 } },
};

/* The report of the table above, and what status_prometheus() wrote for it. */
static char *prometheus_of(struct status_report *rep)
{
        struct clients c = { 0 };
        struct config conf = { 0 };
        struct status_facts facts[ELEMS(mounts)];
        char *text = NULL;
        size_t len = 0;

        for (size_t i = 0; i < ELEMS(mounts); i++) {
                struct nfs_mount m;
                ck_assert_int_eq(nfs_mount_from_entry("nfs4", mounts[i].opts, mounts[i].target,
                                                      mounts[i].source,
                                                      makedev(0, mounts[i].dev), &m),
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
        FILE *out = open_memstream(&text, &len);
        ck_assert_ptr_nonnull(out);
        ck_assert_int_eq(status_prometheus(out, rep, &c, "1.2\"3"), 0);
        ck_assert_int_eq(fclose(out), 0);
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

/* Series expected exactly once, as whole lines. */
static const char *const present[] = {
        "nfs_tuned_build_info{version=\"1.2\\\"3\"} 1\n",
        "nfs_tuned_mount_info{target=\"/a\",source=\"srv:/a\",server=\"10.0.0.1\",port=\"2049\","
        "proto=\"tcp\",vers=\"4.2\",sec=\"sys\",set_by=\"/a\",record=\"none\"} 1\n",
        "nfs_tuned_mount_info{" ODD_LABEL ",source=\"srv:/odd\",server=\"10.0.0.1\","
        "port=\"2049\",proto=\"tcp\",vers=\"4.2\",sec=\"sys\",set_by=\"/a\",record=\"none\"} 1\n",
        "nfs_tuned_mount_info{target=\"/s\",source=\"srv:/s2\",",
        "nfs_tuned_mount_nconnect_requested{target=\"/a\"} 8\n",
        "nfs_tuned_mount_nconnect_requested{target=\"/s\"} 4\n",
        "nfs_tuned_mount_nconnect{" ODD_LABEL "} 4\n",
        "nfs_tuned_mount_transports{target=\"/a\"} 4\n",
        "nfs_tuned_mount_transports{target=\"/s\"} 4\n",
        "nfs_tuned_mount_read_ahead_bytes{target=\"/a\"} 2097152\n",
        "nfs_tuned_mount_read_ahead_bytes{target=\"/s\"} 1048576\n",
        "nfs_tuned_mount_read_ahead_wanted_bytes{target=\"/a\"} 1048576\n",
        "nfs_tuned_mount_read_ahead_wanted_bytes{" ODD_LABEL "} 1048576\n",
        "nfs_tuned_hidden_clients 0\n",
        /* the analysis found nconnect-differs and read-ahead-lost on /a, and on /s (from the
         * mount under it) nconnect-inherited and read-ahead-lost */
        "nfs_tuned_findings{code=\"nconnect-differs\",target=\"/a\"} 1\n",
        "nfs_tuned_findings{code=\"read-ahead-lost\",target=\"/a\"} 2\n",
        "nfs_tuned_findings{code=\"nconnect-inherited\",target=\"/s\"} 1\n",
        "nfs_tuned_findings{code=\"read-ahead-lost\",target=\"/s\"} 1\n",
        "nfs_tuned_findings{code=\"read-ahead-lost\"," ODD_LABEL "} 1\n",
        "nfs_tuned_findings{code=\"udev-rule-shadowed\",target=\"\"} 2\n",
        "nfs_tuned_findings{code=\"udev-rule-overrides\",target=\"\"} 1\n",
        "# TYPE nfs_tuned_findings gauge\n",
};

/* Series that must not be there: unknown values, and the mount hidden under /s. */
static const char *const absent[] = {
        "nfs_tuned_mount_nconnect_requested{" ODD_LABEL "}",
        "nfs_tuned_mount_transports{" ODD_LABEL "}",
        "nfs_tuned_mount_read_ahead_bytes{" ODD_LABEL "}",
        "source=\"srv:/s1\"",
        "} 131072\n", /* /s1's read-ahead */
        "nfs_tuned_mount_nconnect_requested{target=\"/s\"} 2\n",
        "nfs_tuned_mount_transports{target=\"/s\"} 1\n",
        "\nc\"", /* a raw newline in a label */
};

START_TEST(test_prometheus)
{
        struct status_report rep = { 0 };
        char *text = prometheus_of(&rep);

        for (size_t i = 0; i < ELEMS(present); i++)
                ck_assert_msg(count(text, present[i]) == 1, "once: '%s' in\n%s", present[i],
                              text);
        for (size_t i = 0; i < ELEMS(absent); i++)
                ck_assert_msg(!strstr(text, absent[i]), "never: '%s' in\n%s", absent[i], text);
        /* one series per mount point for each per-mount metric */
        ck_assert_uint_eq(count(text, "\nnfs_tuned_mount_info{"), 3);
        ck_assert_uint_eq(count(text, "\nnfs_tuned_mount_nconnect{"), 3);
        ck_assert_uint_eq(count(text, "target=\"/s\""), 8);
        ck_assert_uint_eq(count(text, "\nnfs_tuned_findings{"), 7);
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

START_TEST(test_prometheus_empty)
{
        struct status_report rep = { 0 };
        struct clients c = { 0 };
        char *text = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);

        ck_assert_ptr_nonnull(out);
        ck_assert_int_eq(status_prometheus(out, &rep, &c, NULL), 0);
        ck_assert_int_eq(fclose(out), 0);
        ck_assert_ptr_nonnull(strstr(text, "nfs_tuned_build_info{version=\"\"} 1\n"));
        ck_assert_ptr_nonnull(strstr(text, "nfs_tuned_hidden_clients 0\n"));
        ck_assert_ptr_null(strstr(text, "target="));
        free(text);
}
END_TEST

static Suite *make_suite(void)
{
        Suite *s = suite_create("statusprom");
        TCase *tc = tcase_create("core");
        tcase_add_test(tc, test_prometheus);
        tcase_add_test(tc, test_prometheus_empty);
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(make_suite)
