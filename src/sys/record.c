/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shared/macro.h"
#include "sys/chase.h"
#include "sys/clock.h"
#include "sys/fileio.h"
#include "sys/rundir.h"

int record_write(int run, const struct mount_record *rec)
{
        _cleanup_free_ char *text = NULL, *name = NULL;
        int r;

        if ((r = mount_record_format(rec, &text)) < 0 ||
            (r = mount_record_name(rec->target, &name)) < 0)
                return r;
        _cleanup_(closep) int dir = run < 0 ? run
                                            : rundir_subdir(run, RECORD_SUBDIR, RECORD_DIR_MODE,
                                                            true);
        return dir < 0 ? dir : write_file_atomic_keep(dir, name, text, strlen(text));
}

int record_add_dev(int fd, dev_t dev)
{
        char line[MOUNT_RECORD_DEV_STRLEN];

        /* when it was seen mounted: status tells an earlier mount's record of the same
         * device number by it */
        mount_record_format_dev(dev, clock_monotonic_ms(), line);
        return record_add_line(fd, line);
}

int record_add_line(int fd, const char *line)
{
        struct stat st;

        /* a record renamed over this one since is another mount's: the write lands in ours,
         * which no name holds any more */
        if (fstat(fd, &st) < 0)
                return -errno;
        size_t n = strlen(line);
        ssize_t w = pwrite(fd, line, n, st.st_size);
        if (w == (ssize_t)n)
                return 0;
        int r = w < 0 ? -errno : -EIO;
        (void)!ftruncate(fd, st.st_size);
        return r;
}

int record_remove(const struct paths *p, const char *target)
{
        _cleanup_free_ char *name = NULL;
        int r = mount_record_name(target, &name);

        if (r < 0)
                return r;
        /* none there: no record to remove */
        _cleanup_(closep) int dir = rundir_open_sub(p, RECORD_SUBDIR, RECORD_DIR_MODE, false);
        if (dir < 0)
                return dir == -ENOENT ? 0 : dir;
        return unlinkat(dir, name, 0) < 0 && errno != ENOENT ? -errno : 0;
}

int records_open_readonly(const struct paths *p)
{
        return rundir_open_sub(p, RECORD_SUBDIR, RECORD_DIR_MODE, false);
}

int record_read_at(int dir, const char *target, struct mount_record *ret)
{
        _cleanup_free_ char *name = NULL, *text = NULL;
        int r;

        if ((r = mount_record_name(target, &name)) < 0)
                return r;
        _cleanup_(closep) int fd = openat(dir, name,
                                          O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0)
                return -errno;
        /* root writes the records: a file anyone else could have written is not used */
        if ((r = read_fd(fd, MOUNT_RECORD_MAX, geteuid() == 0, &text, NULL)) < 0)
                return r;
        return mount_record_parse(text, ret);
}

int record_read(const struct paths *p, const char *target, struct mount_record *ret)
{
        _cleanup_(closep) int dir = records_open_readonly(p);
        return dir < 0 ? dir : record_read_at(dir, target, ret);
}
