/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "core/addr.h"
#include "core/config.h"
#include "core/fstab.h"
#include "core/status.h"
#include "core/udevrule.h"

/*
 * `nfs-tuned status`, before the next boot: what fstab will do, and what on the host silently
 * defeats the helper's settings.  Pure decisions over what the front read.
 */

/*
 * Entries that will share one NFS client (the kernel's key, with the config's defaults the
 * helper adds) but ask for different nconnect, or mix sec=krb5* with more than one
 * connection.  0 or -ENOMEM.
 */
int hostcheck_fstab(const struct fstab_nfs *v, size_t n, const struct config *conf,
                    struct status_report *rep);

/* Rules that mask or shadow nfs-tuned's or nfs-utils' rule, or write read_ahead_kb after
 * nfs-tuned's.  0 or -ENOMEM. */
int hostcheck_udev(const struct udev_rule_file *v, size_t n, struct status_report *rep);

/*
 * nfs-utils' nfsmount.conf (`file`, its text): [ Server "name" ] and [ MountPoint "path" ]
 * sections, and global options that decide the NFS client (nconnect, vers, sec, proto, port,
 * xprtsec), which mount.nfs adds after the helper decided.  0 or -ENOMEM.
 */
int hostcheck_nfsmount_conf(const char *file, const char *text, struct status_report *rep);
