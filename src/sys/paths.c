/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/paths.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/fsuid.h>
#include <unistd.h>

#include "config-build.h"
#include "core/opts.h"
#include "shared/macro.h"
#include "sys/creds.h"

static const char *path_or_env(const char *name, const char *def)
{
        /* secure_getenv() returns NULL under AT_SECURE; the uid check covers the rest */
        const char *v = creds_privileged_exec() ? NULL : secure_getenv(name);
        return v && *v ? v : def;
}

void paths_init(struct paths *p)
{
        *p = (struct paths){
                .config = path_or_env("NFS_TUNED_CONFIG", CONFIG_PATH),
                .vendor_config = path_or_env("NFS_TUNED_VENDOR_CONFIG", VENDOR_CONFIG_DIR),
                .mountinfo = path_or_env("NFS_TUNED_MOUNTINFO", "/proc/self/mountinfo"),
                .nfsfs = path_or_env("NFS_TUNED_NFSFS", "/proc/fs/nfsfs"),
                .proc = path_or_env("NFS_TUNED_PROC", "/proc"),
                .sysfs = path_or_env("NFS_TUNED_SYSFS", "/sys"),
                .rundir = path_or_env("NFS_TUNED_RUNDIR", RUN_DIR),
                .udev_control = path_or_env("NFS_TUNED_UDEV_CONTROL", "/run/udev/control"),
                .udev_ns = path_or_env("NFS_TUNED_UDEV_NS", "/proc/1/ns"),
                .mount_nfs = path_or_env("NFS_TUNED_MOUNT_NFS", MOUNT_NFS_PATH),
                .fstab = path_or_env("NFS_TUNED_FSTAB", "/etc/fstab"),
                .mountstats = path_or_env("NFS_TUNED_MOUNTSTATS", "/proc/self/mountstats"),
                .nfsmount_conf = path_or_env("NFS_TUNED_NFSMOUNT_CONF", "/etc/nfsmount.conf"),
                .udev_rules = path_or_env("NFS_TUNED_UDEV_RULES", UDEV_RULES_DIRS),
                .rootfd = -1,
        };
}

int paths_hold_root(struct paths *p)
{
        int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);

        if (fd < 0)
                return -errno;
        p->rootfd = fd;
        return 0;
}

int paths_enter_mount_ns(const char *ns, char ret_path[static PATH_MAX])
{
        unsigned long pid;

        if (parse_uint(ns, 1, INT_MAX, &pid) == 0)
                snprintf(ret_path, PATH_MAX, "/proc/%lu/ns/mnt", pid);
        else
                snprintf(ret_path, PATH_MAX, "%s", ns);
        _cleanup_(closep) int fd = open(ret_path, O_RDONLY | O_CLOEXEC);
        return fd < 0 || setns(fd, CLONE_NEWNS) < 0 ? -errno : 0;
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

unsigned long paths_ino(const struct paths *p, const char *path)
{
        struct stat st;
        int fd = paths_open(p, path, O_RDONLY | O_CLOEXEC, 0);
        bool ok = fd >= 0 && fstat(fd, &st) == 0;

        if (fd >= 0)
                close(fd);
        return ok ? (unsigned long)st.st_ino : 0;
}

char *paths_canonical_as_caller(const char *path)
{
        /* a user may learn through the helper only what their own rights show them: whether
         * a directory exists below a root-only one, say */
        bool as_caller = creds_untrusted_caller();
        uid_t fsuid = as_caller ? (uid_t)setfsuid(getuid()) : 0;
        gid_t fsgid = as_caller ? (gid_t)setfsgid(getgid()) : 0;
        char *r = realpath(path, NULL);

        if (as_caller) {
                setfsgid(fsgid);
                setfsuid(fsuid);
        }
        return r;
}

/*
 * The mount ID of an open fd, mountinfo's first field: statx() (5.8+), which needs no /proc
 * (after -N's setns, /proc/self may be another PID namespace's or none); else the kernel's
 * fdinfo (3.15+). 0 and *ret, or -errno.
 */
static int fd_mount_id(int fd, int *ret)
{
        struct statx stx;
        char path[64], line[128];
        int r = -ENODATA;

        if (statx(fd, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC, STATX_MNT_ID, &stx) == 0 &&
            (stx.stx_mask & STATX_MNT_ID)) {
                *ret = (int)stx.stx_mnt_id;
                return 0;
        }
        snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
        _cleanup_(fclosep) FILE *f = fopen(path, "re");
        if (!f)
                return -errno;
        while (r < 0 && fgets(line, sizeof(line), f))
                if (sscanf(line, "mnt_id: %d", ret) == 1)
                        r = 0;
        return r;
}

int paths_mount_id_as_caller(const char *path, int *ret_mnt_id)
{
        bool as_caller = creds_untrusted_caller();
        uid_t fsuid = as_caller ? (uid_t)setfsuid(getuid()) : 0;
        gid_t fsgid = as_caller ? (gid_t)setfsgid(getgid()) : 0;
        int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
        int r = fd < 0 ? -errno : 0;

        if (as_caller) {
                setfsgid(fsgid);
                setfsuid(fsuid);
        }
        if (r == 0) {
                r = fd_mount_id(fd, ret_mnt_id);
                close(fd);
        }
        return r;
}

bool paths_caller_may_read(const char *path)
{
        /* access() checks with the real uid: the caller's, on a setuid run */
        return !creds_untrusted_caller() || access(path, R_OK) == 0;
}

bool paths_caller_may_list_dir_of(const char *path)
{
        char dir[PATH_MAX];
        const char *slash = strrchr(path, '/');

        if (!creds_untrusted_caller())
                return true;
        if (!slash || (size_t)(slash - path) >= sizeof(dir))
                return false;
        /* "/x": the root directory */
        size_t n = slash == path ? 1 : (size_t)(slash - path);
        memcpy(dir, path, n);
        dir[n] = '\0';
        return access(dir, R_OK) == 0;
}
