/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One escaping rule for text from outside (shared/escape.c): log lines, findings, JSON, labels. */
#include <stdio.h>
#include <stdlib.h>

#include "core/status.h"
#include "core/statusprom.h"
#include "shared/escape.h"
#include "unit.h"

/* clang-format off */
static const struct {
        const char *in;
        int flags;
        const char *out;
} rows[] = {
        { "/mnt/plain", ESCAPE_UTF8, "/mnt/plain" },
        { "a\nb\x1b[31m\x7f", ESCAPE_CONTROL, "a\\x0ab\\x1b[31m\\x7f" },
        { "caf\xc3\xa9", ESCAPE_UTF8, "caf\xc3\xa9" },          /* valid UTF-8 stays */
        { "caf\xe9", ESCAPE_UTF8, "caf\\xe9" },                  /* Latin-1 does not */
        { "caf\xe9", ESCAPE_CONTROL, "caf\xe9" },                /* log.c: control bytes only */
        { "\xc0\xaf", ESCAPE_UTF8, "\\xc0\\xaf" },               /* overlong */
        { "\xed\xa0\x80", ESCAPE_UTF8, "\\xed\\xa0\\x80" },      /* a UTF-16 surrogate */
        { "\xf4\x90\x80\x80", ESCAPE_UTF8, "\\xf4\\x90\\x80\\x80" }, /* beyond U+10FFFF */
        { "\xf0\x9f\x98\x80", ESCAPE_UTF8, "\xf0\x9f\x98\x80" }, /* U+1F600 */
        { "\xe2\x82", ESCAPE_UTF8, "\\xe2\\x82" },               /* cut short */
        { "", ESCAPE_UTF8, "" },
        { "\xc4\x80\xc2\x9b", ESCAPE_CONTROL, "\xc4\x80\\xc2\\x9b" }, /* UTF-8 kept, U+009B not */
        { "a\xc2\x9b" "2Jb", ESCAPE_UTF8, "a\\xc2\\x9b2Jb" },        /* U+009B, a CSI */
        { "\xc2\x80\xc2\xa0", ESCAPE_UTF8, "\\xc2\\x80\xc2\xa0" }, /* U+0080 yes, U+00A0 no */
        { "a\x9b" "2J\xa0", ESCAPE_CONTROL, "a\\x9b2J\xa0" },          /* a raw C1 byte */
        { "x\xe2\x80\xae" "cba", ESCAPE_UTF8, "x\\xe2\\x80\\xaecba" }, /* U+202E */
        { "\xe2\x80\xaa\xe2\x81\xa9", ESCAPE_UTF8, "\\xe2\\x80\\xaa\\xe2\\x81\\xa9" },
        { "\xe2\x80\xa9\xe2\x81\xaa", ESCAPE_UTF8, "\\xe2\\x80\\xa9\xe2\x81\xaa" }, /* U+2029 yes, U+206A no */
        { "x\xe2\x80\xae" "cba", ESCAPE_CONTROL, "x\\xe2\\x80\\xaecba" }, /* U+202E: no byte raw */
        { "\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c\xe2\x80\xa8", ESCAPE_CONTROL,
          "\\xe2\\x80\\x8e\\xe2\\x80\\x8f\\xd8\\x9c\\xe2\\x80\\xa8" }, /* LRM, RLM, ALM, U+2028 */
        /* JSON: a newline and the four characters \x0a read back apart */
        { "a\nb", ESCAPE_UTF8 | ESCAPE_BACKSLASH, "a\\x0ab" },
        { "a\\x0ab", ESCAPE_UTF8 | ESCAPE_BACKSLASH, "a\\x5cx0ab" },
        { "a\\x0ab", ESCAPE_UTF8, "a\\x0ab" }, /* without the flag: the same as a newline */
        /* a terminal whose locale is not UTF-8: ASCII alone, every byte of a character */
        { "/mnt/\xe6\x97\xa5 caf\xe9", ESCAPE_UTF8 | ESCAPE_ASCII, "/mnt/\\xe6\\x97\\xa5 caf\\xe9" },
};
/* clang-format on */

START_TEST(test_escape)
{
        char *got = escape_text(rows[_i].in, rows[_i].flags);
        ck_assert_ptr_nonnull(got);
        ck_assert_str_eq(got, rows[_i].out);
        free(got);
}
END_TEST

/* The kernel's \ooo of a path byte (seq_escape), as mountinfo and mountstats write it. */
static const struct {
        const char *in;
        size_t left;
        int byte;
} octal_rows[] = {
        { "\\040", 4, ' ' },  { "\\011x", 5, '\t' },
        { "\\134", 4, '\\' }, { "\\012", 4, '\n' },
        { "\\377", 4, 255 },  { "\\000", 4, 0 },
        { "\\040", 3, -1 },   /* cut short */ { "\\400", 4, -1 }, /* above a byte */
        { "\\08", 4, -1 },    { "\\04", 99, -1 },                 /* the NUL ends it */
        { "040", 3, -1 },     { "\\x40", 4, -1 },
        { "", 0, -1 },
};

START_TEST(test_kernel_octal)
{
        ck_assert_int_eq(escape_kernel_octal(octal_rows[_i].in, octal_rows[_i].left),
                         octal_rows[_i].byte);
}
END_TEST

START_TEST(test_label_value)
{
        struct strbuf b = { 0 };

        prom_label_value(&b, "/mnt/q\"a\\b\ncaf\xe9");
        prom_label_value(&b, NULL);
        char *buf = strbuf_steal(&b, NULL);
        ck_assert_ptr_nonnull(buf);
        ck_assert_str_eq(buf, "\"/mnt/q\\\"a\\\\b\\\\x0acaf\\\\xe9\"\"\"");
        free(buf);
}
END_TEST

/* A finding on one line: a mount point with a newline cannot forge a second one. */
START_TEST(test_finding_line)
{
        struct status_finding f = { .sev = SEV_WARNING,
                                    .code = F_RA_LOST,
                                    .target = NULL,
                                    .text = (char *)"/mnt/a\nnfs-tuned: warning: forged \x1b[2J" };
        char *line = status_finding_line(&f);

        ck_assert_ptr_nonnull(line);
        ck_assert_str_eq(line, "warning: [read-ahead-lost] /mnt/a\\x0anfs-tuned: warning: forged "
                               "\\x1b[2J");
        free(line);
}
END_TEST

static Suite *make_suite(void)
{
        Suite *s = suite_create("escape");
        TCase *tc = tcase_create("core");
        tcase_add_loop_test(tc, test_escape, 0, ELEMS(rows));
        tcase_add_loop_test(tc, test_kernel_octal, 0, ELEMS(octal_rows));
        tcase_add_test(tc, test_label_value);
        tcase_add_test(tc, test_finding_line);
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(make_suite)
