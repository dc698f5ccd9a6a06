/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <sys/socket.h>

#include "core/addr.h"
#include "unit.h"

/* clang-format off */
static const struct {
        const char *in;
        int rc;
        int family;
        const char *canon; /* nfs_addr_to_string() */
} parse_rows[] = {
        { "10.0.0.1", 0, AF_INET, "10.0.0.1" },
        { "0.0.0.0", 0, AF_INET, "0.0.0.0" },
        { "255.255.255.255", 0, AF_INET, "255.255.255.255" },
        { "::1", 0, AF_INET6, "::1" },
        { "::", 0, AF_INET6, "::" },
        { "FD00::A", 0, AF_INET6, "fd00::a" },
        { "fd00:0:0:0:0:0:0:1", 0, AF_INET6, "fd00::1" },
        { "fe80::1%eth0", 0, AF_INET6, "fe80::1" }, /* scope ignored */
        { "fe80::1%", 0, AF_INET6, "fe80::1" },
        { "::ffff:10.0.0.1", 0, AF_INET6, "::ffff:10.0.0.1" },
        { "1111:2222:3333:4444:5555:6666:255.255.255.255", 0, AF_INET6,
          "1111:2222:3333:4444:5555:6666:ffff:ffff" },
        { "256.0.0.1", -EINVAL, 0, NULL },
        { "10.0.0", -EINVAL, 0, NULL },
        { "10.0.0.1.2", -EINVAL, 0, NULL },
        { "010.0.0.1", -EINVAL, 0, NULL },
        { " 10.0.0.1", -EINVAL, 0, NULL },
        { "10.0.0.1 ", -EINVAL, 0, NULL },
        { "[::1]", -EINVAL, 0, NULL },
        { "fd00::1::2", -EINVAL, 0, NULL },
        { "nfs.example.com", -EINVAL, 0, NULL },
        { "", -EINVAL, 0, NULL },
        { NULL, -EINVAL, 0, NULL },
        { "%eth0", -EINVAL, 0, NULL },
        { "10.0.0.1/8", -EINVAL, 0, NULL },
        /* 47 characters: longer than any address text */
        { "1111:2222:3333:4444:5555:6666:255.255.255.2555", -EINVAL, 0, NULL },
};
/* clang-format on */

START_TEST(test_parse)
{
        struct nfs_addr a = { .family = 12345 };
        char buf[NFS_ADDR_STRLEN];
        int r = nfs_addr_parse(parse_rows[_i].in, &a);
        ck_assert_msg(r == parse_rows[_i].rc, "'%s': rc %d want %d", S(parse_rows[_i].in), r,
                      parse_rows[_i].rc);
        if (r < 0) {
                ck_assert_int_eq(a.family, 12345); /* untouched */
                return;
        }
        ck_assert_int_eq(a.family, parse_rows[_i].family);
        ck_assert_str_eq(nfs_addr_to_string(&a, buf), parse_rows[_i].canon);
}
END_TEST

/* clang-format off */
static const struct {
        const char *hex;
        int rc;
        const char *canon;
} hex_rows[] = {
        { "0a630001", 0, "10.99.0.1" },
        { "0A630001", 0, "10.99.0.1" },
        { "ffffffff", 0, "255.255.255.255" },
        { "00000000", 0, "0.0.0.0" },
        { "fd000000000000000000000000000001", 0, "fd00::1" },
        { "FE800000000000000000000000000001", 0, "fe80::1" },
        { "00000000000000000000ffff0a630001", 0, "::ffff:10.99.0.1" },
        { "0a63000", -EINVAL, NULL },
        { "0a6300011", -EINVAL, NULL },
        { "0a63000g", -EINVAL, NULL },
        { "0x630001", -EINVAL, NULL },
        { " a630001", -EINVAL, NULL },
        { "", -EINVAL, NULL },
        { "fd00000000000000000000000000001", -EINVAL, NULL },   /* 31 */
        { "fd0000000000000000000000000000011", -EINVAL, NULL }, /* 33 */
        { "fd00000000000000000000000000000-", -EINVAL, NULL },
        { "10.99.0.1", -EINVAL, NULL },
        { NULL, -EINVAL, NULL },
};
/* clang-format on */

