/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <sys/socket.h>

#include "core/request.h"
#include "unit.h"

/* clang-format off */
static const struct {
        const char *in;
        int rc, major, minor;
} version_rows[] = {
        { "2", 0, 2, 0 },
        { "3", 0, 3, 0 },
        { "4", 0, 4, -1 },
        { "4.0", 0, 4, 0 },
        { "4.1", 0, 4, 1 },
        { "4.2", 0, 4, 2 },
        { "04", 0, 4, -1 },
        { "4.01", 0, 4, 1 },
        { "4.3", -EINVAL, 0, 0 },
        { "3.0", -EINVAL, 0, 0 },
        { "2.1", -EINVAL, 0, 0 },
        { "1", -EINVAL, 0, 0 },
        { "5", -EINVAL, 0, 0 },
        { "40", -EINVAL, 0, 0 },
        { "4.", -EINVAL, 0, 0 },
        { ".1", -EINVAL, 0, 0 },
        { "4.1.2", -EINVAL, 0, 0 },
        { "4.-1", -EINVAL, 0, 0 },
        { "4,1", -EINVAL, 0, 0 },
        { "v4", -EINVAL, 0, 0 },
        { " 4", -EINVAL, 0, 0 },
        { "4 ", -EINVAL, 0, 0 },
        { "", -EINVAL, 0, 0 },
        { NULL, -EINVAL, 0, 0 },
        { "4.111111111111111111111111", -EINVAL, 0, 0 },
};
/* clang-format on */

START_TEST(test_version_parse)
{
        struct nfs_version v = { 77, 77 };
        int r = nfs_version_parse(version_rows[_i].in, &v);
        ck_assert_msg(r == version_rows[_i].rc, "'%s': rc %d", S(version_rows[_i].in), r);
        if (r < 0) {
                ck_assert_int_eq(v.major, 77);
                ck_assert_int_eq(v.minor, 77);
                return;
        }
        ck_assert_int_eq(v.major, version_rows[_i].major);
        ck_assert_int_eq(v.minor, version_rows[_i].minor);
}
END_TEST

static const struct {
        int major, minor;
        const char *s;
} vstring_rows[] = {
        { 0, -1, "negotiated" }, { 0, 1, "negotiated" }, { 4, -1, "4.x" }, { 4, 0, "4.0" },
        { 4, 2, "4.2" },         { 3, 0, "3" },          { 3, -1, "3" },   { 2, 0, "2" },
};

START_TEST(test_version_to_string)
{
        char buf[64];
        struct nfs_version v = { vstring_rows[_i].major, vstring_rows[_i].minor };
        ck_assert_str_eq(nfs_version_to_string(v, buf, sizeof(buf)), vstring_rows[_i].s);
}
END_TEST

START_TEST(test_version_to_string_small)
{
        char buf[4];
        struct nfs_version v = { 0, -1 };
        ck_assert_str_eq(nfs_version_to_string(v, buf, sizeof(buf)), "neg");
}
END_TEST

/* clang-format off */
static const struct {
        const char *name, *value;
        int major;
} major_rows[] = {
        { "vers", "3", 3 },        { "nfsvers", "4.1", 4 }, { "vers", "4", 4 },
        { "v3", NULL, 3 },         { "v4.2", NULL, 4 },     { "v2", NULL, 2 },
        { "minorversion", "1", 4 }, { "vers", "9", 0 },     { "vers", NULL, 0 },
        { "v5", NULL, 0 },         { "v3", "1", 0 },        { "nconnect", "4", 0 },
        { "minorversion", "7", 0 }, { "hard", NULL, 0 },    { "v", NULL, 0 },
};
/* clang-format on */

START_TEST(test_opt_vers_major)
{
        struct opt o = { (char *)major_rows[_i].name, (char *)major_rows[_i].value };
        ck_assert_int_eq(nfs_request_opt_major(&o), major_rows[_i].major);
}
END_TEST

