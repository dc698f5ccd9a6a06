/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/claim.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shared/macro.h"
#include "sys/fileio.h"
#include "sys/rundir.h"

int claims_dir_open(int run)
{
        return run < 0 ? run : rundir_subdir(run, CLAIM_SUBDIR, CLAIM_DIR_MODE, true);
}

unsigned long netns_id(const struct paths *p)
{
        return paths_ino(p, "/proc/self/ns/net");
}

static void claim_file(char buf[static NAME_MAX + 1], const char *key)
{
        snprintf(buf, NAME_MAX + 1, "%s.claim", key);
}

int claim_read(int dir, const char *key, struct claim *ret)
{
        char name[NAME_MAX + 1];
        _cleanup_free_ char *text = NULL;
        struct stat st;

        claim_file(name, key);
        _cleanup_(closep) int fd = openat(dir, name,
                                          O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0)
                return errno == ENOENT || errno == ELOOP ? 0 : -errno;
        /* one another user could have opened (an older version's 0644) may be flocked by them */
        if (fstat(fd, &st) < 0)
                return -errno;
        if (!S_ISREG(st.st_mode) || !rundir_private(&st))
                return 0;
        /* the claimant holds its file locked for as long as it lives: no pid to trust */
        if (flock(fd, LOCK_SH | LOCK_NB) == 0)
                return 0;
        if (errno != EWOULDBLOCK)
                return -errno;
        int r = read_fd(fd, CLAIM_MAX, geteuid() == 0, &text, NULL);
        if (r == -EPERM || r == -EINVAL || r == -EFBIG)
                return 0; /* not a file the helper wrote: no claim */
        if (r < 0)
                return r;
        r = claim_parse(text, ret);
        return r == -EINVAL ? 0 : r < 0 ? r : 1;
}

int claim_put(int dir, const char *key, const struct claim *c)
{
        char name[NAME_MAX + 1], tmp[NAME_MAX + 1];
        _cleanup_free_ char *text = NULL;
        int r;

        if ((r = claim_format(c, &text)) < 0)
                return r;
        claim_file(name, key);
        if (snprintf(tmp, sizeof(tmp), ".%s.%ld", key, (long)getpid()) >= (int)sizeof(tmp))
                return -ENAMETOOLONG;
        int fd = openat(dir, tmp, O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0)
                return -errno;
        /* locked before it has its name: no reader ever sees it unlocked, as a stale one */
        r = flock(fd, LOCK_EX | LOCK_NB) < 0 ? -errno : write_all(fd, text);
        if (r == 0 && renameat(dir, tmp, dir, name) < 0)
                r = -errno;
        if (r < 0) {
                (void)unlinkat(dir, tmp, 0);
                close(fd);
                return r;
        }
        return fd;
}

void claim_drop(int dir, const char *key, int fd)
{
        char name[NAME_MAX + 1];

        /* while it is locked the name is ours: no one replaces a live claim */
        claim_file(name, key);
        (void)unlinkat(dir, name, 0);
        close(fd);
}
