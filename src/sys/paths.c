/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/paths.h"

#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "config-build.h"

bool paths_privileged_exec(void)
{
        return getauxval(AT_SECURE) != 0 || getuid() != geteuid() || getgid() != getegid();
}

static const char *override(const char *name, const char *def)
{
        /* secure_getenv() returns NULL under AT_SECURE; the uid check covers the rest */
        const char *v = paths_privileged_exec() ? NULL : secure_getenv(name);
        return v && *v ? v : def;
}

void paths_init(struct paths *p)
{
        *p = (struct paths){
                .config = override("NFS_TUNED_CONFIG", CONFIG_PATH),
                .mountinfo = override("NFS_TUNED_MOUNTINFO", "/proc/self/mountinfo"),
                .nfsfs = override("NFS_TUNED_NFSFS", "/proc/fs/nfsfs"),
                .sysfs = override("NFS_TUNED_SYSFS", "/sys"),
                .rundir = override("NFS_TUNED_RUNDIR", RUN_DIR),
                .udev_control = override("NFS_TUNED_UDEV_CONTROL", "/run/udev/control"),
                .mount_nfs = override("NFS_TUNED_MOUNT_NFS", MOUNT_NFS_PATH),
                .rootfd = -1,
        };
}

void paths_done(struct paths *p)
{
        if (p->rootfd >= 0)
                close(p->rootfd);
        p->rootfd = -1;
}

/* The path relative to the caller's root, or as it is. */
static const char *under_root(const struct paths *p, const char *path, int *ret_dirfd)
{
        if (p->rootfd < 0 || path[0] != '/') {
                *ret_dirfd = AT_FDCWD;
                return path;
        }
        *ret_dirfd = p->rootfd;
        path += strspn(path, "/");
        return *path ? path : ".";
}

int paths_open(const struct paths *p, const char *path, int flags, mode_t mode)
{
        int dirfd;
        const char *rel = under_root(p, path, &dirfd);
        int fd = openat(dirfd, rel, flags, mode);
        return fd < 0 ? -errno : fd;
}

int paths_mkdir(const struct paths *p, const char *path, mode_t mode)
{
        int dirfd;
        const char *rel = under_root(p, path, &dirfd);
        return mkdirat(dirfd, rel, mode) < 0 ? -errno : 0;
}

int paths_exists(const struct paths *p, const char *path)
{
        int dirfd;
        const char *rel = under_root(p, path, &dirfd);
        return faccessat(dirfd, rel, F_OK, AT_EACCESS) == 0;
}

int paths_rename(const struct paths *p, const char *from, const char *to)
{
        int fromfd, tofd;
        const char *rfrom = under_root(p, from, &fromfd), *rto = under_root(p, to, &tofd);
        return renameat(fromfd, rfrom, tofd, rto) < 0 ? -errno : 0;
}

int paths_unlink(const struct paths *p, const char *path)
{
        int dirfd;
        const char *rel = under_root(p, path, &dirfd);
        return unlinkat(dirfd, rel, 0) < 0 ? -errno : 0;
}
