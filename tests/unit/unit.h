/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * Shared scaffolding of the unit tests: every test file builds one Suite and runs it.
 */

#include <check.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ELEMS(x) (sizeof(x) / sizeof((x)[0]))

/* "(null)" for NULL, so that messages never crash */
#define S(x) ((x) ? (x) : "(null)")

#define UNIT_MAIN(make_suite)                                \
        int main(void)                                       \
        {                                                    \
                SRunner *sr = srunner_create(make_suite());  \
                srunner_run_all(sr, CK_ENV);                 \
                int failed = srunner_ntests_failed(sr);      \
                srunner_free(sr);                            \
                return failed ? EXIT_FAILURE : EXIT_SUCCESS; \
        }

/* One test case of `tests` (with a fixture run around each when given) as a suite. */
static inline Suite *unit_suite(const char *name, SFun setup, SFun teardown,
                                const TTest *const *tests, size_t n)
{
        Suite *s = suite_create(name);
        TCase *tc = tcase_create(name);
        if (setup || teardown)
                tcase_add_checked_fixture(tc, setup, teardown);
        for (size_t i = 0; i < n; i++)
                tcase_add_test(tc, tests[i]);
        suite_add_tcase(s, tc);
        return s;
}

/* main() of a test file whose tests are one case: UNIT_TESTS_MAIN("name", NULL, NULL, a, b) */
#define UNIT_TESTS_MAIN(name, setup, teardown, ...)                            \
        static Suite *make_suite(void)                                         \
        {                                                                      \
                const TTest *const tests[] = { __VA_ARGS__ };                  \
                return unit_suite(name, setup, teardown, tests, ELEMS(tests)); \
        }                                                                      \
        UNIT_MAIN(make_suite)

/* Appends to a growing string; used to render structures for one exact comparison. */
static inline void sbuf_add(char **s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void sbuf_add(char **s, const char *fmt, ...)
{
        va_list ap;
        char *add, *n;
        va_start(ap, fmt);
        if (vasprintf(&add, fmt, ap) < 0)
                abort();
        va_end(ap);
        if (asprintf(&n, "%s%s", *s ? *s : "", add) < 0)
                abort();
        free(add);
        free(*s);
        *s = n;
}

static inline int streq_ptr_(const char *a, const char *b)
{
        if (!a || !b)
                return a == b;
        return strcmp(a, b) == 0;
}