#define NONE NULL
/* clang-format off */
static const struct {
        const char *opts;
        bool v4_by_name;
        int rc;
        const char *bad; /* the option *ret_bad names, "name=value" */
        int major, minor;
        const char *transport;
        int family;
        unsigned port;
        const char *xprtsec;
        unsigned nconnect;
        const char *sec;
} req_rows[] = {
        /* defaults */
        { "", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        { "", true, 0, NONE, 4, -1, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        { "hard,timeo=600,rsize=1048576", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        /* versions, every spelling */
        { "vers=3", false, 0, NONE, 3, 0, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        { "nfsvers=3", false, 0, NONE, 3, 0, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        { "v3", false, 0, NONE, 3, 0, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        { "vers=4", false, 0, NONE, 4, -1, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        { "v4", false, 0, NONE, 4, -1, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        { "v4.1", false, 0, NONE, 4, 1, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        { "vers=4.2", false, 0, NONE, 4, 2, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        { "nfsvers=4.0", false, 0, NONE, 4, 0, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        { "vers=4,minorversion=1", false, 0, NONE, 4, 1, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        { "minorversion=1,vers=4", false, 0, NONE, 4, 1, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        { "minorversion=2", false, 0, NONE, 4, 2, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        { "minorversion=0", true, 0, NONE, 4, 0, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        { "vers=4.2,minorversion=1", false, 0, NONE, 4, 1, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        { "vers=3,minorversion=1", false, 0, NONE, 3, 0, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        /* the last version option wins */
        { "vers=3,v4.1", false, 0, NONE, 4, 1, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        { "v4.2,nfsvers=3", false, 0, NONE, 3, 0, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        { "vers=3", true, 0, NONE, 3, 0, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        /* not version options */
        { "v5", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        { "v3=1", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        /* transports */
        { "proto=tcp", false, 0, NONE, 0, -1, "tcp", AF_INET, 2049, "none", 0, NULL },
        { "proto=tcp6", false, 0, NONE, 0, -1, "tcp", AF_INET6, 2049, "none", 0, NULL },
        { "proto=udp", false, 0, NONE, 0, -1, "udp", AF_INET, 2049, "none", 0, NULL },
        { "proto=udp6", false, 0, NONE, 0, -1, "udp", AF_INET6, 2049, "none", 0, NULL },
        { "proto=rdma6,port=20049", false, 0, NONE, 0, -1, "rdma", AF_INET6, 20049, "none", 0, NULL },
        { "udp", false, 0, NONE, 0, -1, "udp", AF_INET, 2049, "none", 0, NULL },
        { "rdma,port=20049", false, 0, NONE, 0, -1, "rdma", AF_INET, 20049, "none", 0, NULL },
        { "proto=udp,tcp", false, 0, NONE, 0, -1, "tcp", AF_INET, 2049, "none", 0, NULL },
        { "udp,proto=tcp6", false, 0, NONE, 0, -1, "tcp", AF_INET6, 2049, "none", 0, NULL },
        /* ports */
        { "port=2050", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2050, "none", 0, NULL },
        { "port=0", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        { "port=2049", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        { "port=65535", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 65535, "none", 0, NULL },
        { "port=1,port=2", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2, "none", 0, NULL },
        /* xprtsec */
        { "xprtsec=tls", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2049, "tls", 0, NULL },
        { "xprtsec=mtls", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2049, "mtls", 0, NULL },
        { "xprtsec=tls,xprtsec=none", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        /* nconnect */
        { "nconnect=1", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2049, "none", 1, NULL },
        { "nconnect=16", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2049, "none", 16, NULL },
        { "nconnect=2,nconnect=8", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2049, "none", 8, NULL },
        /* as the kernel reads a u32 option (kstrtouint, base 0): hex, octal, a leading '+' */
        { "nconnect=0x4", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2049, "none", 4, NULL },
        { "nconnect=+4", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2049, "none", 4, NULL },
        { "nconnect=010", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2049, "none", 8, NULL },
        { "nconnect=0X10", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2049, "none", 16, NULL },
        { "port=0x801", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        { "port=+2050", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2050, "none", 0, NULL },
        { "port=04002", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2050, "none", 0, NULL },
        { "vers=4,minorversion=0x1", false, 0, NONE, 4, 1, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        { "vers=4,minorversion=+2", false, 0, NONE, 4, 2, "tcp", AF_UNSPEC, 2049, "none", 0, NULL },
        /* sec */
        { "sec=krb5p", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2049, "none", 0, "krb5p" },
        { "sec=sys,sec=krb5i", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2049, "none", 0, "krb5i" },
        { "sec=krb5:sys", false, 0, NONE, 0, -1, "tcp", AF_UNSPEC, 2049, "none", 0, "krb5:sys" },
        /* everything at once */
        { "vers=4.1,proto=tcp6,port=2050,xprtsec=mtls,nconnect=4,sec=krb5", false, 0, NONE, 4, 1, "tcp",
          AF_INET6, 2050, "mtls", 4, "krb5" },
        /* bad values: the option is named */
        { "vers=5", false, -EINVAL, "vers=5", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "nfsvers=3.1", false, -EINVAL, "nfsvers=3.1", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "vers", false, -EINVAL, "vers", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "vers=", false, -EINVAL, "vers=", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "v4.3", false, -EINVAL, "v4.3", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "v4x", false, -EINVAL, "v4x", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "minorversion=3", false, -EINVAL, "minorversion=3", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "minorversion", false, -EINVAL, "minorversion", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "minorversion=-1", false, -EINVAL, "minorversion=-1", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "proto=sctp", false, -EINVAL, "proto=sctp", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "proto", false, -EINVAL, "proto", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "proto=TCP", false, -EINVAL, "proto=TCP", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "port=65536", false, -EINVAL, "port=65536", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "port=-1", false, -EINVAL, "port=-1", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "port=", false, -EINVAL, "port=", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "port", false, -EINVAL, "port", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "xprtsec=ssl", false, -EINVAL, "xprtsec=ssl", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "xprtsec", false, -EINVAL, "xprtsec", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "xprtsec=", false, -EINVAL, "xprtsec=", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "nconnect=0", false, -EINVAL, "nconnect=0", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        /* "08" is octal to the kernel, and 8 is no octal digit: the kernel refuses it */
        { "nconnect=08", false, -EINVAL, "nconnect=08", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "nconnect=0x11", false, -EINVAL, "nconnect=0x11", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "nconnect=0x", false, -EINVAL, "nconnect=0x", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "nconnect=++4", false, -EINVAL, "nconnect=++4", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "nconnect= 4", false, -EINVAL, "nconnect= 4", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "port=0x10000", false, -EINVAL, "port=0x10000", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "nconnect=17", false, -EINVAL, "nconnect=17", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "nconnect=-1", false, -EINVAL, "nconnect=-1", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "nconnect=4x", false, -EINVAL, "nconnect=4x", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "nconnect=", false, -EINVAL, "nconnect=", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "nconnect", false, -EINVAL, "nconnect", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "nconnect=99999999999999999999999", false, -EINVAL, "nconnect=99999999999999999999999", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "sec=", false, -EINVAL, "sec=", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        { "sec", false, -EINVAL, "sec", 0, 0, NULL, 0, 0, NULL, 0, NULL },
        /* the first bad one is named */
        { "hard,nconnect=4,vers=9,nconnect=99", false, -EINVAL, "vers=9", 0, 0, NULL, 0, 0, NULL, 0, NULL },
};
/* clang-format on */

START_TEST(test_request_parse)
{
        struct optlist l = { 0 };
        struct nfs_request r = { .port = 4242 };
        const struct opt *bad = NULL;
        ck_assert_int_eq(optlist_parse(&l, req_rows[_i].opts), 0);
        int rc = nfs_request_parse(&l, req_rows[_i].v4_by_name, &r, &bad);
        ck_assert_msg(rc == req_rows[_i].rc, "'%s': rc %d, want %d", req_rows[_i].opts, rc,
                      req_rows[_i].rc);
        if (rc < 0) {
                ck_assert_ptr_nonnull(bad);
                char name[256];
                snprintf(name, sizeof(name), "%s%s%s", bad->name, bad->value ? "=" : "",
                         S(bad->value));
                if (!bad->value)
                        snprintf(name, sizeof(name), "%s", bad->name);
                ck_assert_str_eq(name, req_rows[_i].bad);
                ck_assert_uint_eq(r.port, 4242); /* untouched */
                optlist_done(&l);
                return;
        }
        ck_assert_ptr_null(bad);
        ck_assert_int_eq(r.vers.major, req_rows[_i].major);
        ck_assert_int_eq(r.vers.minor, req_rows[_i].minor);
        ck_assert_str_eq(r.transport, req_rows[_i].transport);
        ck_assert_int_eq(r.family, req_rows[_i].family);
        ck_assert_uint_eq(r.port, req_rows[_i].port);
        ck_assert_str_eq(r.xprtsec, req_rows[_i].xprtsec);
        ck_assert_uint_eq(r.nconnect, req_rows[_i].nconnect);
        ck_assert_pstr_eq(r.sec, req_rows[_i].sec);
        optlist_done(&l);
}
END_TEST

/* A NULL ret_bad is allowed. */
START_TEST(test_request_parse_null_bad)
{
        struct optlist l = { 0 };
        struct nfs_request r;
        ck_assert_int_eq(optlist_parse(&l, "nconnect=0"), 0);
        ck_assert_int_eq(nfs_request_parse(&l, false, &r, NULL), -EINVAL);
        optlist_done(&l);
}
END_TEST

/* sec points into the option list (the header says so): same pointer. */
START_TEST(test_request_sec_points_into_list)
{
        struct optlist l = { 0 };
        struct nfs_request r;
        ck_assert_int_eq(optlist_parse(&l, "sec=krb5"), 0);
        ck_assert_int_eq(nfs_request_parse(&l, false, &r, NULL), 0);
        ck_assert_ptr_eq(r.sec, l.v[0].value);
        optlist_done(&l);
}
END_TEST

static const struct {
        const char *sec;
        bool krb5;
} krb5_rows[] = {
        { NULL, false },      { "", false },         { "sys", false },      { "none", false },
        { "krb5", true },     { "krb5i", true },     { "krb5p", true },     { "KRB5P", true },
        { "sys:krb5", true }, { "krb5p:sys", true }, { "sys:none", false }, { ":krb5", true },
        { "krb", false },     { "sys:", false },     { "xkrb5", false },    { "sys::krb5i", true },
};

START_TEST(test_sec_is_krb5)
{
        ck_assert_msg(sec_is_krb5(krb5_rows[_i].sec) == krb5_rows[_i].krb5, "sec '%s'",
                      S(krb5_rows[_i].sec));
}
END_TEST

/*
 * Regression (fixed; src/core/request.c, nfs_request_parse): minorversion= is applied after every
 * vers= option whatever the order.  The kernel parses in order (vers=4.2 sets minorversion=2)
 * and mount.nfs ignores minorversion= when vers= has a dot, so "minorversion=1,vers=4.2"
 * mounts NFSv4.2; the request says 4.1 and the client match looks at the wrong client.
 * Suggested fix: reset minor_alone when a later option sets a minor (vers=4.x / v4.x), i.e.
 * track the position of the last minorversion= and of the last version option.
 */
START_TEST(test_regression_minorversion_order)
{
        struct optlist l = { 0 };
        struct nfs_request r;
        ck_assert_int_eq(optlist_parse(&l, "minorversion=1,vers=4.2"), 0);
        ck_assert_int_eq(nfs_request_parse(&l, false, &r, NULL), 0);
        ck_assert_msg(r.vers.major == 4 && r.vers.minor == 2,
                      "minorversion=1,vers=4.2 gives %d.%d, the kernel mounts 4.2", r.vers.major,
                      r.vers.minor);
        optlist_done(&l);
}
END_TEST

/*
 * Regression (fixed; src/core/request.c, nfs_request_parse): with proto=rdma and no port the kernel
 * uses NFS_RDMA_PORT 20049 (fs/nfs/fs_context.c nfs_fs_context_validate), not 2049.  The
 * request says 2049, so it never matches an existing RDMA client (whose mountinfo shows
 * port=20049) and every nconnect conflict over RDMA is missed.
 * Suggested fix: default port = transport rdma ? 20049 : 2049 (also for port=0).
 */
static const char *const rdma_rows[] = { "proto=rdma", "rdma", "vers=4.1,proto=rdma6",
                                         "proto=rdma,port=0" };

START_TEST(test_regression_rdma_default_port)
{
        struct optlist l = { 0 };
        struct nfs_request r;
        ck_assert_int_eq(optlist_parse(&l, rdma_rows[_i]), 0);
        ck_assert_int_eq(nfs_request_parse(&l, false, &r, NULL), 0);
        ck_assert_str_eq(r.transport, "rdma");
        ck_assert_msg(r.port == 20049, "'%s' gives port %u, the kernel uses 20049", rdma_rows[_i],
                      r.port);
        optlist_done(&l);
}
END_TEST

static Suite *request_suite(void)
{
        Suite *s = suite_create("request");
        TCase *tc = tcase_create("core");
        tcase_add_loop_test(tc, test_version_parse, 0, ELEMS(version_rows));
        tcase_add_loop_test(tc, test_version_to_string, 0, ELEMS(vstring_rows));
        tcase_add_test(tc, test_version_to_string_small);
        tcase_add_loop_test(tc, test_opt_vers_major, 0, ELEMS(major_rows));
        tcase_add_loop_test(tc, test_request_parse, 0, ELEMS(req_rows));
        tcase_add_test(tc, test_request_parse_null_bad);
        tcase_add_test(tc, test_request_sec_points_into_list);
        tcase_add_loop_test(tc, test_sec_is_krb5, 0, ELEMS(krb5_rows));
        suite_add_tcase(s, tc);

        TCase *bugs = tcase_create("regressions");
        tcase_add_test(bugs, test_regression_minorversion_order);
        tcase_add_loop_test(bugs, test_regression_rdma_default_port, 0, ELEMS(rdma_rows));
        suite_add_tcase(s, bugs);
        return s;
}

UNIT_MAIN(request_suite)
