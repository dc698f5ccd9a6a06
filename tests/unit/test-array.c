/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* shared/array.h: the growing array every list of the core is built on, and its string lists. */
#include <errno.h>
#include <malloc.h>
#include <stdint.h>

#include "shared/array.h"
#include "unit.h"

/* Appends n ints 0..n-1 the way the core does: array_grow() before every store. */
static int *fill(size_t n)
{
        int *v = NULL;
        for (size_t i = 0; i < n; i++) {
                ck_assert_int_eq(array_grow(&v, i), 0);
                v[i] = (int)i;
        }
        return v;
}

START_TEST(test_grow_keeps_elements)
{
        static const size_t sizes[] = { 1, 3, 4, 5, 8, 9, 17, 1000, 4097 };
        for (size_t k = 0; k < ELEMS(sizes); k++) {
                int *v = fill(sizes[k]);
                for (size_t i = 0; i < sizes[k]; i++)
                        ck_assert_int_eq(v[i], (int)i);
                /* room for the element at v[n] too: the implied capacity is above n */
                ck_assert_uint_ge(malloc_usable_size(v), sizes[k] * sizeof(int));
                free(v);
        }
}
END_TEST

/* The capacity is implied by n: 4, 8, 16 ...; between those, no allocation at all. */
START_TEST(test_grow_capacity)
{
        static const struct {
                size_t n;
                bool grows; /* allocates */
                size_t cap;
        } rows[] = { { 0, true, 4 },   { 1, false, 0 },     { 3, false, 0 }, { 4, true, 8 },
                     { 5, false, 0 },  { 7, false, 0 },     { 8, true, 16 }, { 12, false, 0 },
                     { 16, true, 32 }, { 1024, true, 2048 } };
        for (size_t k = 0; k < ELEMS(rows); k++) {
                uint64_t *v = rows[k].n ? malloc(rows[k].n * sizeof(*v)) : NULL;
                uint64_t *before = v;
                ck_assert_int_eq(array_grow(&v, rows[k].n), 0);
                if (!rows[k].grows) {
                        ck_assert_ptr_eq(v, before);
                } else {
                        ck_assert_ptr_nonnull(v);
                        ck_assert_uint_ge(malloc_usable_size(v), rows[k].cap * sizeof(*v));
                        v[rows[k].cap - 1] = 1; /* in bounds (ASan checks) */
                }
                free(v);
        }
}
END_TEST

/* A capacity whose size in bytes overflows: -ENOMEM, the array untouched. */
START_TEST(test_grow_overflow)
{
        uint64_t cell = 7, *v = &cell;
        ck_assert_int_eq(array_grow(&v, (size_t)1 << (sizeof(size_t) * 8 - 2)), -ENOMEM);
        ck_assert_ptr_eq(v, &cell);
        ck_assert_uint_eq(cell, 7);
}
END_TEST

static int strv_append(char ***v, size_t *n, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
static int strv_append(char ***v, size_t *n, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        int r = strv_appendv(v, n, fmt, ap);
        va_end(ap);
        return r;
}

START_TEST(test_strv)
{
        char **v = NULL;
        size_t n = 0;
        for (int i = 0; i < 10; i++)
                ck_assert_int_eq(strv_append(&v, &n, "line %d of %s", i, "ten"), 0);
        ck_assert_uint_eq(n, 10);
        ck_assert_str_eq(v[0], "line 0 of ten");
        ck_assert_str_eq(v[4], "line 4 of ten");
        ck_assert_str_eq(v[9], "line 9 of ten");
        strv_free(v, n);
        strv_free(NULL, 0);
}
END_TEST

static Suite *make_suite(void)
{
        Suite *s = suite_create("array");
        TCase *tc = tcase_create("shared");
        tcase_add_test(tc, test_grow_keeps_elements);
        tcase_add_test(tc, test_grow_capacity);
        tcase_add_test(tc, test_grow_overflow);
        tcase_add_test(tc, test_strv);
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(make_suite)
