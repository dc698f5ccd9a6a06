/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What sys/ trusts in the run directory (sys/rundir.c: one rule and one opener for the
 * writers and the readers of the records, sys/record.c), against a scratch tree with real
 * owners and modes.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/paths.h"
#include "sys/record.h"
#include "sys/rundir.h"
#include "scratch.h"

static char run[2 * PATH_MAX];

static struct paths paths_at(const char *rel)
{
        return (struct paths){ .rundir = scratch_path(run, rel), .rootfd = -1 };
}

/* An opener of base/rel as the run directory: 0 for an fd (closed here), else the -errno. */
static int try_open(int (*opener)(const struct paths *), const char *rel)
{
        struct paths p = paths_at(rel);
        int fd = opener(&p);
        if (fd >= 0)
                close(fd);
        return fd >= 0 ? 0 : fd;
}

static int run_created(const struct paths *p)
{
        return rundir_open(p, true);
}

#define open_run(rel) try_open(run_created, rel)
#define open_records(rel) try_open(records_open_readonly, rel)

START_TEST(test_rundir_created_and_checked)
{
        struct stat st;
        char p[2 * PATH_MAX];

        /* missing: made, 0755, the helper's own */
        ck_assert_int_eq(open_run("run"), 0);
        ck_assert(stat(scratch_path(p, "run"), &st) == 0);
        ck_assert_int_eq(st.st_mode & 07777, 0755);
        ck_assert_int_eq(st.st_uid, geteuid());
        /* one group or others may write: refused */
        scratch_mkdir("open", 0775, ME);
        ck_assert_int_eq(open_run("open"), -EPERM);
        scratch_mkdir("world", 01777, ME);
        ck_assert_int_eq(open_run("world"), -EPERM);
        /* a link, even to a good directory, is not followed */
        scratch_link("link", "@/run", ME);
        ck_assert_int_eq(open_run("link"), -ELOOP);
}
END_TEST

/* another user's directory, or a path through one */
START_TEST(test_rundir_foreign)
{
        scratch_mkdir("theirs", 0755, NOBODY);
        ck_assert_int_eq(open_run("theirs"), -EPERM);
        /* a path through another user's directory is refused by the chase (sys/chase.c) */
        scratch_mkdir("home", 0755, NOBODY);
        scratch_mkdir("home/run", 0755, 0);
        ck_assert_int_eq(open_run("home/run"), -EPERM);
}
END_TEST

START_TEST(test_rundir_subdir)
{
        struct paths p = paths_at("run");

        int fd = rundir_open(&p, true);
        ck_assert_int_ge(fd, 0);
        int sub = rundir_subdir(fd, "mounts", 0755, true);
        ck_assert_int_ge(sub, 0);
        close(sub);
        scratch_mkdir("run/open", 0777, ME);
        ck_assert_int_eq(rundir_subdir(fd, "open", 0700, true), -EPERM);
        /* an older version's 0755 claims' directory: narrowed by a writer, not by a reader */
        struct stat st;
        char path[2 * PATH_MAX];
        scratch_mkdir("run/old", 0755, ME);
        sub = rundir_subdir(fd, "old", 0700, false);
        ck_assert_int_ge(sub, 0);
        close(sub);
        ck_assert(stat(scratch_path(path, "run/old"), &st) == 0);
        ck_assert_int_eq(st.st_mode & 07777, 0755);
        sub = rundir_subdir(fd, "old", 0700, true);
        ck_assert_int_ge(sub, 0);
        close(sub);
        ck_assert(stat(scratch_path(path, "run/old"), &st) == 0);
        ck_assert_int_eq(st.st_mode & 07777, 0700);
        scratch_link("run/link", "mounts", ME);
        /* O_DIRECTORY|O_NOFOLLOW on a link: ENOTDIR */
        ck_assert_int_eq(rundir_subdir(fd, "link", 0700, true), -ENOTDIR);
        close(fd);
}
END_TEST

START_TEST(test_rundir_subdir_theirs)
{
        struct paths p = paths_at("run");

        int fd = rundir_open(&p, true);
        ck_assert_int_ge(fd, 0);
        scratch_mkdir("run/theirs", 0755, NOBODY);
        ck_assert_int_eq(rundir_subdir(fd, "theirs", 0700, true), -EPERM);
        close(fd);
}
END_TEST

START_TEST(test_records_reader)
{
        char p[2 * PATH_MAX];

        /* a reader creates nothing: not the records' directory, not the run directory */
        struct paths none = paths_at("none");
        struct mount_record rec;
        ck_assert_int_eq(open_records("none"), -ENOENT);
        ck_assert_int_eq(record_read(&none, "/mnt", &rec), -ENOENT);
        ck_assert_int_eq(record_remove(&none, "/mnt"), 0);
        ck_assert(access(scratch_path(p, "none"), F_OK) < 0 && errno == ENOENT);
        scratch_mkdir("run", 0755, ME);
        scratch_mkdir("run/mounts", 0755, ME);
        ck_assert_int_eq(open_records("run"), 0);
        /* written by someone else than root or the reader: not read */
        scratch_mkdir("w", 0755, ME);
        scratch_mkdir("w/mounts", 0775, ME);
        ck_assert_int_eq(open_records("w"), -EPERM);
        scratch_mkdir("l", 0755, ME);
        scratch_link("l/mounts", "@/run/mounts", ME);
        /* the same opener as the writer's (rundir_subdir): O_DIRECTORY|O_NOFOLLOW on a link */
        ck_assert_int_eq(open_records("l"), -ENOTDIR);
}
END_TEST

START_TEST(test_records_reader_theirs)
{
        scratch_mkdir("u", 0755, 0);
        scratch_mkdir("u/mounts", 0755, NOBODY);
        ck_assert_int_eq(open_records("u"), -EPERM);
}
END_TEST

SCRATCH_MAIN("rundir", (test_rundir_created_and_checked, test_rundir_subdir, test_records_reader),
             (test_rundir_foreign, test_rundir_subdir_theirs, test_records_reader_theirs))
