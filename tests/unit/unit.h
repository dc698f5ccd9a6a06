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

#define UNIT_MAIN(make_suite)                                       \
        int main(void)                                              \
        {                                                           \
                SRunner *sr = srunner_create(make_suite());         \
                srunner_run_all(sr, CK_ENV);                        \
                int failed = srunner_ntests_failed(sr);             \
                srunner_free(sr);                                   \
                return failed ? EXIT_FAILURE : EXIT_SUCCESS;        \
        }

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
