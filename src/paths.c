/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "paths.h"

#include <stdlib.h>
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
        };
}
