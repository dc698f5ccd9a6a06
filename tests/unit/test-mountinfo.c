/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The mountinfo splitter (core/mountinfo.c): rows of what each field is, and every line of the
 * fixtures, of tricky lines and of this machine's own /proc/self/mountinfo split as libmount
 * splits it (libmount is linked whole into this test only: it is the reference).
 */
#include <errno.h>
#include <libmount.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "core/mountinfo.h"
#include "unit.h"

#define L(target) "60 21 0:60 / " target " rw,relatime shared:60 - nfs filer:/b rw,addr=10.99.0.1\n"

/* clang-format off */
static const struct {
        const char *line;
        const char *target; /* NULL: -EINVAL */
} target_rows[] = {
        { L("/mnt/b"), "/mnt/b" },
        { L("/"), "/" },
        { L("/mnt/my\\040data"), "/mnt/my data" },          /* the kernel's \ooo */
        { L("/mnt/t\\011ab\\012nl"), "/mnt/t\tab\nnl" },
        { L("/mnt/back\\134slash"), "/mnt/back\\slash" },
        { L("/mnt/x\\04"), "/mnt/x\\04" },                  /* not three octal digits: as it is */
        { L("/mnt/x\\089"), "/mnt/x\\089" },
        { L("/mnt/gone\\040(deleted)"), "/mnt/gone (deleted)" }, /* removed: as libmount 2.38 */
        { L("/mnt/x\\040-\\040y"), "/mnt/x - y" },          /* " - " escaped is no separator */
        { "60 21 0:60 / /mnt/b rw - nfs s:/b rw", "/mnt/b" }, /* no optional field, no newline */
        { "60 21 0:60 / /mnt/b rw a:1 b:2 - nfs s:/b rw\n", "/mnt/b" },
        { "60 21 0:60 / /mnt/b rw - nfs s:/b", "/mnt/b" },  /* no super options */
        { "60 21 0:60 /mnt/b rw - nfs s:/b rw", NULL },     /* a field short */
        { "60 21 0:60 / /mnt/b rw", NULL },                 /* no " - " */
        { "", NULL },
        { "\n", NULL },
        { "x 21 0:60 / /mnt/b rw - nfs s:/b rw", NULL },
        { "60 21 060 / /mnt/b rw - nfs s:/b rw", NULL },    /* no major:minor */
        { "60 21 0:60 / /mnt/b rw - nfs", NULL },           /* no source */
        { "60 21 0:6x / /mnt/b rw - nfs s:/b rw", NULL },
        { "99999999999 21 0:60 / /mnt/b rw - nfs s:/b rw", NULL }, /* beyond an int */
};
/* clang-format on */

START_TEST(test_target)
{
        char *line = strdup(target_rows[_i].line);
        struct mountinfo_entry e;
        int r = mountinfo_split(line, &e);

        if (!target_rows[_i].target)
                ck_assert_msg(r == -EINVAL, "'%s': %d, want -EINVAL", target_rows[_i].line, r);
        else {
                ck_assert_msg(r == 0, "'%s': %d", target_rows[_i].line, r);
                ck_assert_str_eq(e.target, target_rows[_i].target);
                ck_assert_str_eq(e.fstype, "nfs");
        }
        free(line);
}
END_TEST

START_TEST(test_fields)
{
        char line[] = "36 35 98:0 /mnt1 /mnt/parent\\040x rw,noatime master:1 - nfs4  "
                      "rw,vers=4.2,addr=10.0.0.1\n";
        struct mountinfo_entry e;

        ck_assert_int_eq(mountinfo_split(line, &e), 0);
        ck_assert_int_eq(e.id, 36);
        ck_assert_int_eq(e.parent, 35);
        ck_assert_uint_eq(major(e.dev), 98);
        ck_assert_uint_eq(minor(e.dev), 0);
        ck_assert_str_eq(e.root, "/mnt1");
        ck_assert_str_eq(e.target, "/mnt/parent x");
        ck_assert_str_eq(e.vfs_opts, "rw,noatime");
        ck_assert_str_eq(e.fstype, "nfs4");
        ck_assert_str_eq(e.source, ""); /* two blanks: the kernel showed an empty source */
        ck_assert_str_eq(e.super_opts, "rw,vers=4.2,addr=10.0.0.1");
}
END_TEST

/* Lines libmount and the splitter must read alike, beyond the fixtures' plain ones. */
static const char *const tricky[] = {
        L("/mnt/my\\040data"),
        L("/mnt/t\\011ab\\012nl"),
        L("/mnt/back\\134slash"),
        L("/mnt/x\\04"),
        L("/mnt/gone\\040(deleted)"),
        "60 21 0:60 / /mnt/b rw a:1 b:2 - nfs s:/b rw\n",
        "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - nfs4  rw,addr=10.0.0.1\n",
        "61 21 0:61 / /srv/fuse rw,nosuid - fuse.sshfs u@h:/x rw,user_id=0\n",
        "62 21 0:62 / /mnt/c rw - nfs \\134\\134server\\040x:/y rw,addr=10.0.0.2\n",
        "4294967 21 4095:1048575 / /big rw - nfs s:/b rw\n",
};

