/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

/* Every system path the helper touches, so tests can point it at fixture trees. */
struct paths {
        const char *config;        /* drop-ins: <config>.d/<*.conf> */
        const char *mountinfo;
        const char *nfsfs;         /* directory with servers, volumes */
        const char *sysfs;
        const char *rundir;        /* lock files; mount records in <rundir>/mounts */
        const char *udev_control;  /* udev is running when it exists */
        const char *mount_nfs;     /* the real mount.nfs (config mount_nfs overrides) */
        /* -N: the caller's root directory, opened before entering the target mount
         * namespace; every path above is resolved under it (-1: as they are) */
        int rootfd;
};

/*
 * Compile-time defaults; NFS_TUNED_* environment overrides are honoured only when the process
 * is not running with elevated privileges (setuid, setgid, file capabilities).
 */
void paths_init(struct paths *p);
/* Closes rootfd. */
void paths_done(struct paths *p);
/*
 * open()/mkdir()/access() of one of the paths above, under p->rootfd when set: after -N the
 * target namespace's own /run, /sys or a /proc of another PID namespace are not used.
 */
int paths_open(const struct paths *p, const char *path, int flags, mode_t mode);
int paths_mkdir(const struct paths *p, const char *path, mode_t mode);
int paths_exists(const struct paths *p, const char *path);
int paths_rename(const struct paths *p, const char *from, const char *to);
int paths_unlink(const struct paths *p, const char *path);

/* Running with privileges another user granted (setuid or setgid binary). */
bool paths_privileged_exec(void);
