/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* core/strbuf.c: the text the core formats a file into (the Prometheus textfile). */
#include "core/strbuf.h"
#include "unit.h"

START_TEST(test_grows)
{
        struct strbuf b = { 0 };
        char long_[1000];
        size_t len;

        memset(long_, 'x', sizeof(long_) - 1);
        long_[sizeof(long_) - 1] = '\0';
        strbuf_puts(&b, "a");
        strbuf_add(&b, "bcd", 2);
        /* longer than the first try's buffer and the first allocation: formatted again */
        strbuf_printf(&b, "[%s]%d", long_, 42);
        strbuf_printf(&b, "%c", '!');
        char *s = strbuf_steal(&b, &len);
        ck_assert_ptr_nonnull(s);
        ck_assert_uint_eq(len, 3 + 1 + 999 + 1 + 2 + 1);
        ck_assert_uint_eq(strlen(s), len);
        ck_assert(strncmp(s, "abc[xxx", 7) == 0);
        ck_assert_str_eq(s + len - 5, "x]42!");
        /* stolen: the buffer is empty again */
        ck_assert_ptr_null(b.s);
        free(s);
}
END_TEST

START_TEST(test_empty_and_oom)
{
        struct strbuf b = { 0 };
        char *s = strbuf_steal(&b, NULL);

        ck_assert_ptr_nonnull(s);
        ck_assert_str_eq(s, "");
        free(s);
        /* out of memory is sticky: later appends do nothing, the text is not handed out */
        strbuf_puts(&b, "kept");
        b.oom = true;
        strbuf_puts(&b, "more");
        ck_assert_uint_eq(b.len, 4);
        ck_assert_ptr_null(strbuf_steal(&b, NULL));
        ck_assert_ptr_null(b.s);
}
END_TEST

UNIT_TESTS_MAIN("strbuf", NULL, NULL, test_grows, test_empty_and_oom)
