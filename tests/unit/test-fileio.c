/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sys/fileio.c: the atomic writer (the whole new file or the old one, nothing left behind,
 * the directory reached as root must reach it) and the bounded, owner-checked reader.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shared/macro.h"
#include "sys/chase.h"
#include "sys/fileio.h"
#include "scratch.h"

/* The file's text ("" when unreadable); free it. */
static char *slurp(const char *rel)
{
        char p[2 * PATH_MAX], *text = NULL;
        int fd = open(scratch_path(p, rel), O_RDONLY);
        if (fd < 0 || read_fd(fd, 1 << 20, false, &text, NULL) < 0)
                text = strdup("");
        if (fd >= 0)
                close(fd);
        return text;
}

static int write_rel(const char *rel, const char *text, struct chase_refusal *why)
{
        char p[2 * PATH_MAX];
        return write_file_atomic(scratch_path(p, rel), text, strlen(text), why);
}

START_TEST(test_write_replaces_whole)
{
        char p[2 * PATH_MAX];
        struct stat st;
        _cleanup_free_ char *a = NULL, *b = NULL, *names = NULL, *after = NULL;

        scratch_mkdir("dir", 0755, ME);
        ck_assert_int_eq(write_rel("dir/x.prom", "one\n", NULL), 0);
        ck_assert_str_eq((a = slurp("dir/x.prom")), "one\n");
        ck_assert(stat(scratch_path(p, "dir/x.prom"), &st) == 0);
        ck_assert_int_eq(st.st_mode & 07777, 0644);
        ck_assert_int_eq(write_rel("dir/x.prom", "two\n", NULL), 0);
        ck_assert_str_eq((b = slurp("dir/x.prom")), "two\n");
        /* no temporary file left beside it */
        ck_assert_str_eq((names = scratch_list("dir")), "x.prom");
        /* a rename that fails (a directory in the way) leaves the old files and nothing else */
        scratch_mkdir("dir/sub", 0755, ME);
        ck_assert_int_eq(write_rel("dir/sub", "three\n", NULL), -EISDIR);
        ck_assert_str_eq((after = slurp("dir/x.prom")), "two\n");
        free(names);
        ck_assert_str_eq((names = scratch_list("dir")), "sub x.prom");
}
END_TEST

START_TEST(test_write_errors)
{
        ck_assert_int_eq(write_rel("none/x", "x", NULL), -ENOENT);
        ck_assert_int_eq(write_rel("dir/", "x", NULL), -EISDIR);
        /* a link where the file goes is replaced, not followed */
        scratch_mkdir("etc", 0755, ME);
        scratch_file("etc/target", "keep\n", 0644, ME);
        scratch_link("etc/x", "@/etc/target", ME);
        ck_assert_int_eq(write_rel("etc/x", "new\n", NULL), 0);
        _cleanup_free_ char *kept = slurp("etc/target");
        ck_assert_str_eq(kept, "keep\n");
}
END_TEST

START_TEST(test_write_refusals)
{
        struct chase_refusal why = { 0 };
        char where[2 * PATH_MAX];
        _cleanup_free_ char *names = NULL;

        /* a link in a user's directory leading into root's: the rename would land there */
        scratch_mkdir("user", 0755, NOBODY);
        scratch_mkdir("etc", 0755, 0);
        scratch_link("user/to-etc", "@/etc", NOBODY);
        ck_assert_int_eq(write_rel("user/to-etc/x", "x", &why), -EPERM);
        ck_assert_str_eq(why.where, scratch_path(where, "user/to-etc"));
        ck_assert_str_eq((names = scratch_list("etc")), "");
}
END_TEST

static int read_rel(const char *rel, size_t max, bool check_owner, char **ret)
{
        char p[2 * PATH_MAX];
        int fd = open(scratch_path(p, rel), O_RDONLY);
        ck_assert(fd >= 0);
        int r = read_fd(fd, max, check_owner, ret, NULL);
        close(fd);
        return r;
}

/* the bound and the kind of file, without the owner check: any user's file */
START_TEST(test_read_fd_bounded)
{
        _cleanup_free_ char *text = NULL;
        char *none = NULL;

        scratch_file("mine", "abc", 0644, ME);
        ck_assert_int_eq(read_rel("mine", 16, false, &text), 0);
        ck_assert_str_eq(text, "abc");
        ck_assert_int_eq(read_rel("mine", 2, false, &none), -EFBIG);
        scratch_mkdir("dir", 0755, ME);
        ck_assert_int_eq(read_rel("dir", 16, false, &none), -EINVAL);
        ck_assert_ptr_null(none);
}
END_TEST

/* the owner check: root's file only */
START_TEST(test_read_fd)
{
        _cleanup_free_ char *text = NULL;
        char *none = NULL;

        scratch_file("root", "abc", 0644, 0);
        ck_assert_int_eq(read_rel("root", 16, true, &text), 0);
        ck_assert_str_eq(text, "abc");
        ck_assert_int_eq(read_rel("root", 2, true, &none), -EFBIG);
        scratch_file("theirs", "abc", 0644, NOBODY);
        ck_assert_int_eq(read_rel("theirs", 16, true, &none), -EPERM);
        scratch_file("group", "abc", 0664, 0);
        ck_assert_int_eq(read_rel("group", 16, true, &none), -EPERM);
        scratch_mkdir("dir", 0755, 0);
        ck_assert_int_eq(read_rel("dir", 16, false, &none), -EINVAL);
        ck_assert_ptr_null(none);
}
END_TEST

SCRATCH_MAIN("fileio", (test_write_replaces_whole, test_write_errors, test_read_fd_bounded),
             (test_write_refusals, test_read_fd))
