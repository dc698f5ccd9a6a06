/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>

#include "core/spec.h"
#include "unit.h"

/* clang-format off */
static const struct {
        const char *in;
        int rc;
        const char *host, *path;
} rows[] = {
        { "srv:/export", 0, "srv", "/export" },
        { "nfs.example.com:/a/b/c", 0, "nfs.example.com", "/a/b/c" },
        { "10.0.0.1:/", 0, "10.0.0.1", "/" },
        { "srv:/a:b", 0, "srv", "/a:b" },         /* later colons belong to the path */
        { "srv:/a b", 0, "srv", "/a b" },
        { "srv:relative", 0, "srv", "relative" }, /* mount.nfs decides about the path */
        { "[fd00::1]:/export", 0, "fd00::1", "/export" },
        { "[::1]:/", 0, "::1", "/" },
        { "[fe80::1%eth0]:/x", 0, "fe80::1%eth0", "/x" },
        { "[10.0.0.1]:/x", 0, "10.0.0.1", "/x" },
        { "[fd00::1]:/a]:b", 0, "fd00::1", "/a]:b" },
        { "fe80:1:/x", 0, "fe80", "1:/x" }, /* split at the first colon, as mount.nfs */
        /* rejected */
        { NULL, -EINVAL, NULL, NULL },
        { "", -EINVAL, NULL, NULL },
        { "srv", -EINVAL, NULL, NULL },
        { "/export", -EINVAL, NULL, NULL },
        { "srv:", -EINVAL, NULL, NULL },
        { ":/export", -EINVAL, NULL, NULL },
        { ":", -EINVAL, NULL, NULL },
        { "fd00::1:/export", -EINVAL, NULL, NULL }, /* unbracketed IPv6 */
        { "srv::/export", -EINVAL, NULL, NULL },
        { "[fd00::1]/export", -EINVAL, NULL, NULL },
        { "[fd00::1]", -EINVAL, NULL, NULL },
        { "[fd00::1]:", -EINVAL, NULL, NULL },
        { "[fd00::1:/export", -EINVAL, NULL, NULL },
        { "[]:/export", -EINVAL, NULL, NULL },
        { "[a/b]:/x", -EINVAL, NULL, NULL },
        { "a/b:/x", -EINVAL, NULL, NULL },
        { "user@srv:/x", -EINVAL, NULL, NULL },
        { "[user@fd00::1]:/x", -EINVAL, NULL, NULL },
        { "//srv/share", -EINVAL, NULL, NULL },
};
/* clang-format on */

START_TEST(test_parse)
{
        struct nfs_spec s = { (char *)"untouched", NULL };
        int r = nfs_spec_parse(rows[_i].in, &s);
        ck_assert_msg(r == rows[_i].rc, "'%s': rc %d, want %d", S(rows[_i].in), r, rows[_i].rc);
        if (r < 0) {
                ck_assert_str_eq(s.host, "untouched");
                ck_assert_ptr_null(s.path);
                return;
        }
        ck_assert_str_eq(s.host, rows[_i].host);
        ck_assert_str_eq(s.path, rows[_i].path);
        nfs_spec_done(&s);
        ck_assert_ptr_null(s.host);
        ck_assert_ptr_null(s.path);
}
END_TEST

/* The cap is 4096 bytes of spec: 4096 is accepted, 4097 is not. */
static const struct {
        size_t len;
        int rc;
} len_rows[] = {
        { 4095, 0 },
        { 4096, 0 },
        { 4097, -EINVAL },
        { 100000, -EINVAL },
};

START_TEST(test_length)
{
        size_t len = len_rows[_i].len;
        char *in = malloc(len + 1);
        memcpy(in, "srv:/", 5);
        memset(in + 5, 'p', len - 5);
        in[len] = '\0';
        struct nfs_spec s = { 0 };
        ck_assert_int_eq(nfs_spec_parse(in, &s), len_rows[_i].rc);
        if (len_rows[_i].rc == 0) {
                ck_assert_str_eq(s.host, "srv");
                ck_assert_uint_eq(strlen(s.path), len - 4);
        }
        nfs_spec_done(&s);
        free(in);
}
END_TEST

static Suite *spec_suite(void)
{
        Suite *s = suite_create("spec");
        TCase *tc = tcase_create("core");
        tcase_add_loop_test(tc, test_parse, 0, ELEMS(rows));
        tcase_add_loop_test(tc, test_length, 0, ELEMS(len_rows));
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(spec_suite)
