/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>

/* Every system path the helper touches, so tests can point it at fixture trees. */
struct paths {
        const char *config;        /* drop-ins: <config>.d/<*.conf> */
        const char *mountinfo;
        const char *nfsfs;         /* directory with servers, volumes */
        const char *sysfs;
        const char *rundir;        /* lock files */
        const char *udev_control;  /* udev is running when it exists */
        const char *mount_nfs;     /* the real mount.nfs (config mount_nfs overrides) */
};

/*
 * Compile-time defaults; NFS_TUNED_* environment overrides are honoured only when the process
 * is not running with elevated privileges (setuid, setgid, file capabilities).
 */
void paths_init(struct paths *p);
/* Running with privileges another user granted (setuid or setgid binary). */
bool paths_privileged_exec(void);
