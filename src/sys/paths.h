/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

/* Every system path the helper touches, so tests can point it at fixture trees. */
struct paths {
        const char *config;        /* drop-ins: <config>.d/<*.conf> */
        const char *vendor_config; /* the vendor's drop-ins, read first */
        const char *mountinfo;
        const char *nfsfs; /* directory with servers, volumes */
        const char *proc;  /* the processes' mount tables (udev mode) */
        const char *sysfs;
        const char *rundir;       /* lock files; mount records in <rundir>/mounts */
        const char *udev_control; /* udev is running when it exists */
        const char *udev_ns;      /* the namespaces udev runs in: PID 1's, <it>/net, <it>/mnt */
        const char *udev_rules;   /* udev's rule directories, ':'-separated, first wins */
        const char *mount_nfs;    /* the real mount.nfs (config mount_nfs overrides) */
        const char *fstab;        /* a user's mount takes helper keys from here only */
        /* read by `nfs-tuned status` only */
        const char *mountstats;    /* the xprt: lines: connections live */
        const char *nfsmount_conf; /* mount.nfs's own config; drop-ins in <it>.d */
        /* -N: the caller's root directory, opened before entering the target mount
         * namespace; every path above is resolved under it (-1: as they are) */
        int rootfd;
};

/*
 * Compile-time defaults; NFS_TUNED_* environment overrides are honoured only when the process
 * is not running with elevated privileges (setuid, setgid, file capabilities).
 */
void paths_init(struct paths *p);
/* -N: the caller's root directory kept as rootfd before entering another mount namespace.
 * 0 or -errno. */
int paths_hold_root(struct paths *p);
/* Enters the mount namespace `ns` (a PID: its /proc/PID/ns/mnt; else a path), the file tried
 * in `ret_path`.  0 or -errno. */
int paths_enter_mount_ns(const char *ns, char ret_path[static PATH_MAX]);
/* Closes rootfd. */
void paths_done(struct paths *p);
/*
 * open()/mkdir()/access() of one of the paths above, under p->rootfd when set: after -N the
 * target namespace's own /run, /sys or a /proc of another PID namespace are not used.
 */
int paths_open(const struct paths *p, const char *path, int flags, mode_t mode);
int paths_mkdir(const struct paths *p, const char *path, mode_t mode);
int paths_exists(const struct paths *p, const char *path);
/* The inode number of the file (a namespace's identity); 0 when it cannot be opened. */
unsigned long paths_ino(const struct paths *p, const char *path);

/* realpath() with the caller's rights on an untrusted run; NULL and errno as realpath(). */
char *paths_canonical_as_caller(const char *path);
/*
 * The mount point as the caller reaches it (O_PATH, their rights on an untrusted run) and the
 * ID of the mount it is on (/proc/self/fdinfo): a new mount on it has that mount as parent.
 * 0 and *ret_mnt_id, or -errno.
 */
int paths_mount_id_as_caller(const char *path, int *ret_mnt_id);
/* The caller may read the file (always, unless an untrusted run). */
bool paths_caller_may_read(const char *path);
/* The caller may list the directory the file is in, and so learn its name (as above). */
bool paths_caller_may_list_dir_of(const char *path);