/* Each line of `text` through libmount and through the splitter: the same fields. */
static unsigned compare_with_libmount(const char *text, const char *what)
{
        struct libmnt_table *t = mnt_new_table();
        struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
        struct libmnt_fs *fs;
        FILE *f = fmemopen((void *)text, strlen(text), "r");
        unsigned compared = 0;

        ck_assert(t && it && f);
        ck_assert_int_eq(mnt_table_parse_stream(t, f, what), 0);
        fclose(f);
        char *copy = strdup(text), *save = NULL;
        for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                struct mountinfo_entry e;
                ck_assert_msg(mountinfo_split(line, &e) == 0, "%s: not split: %s", what, line);
                ck_assert_msg(mnt_table_next_fs(t, it, &fs) == 0, "%s: libmount has fewer lines",
                              what);
                ck_assert_int_eq(e.id, mnt_fs_get_id(fs));
                ck_assert_int_eq(e.parent, mnt_fs_get_parent_id(fs));
                ck_assert_uint_eq(e.dev, mnt_fs_get_devno(fs));
                ck_assert_str_eq(e.root, S(mnt_fs_get_root(fs)));
                ck_assert_str_eq(e.target, S(mnt_fs_get_target(fs)));
                ck_assert_str_eq(e.vfs_opts, S(mnt_fs_get_vfs_options(fs)));
                ck_assert_str_eq(e.fstype, S(mnt_fs_get_fstype(fs)));
                ck_assert_str_eq(e.source, mnt_fs_get_source(fs) ? mnt_fs_get_source(fs) : "");
                ck_assert_str_eq(e.super_opts, S(mnt_fs_get_fs_options(fs)));
                compared++;
        }
        ck_assert_msg(mnt_table_next_fs(t, it, &fs) != 0, "%s: libmount has more lines", what);
        free(copy);
        mnt_free_iter(it);
        mnt_unref_table(t);
        return compared;
}

static char *read_text(const char *path)
{
        FILE *f = fopen(path, "re");
        char *text = NULL;
        size_t size = 0;

        ck_assert_msg(f, "%s: %s", path, strerror(errno));
        ck_assert(getdelim(&text, &size, '\0', f) >= 0);
        fclose(f);
        return text;
}

START_TEST(test_as_libmount)
{
        static const char *const fixtures[] = { "mountinfo-v3-nconnect4",
                                                "mountinfo-v41-loopback" };
        char path[4096];
        unsigned n = 0;

        for (size_t i = 0; i < ELEMS(fixtures); i++) {
                snprintf(path, sizeof(path), "%s/%s", FIXTURES, fixtures[i]);
                char *text = read_text(path);
                n += compare_with_libmount(text, path);
                free(text);
        }
        for (size_t i = 0; i < ELEMS(tricky); i++)
                n += compare_with_libmount(tricky[i], tricky[i]);
        /* the kernel's own table where this runs: whatever file systems it has mounted */
        char *self = read_text("/proc/self/mountinfo");
        n += compare_with_libmount(self, "/proc/self/mountinfo");
        free(self);
        ck_assert_uint_gt(n, ELEMS(tricky) + 4);
}
END_TEST

/* What libmount refuses, the splitter refuses: a line is skipped alike (and said). */
START_TEST(test_refused_as_libmount)
{
        static const char *const bad[] = {
                "60 21 0:60 /mnt/b rw - nfs s:/b rw\n",  "60 21 0:60 / /mnt/b rw\n",
                "x 21 0:60 / /mnt/b rw - nfs s:/b rw\n", "60 21 060 / /mnt/b rw - nfs s:/b rw\n",
                "60 21 0:60 / /mnt/b rw - nfs\n",
        };
        for (size_t i = 0; i < ELEMS(bad); i++) {
                struct libmnt_table *t = mnt_new_table();
                FILE *f = fmemopen((void *)bad[i], strlen(bad[i]), "r");
                struct libmnt_fs *fs;
                struct mountinfo_entry e;
                char *line = strdup(bad[i]);
                ck_assert(t && f && line);
                (void)mnt_table_parse_stream(t, f, "bad");
                fclose(f);
                ck_assert_msg(mnt_table_get_nents(t) == 0 ||
                                      (mnt_table_first_fs(t, &fs) == 0 && !mnt_fs_get_target(fs)),
                              "libmount took '%s'", bad[i]);
                ck_assert_msg(mountinfo_split(line, &e) == -EINVAL, "split '%s'", bad[i]);
                free(line);
                mnt_unref_table(t);
        }
}
END_TEST

static Suite *mountinfo_suite(void)
{
        Suite *s = suite_create("mountinfo");
        TCase *tc = tcase_create("split");
        tcase_add_loop_test(tc, test_target, 0, ELEMS(target_rows));
        tcase_add_test(tc, test_fields);
        tcase_add_test(tc, test_as_libmount);
        tcase_add_test(tc, test_refused_as_libmount);
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(mountinfo_suite)