START_TEST(test_parse_hex)
{
        struct nfs_addr a = { .family = 777 };
        char buf[NFS_ADDR_STRLEN];
        int r = nfs_addr_parse_hex(hex_rows[_i].hex, &a);
        ck_assert_msg(r == hex_rows[_i].rc, "'%s': rc %d want %d", S(hex_rows[_i].hex), r,
                      hex_rows[_i].rc);
        if (r < 0) {
                ck_assert_int_eq(a.family, 777);
                return;
        }
        ck_assert_str_eq(nfs_addr_to_string(&a, buf), hex_rows[_i].canon);
}
END_TEST

/* clang-format off */
static const struct {
        const char *a, *b; /* NULL: family 0 (none) */
        bool equal;
} equal_rows[] = {
        { "10.0.0.1", "10.0.0.1", true },
        { "10.0.0.1", "10.0.0.2", false },
        { "fd00::1", "fd00:0::1", true },
        { "fe80::1%eth0", "fe80::1%eth1", true },
        { "fd00::1", "fd00::2", false },
        { "10.0.0.1", "::ffff:10.0.0.1", false },
        { "0.0.0.0", "::", false },
        { NULL, NULL, false }, /* "none" never equals */
        { NULL, "10.0.0.1", false },
};
/* clang-format on */

START_TEST(test_equal)
{
        struct nfs_addr a = { 0 }, b = { 0 };
        if (equal_rows[_i].a)
                ck_assert_int_eq(nfs_addr_parse(equal_rows[_i].a, &a), 0);
        if (equal_rows[_i].b)
                ck_assert_int_eq(nfs_addr_parse(equal_rows[_i].b, &b), 0);
        ck_assert_int_eq(nfs_addr_equal(&a, &b), equal_rows[_i].equal);
        ck_assert_int_eq(nfs_addr_equal(&b, &a), equal_rows[_i].equal);
}
END_TEST

/* An IPv4 address compares only its 4 bytes: garbage after them does not matter. */
START_TEST(test_equal_ignores_tail)
{
        struct nfs_addr a = { 0 }, b = { 0 };
        ck_assert_int_eq(nfs_addr_parse("10.0.0.1", &a), 0);
        b = a;
        memset(b.b + 4, 0xaa, 12);
        ck_assert(nfs_addr_equal(&a, &b));
}
END_TEST

