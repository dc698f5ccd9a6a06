/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The verification's line filter (core/mountinfo.c): which mountinfo lines go to libmount. */
#include <string.h>

#include "core/mountinfo.h"
#include "unit.h"

#define L(target) "60 21 0:60 / " target " rw,relatime shared:60 - nfs filer:/b rw,addr=10.99.0.1\n"

/* clang-format off */
static const struct {
        const char *line;
        const char *target;
        bool is;
} rows[] = {
        { L("/mnt/b"), "/mnt/b", true },
        { L("/mnt/b"), "/mnt/ba", false },              /* longer target */
        { L("/mnt/ba"), "/mnt/b", false },              /* a prefix of the field */
        { L("/mnt/b"), "/mnt", false },
        { L("/"), "/", true },
        { L("/mnt/my\\040data"), "/mnt/my data", true }, /* the kernel's \ooo */
        { L("/mnt/my\\040data"), "/mnt/my\\040data", false },
        { L("/mnt/t\\011ab\\012nl"), "/mnt/t\tab\nnl", true },
        { L("/mnt/back\\134slash"), "/mnt/back\\slash", true },
        { L("/mnt/x\\04"), "/mnt/x\\04", true },        /* not three octal digits: as it is */
        { L("/mnt/x\\089"), "/mnt/x\\089", true },
        { "60 21 0:60 / /mnt/b", "/mnt/b", true },      /* the last field, no newline */
        { "60 21 0:60 /mnt/b", "/mnt/b", false },       /* four fields: no mount point */
        { "", "/mnt/b", false },
        { "60 21 0:60 / /mnt/b rw", "", false },
        { "60 21 0:60 /mnt/b / rw", "/mnt/b", false },  /* the root field is not the target */
};
/* clang-format on */

START_TEST(test_target_is)
{
        bool got = mountinfo_line_target_is(rows[_i].line, strlen(rows[_i].line), rows[_i].target);
        ck_assert_msg(got == rows[_i].is, "'%s' against '%s': %d", rows[_i].line, rows[_i].target,
                      got);
}
END_TEST

/* The line's length bounds the read: a target beyond it is not matched. */
START_TEST(test_length_bounds)
{
        const char *line = L("/mnt/bb");
        size_t cut = strstr(line, "/mnt/bb") - line + strlen("/mnt/b");

        ck_assert(mountinfo_line_target_is(line, cut, "/mnt/b"));
        ck_assert(!mountinfo_line_target_is(line, cut, "/mnt/bb"));
}
END_TEST

static Suite *mountinfo_suite(void)
{
        Suite *s = suite_create("mountinfo");
        TCase *tc = tcase_create("target");
        tcase_add_loop_test(tc, test_target_is, 0, ELEMS(rows));
        tcase_add_test(tc, test_length_bounds);
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(mountinfo_suite)