/* clang-format off */
static const struct {
        const char *addr; /* NULL: family 0 */
        const char *cidr;
        int rc;
} cidr_rows[] = {
        { "10.1.2.3", "10.0.0.0/8", 1 },
        { "11.0.0.1", "10.0.0.0/8", 0 },
        { "10.255.255.255", "10.0.0.0/8", 1 },
        { "9.255.255.255", "10.0.0.0/8", 0 },
        { "10.15.0.1", "10.0.0.0/12", 1 },
        { "10.16.0.1", "10.0.0.0/12", 0 },
        { "10.0.0.1", "10.0.0.1/32", 1 },
        { "10.0.0.2", "10.0.0.1/32", 0 },
        { "10.0.0.2", "10.0.0.3/31", 1 },
        { "10.0.0.4", "10.0.0.3/31", 0 },
        { "192.168.1.1", "0.0.0.0/0", 1 },
        { "10.200.0.1", "10.1.2.3/8", 1 }, /* host bits in the network are ignored */
        { "10.0.0.1", "10.0.0.1", 1 },      /* plain address */
        { "10.0.0.2", "10.0.0.1", 0 },
        { "10.0.0.1", "10.0.0.0/08", 1 },
        { "fd12::1", "fd00::/8", 1 },
        { "fe80::1", "fd00::/8", 0 },
        { "fd00::1", "fd00::1/128", 1 },
        { "fd00::2", "fd00::1/128", 0 },
        { "2001:db8:0:1::5", "2001:db8::/48", 1 },
        { "2001:db8:1::5", "2001:db8::/48", 0 },
        { "fe80::1", "fe80::%eth0/64", 1 },
        { "fd00::1", "::/0", 1 },
        /* families never mix */
        { "10.0.0.1", "::/0", 0 },
        { "fd00::1", "0.0.0.0/0", 0 },
        { "::ffff:10.0.0.1", "10.0.0.0/8", 0 },
        /* family 0: a valid CIDR is 0, not an error (the config parser validates this way) */
        { NULL, "10.0.0.0/8", 0 },
        { NULL, "fd00::/8", 0 },
        { NULL, "10.0.0.0/33", -EINVAL },
        /* malformed */
        { "10.0.0.1", "10.0.0.0/33", -EINVAL },
        { "fd00::1", "fd00::/129", -EINVAL },
        { "10.0.0.1", "10.0.0.0/", -EINVAL },
        { "10.0.0.1", "/8", -EINVAL },
        { "10.0.0.1", "", -EINVAL },
        { "10.0.0.1", NULL, -EINVAL },
        { "10.0.0.1", "10.0.0.0/x", -EINVAL },
        { "10.0.0.1", "10.0.0.0/-1", -EINVAL },
        { "10.0.0.1", "10.0.0.0/+8", -EINVAL },
        { "10.0.0.1", "10.0.0.0/ 8", -EINVAL },
        { "10.0.0.1", "10.0.0.0/8 ", -EINVAL },
        { "10.0.0.1", "10.0.0.0/8/8", -EINVAL },
        { "10.0.0.1", "10.0.0/8", -EINVAL },
        { "10.0.0.1", "nfs.example.com/8", -EINVAL },
        { "10.0.0.1", "*.example.com", -EINVAL },
        { "10.0.0.1", "10.0.0.0/99999999999999999999999", -EINVAL },
        { "10.0.0.1", "1111:2222:3333:4444:5555:6666:7777:8888:9999/8", -EINVAL },
};
/* clang-format on */

START_TEST(test_cidr)
{
        struct nfs_addr a = { 0 };
        if (cidr_rows[_i].addr)
                ck_assert_int_eq(nfs_addr_parse(cidr_rows[_i].addr, &a), 0);
        int r = nfs_addr_in_cidr(&a, cidr_rows[_i].cidr);
        ck_assert_msg(r == cidr_rows[_i].rc, "%s in '%s': %d, want %d", S(cidr_rows[_i].addr),
                      S(cidr_rows[_i].cidr), r, cidr_rows[_i].rc);
}
END_TEST

START_TEST(test_cidr_long)
{
        /* far longer than any buffer inside */
        char cidr[8192];
        memset(cidr, '1', sizeof(cidr) - 1);
        cidr[sizeof(cidr) - 1] = '\0';
        struct nfs_addr a = { 0 };
        ck_assert_int_eq(nfs_addr_parse("10.0.0.1", &a), 0);
        ck_assert_int_eq(nfs_addr_in_cidr(&a, cidr), -EINVAL);
        cidr[100] = '/';
        ck_assert_int_eq(nfs_addr_in_cidr(&a, cidr), -EINVAL);
}
END_TEST

START_TEST(test_to_string_none)
{
        struct nfs_addr a = { 0 };
        char buf[NFS_ADDR_STRLEN];
        ck_assert_str_eq(nfs_addr_to_string(&a, buf), "(none)");
        a.family = 9999; /* an unknown family is "(none)", not garbage */
        ck_assert_str_eq(nfs_addr_to_string(&a, buf), "(none)");
}
END_TEST

static Suite *addr_suite(void)
{
        Suite *s = suite_create("addr");
        TCase *tc = tcase_create("core");
        tcase_add_loop_test(tc, test_parse, 0, ELEMS(parse_rows));
        tcase_add_loop_test(tc, test_parse_hex, 0, ELEMS(hex_rows));
        tcase_add_loop_test(tc, test_equal, 0, ELEMS(equal_rows));
        tcase_add_test(tc, test_equal_ignores_tail);
        tcase_add_loop_test(tc, test_cidr, 0, ELEMS(cidr_rows));
        tcase_add_test(tc, test_cidr_long);
        tcase_add_test(tc, test_to_string_none);
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(addr_suite)
