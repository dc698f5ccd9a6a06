/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

#include "core/mountinfo.h"
#include "sys/paths.h"

struct bdi_watch;

/* loaded (dlopen) only by a mount that waits for udev */
#define LIBUDEV_SONAME "libudev.so.1"

/*
 * Starts listening for udev's bdi events before mount.nfs creates the superblock, so the
 * event for the new bdi cannot be missed.  0 with *ret NULL when udev is not running;
 * -ELIBACC when libudev.so.1 cannot be loaded, -errno when its monitor cannot be made.
 */
int bdi_watch_start(const struct paths *p, struct bdi_watch **ret);
void bdi_watch_free(struct bdi_watch *w);
static inline void bdi_watch_freep(struct bdi_watch **w)
{
        bdi_watch_free(*w);
}

/*
 * udev's rules see a mount made by this process as it does: its network and mount namespaces
 * are udev's (p->udev_ns), so the mount's line is in udev's mountinfo and its volume in udev's
 * /proc/fs/nfsfs.  False when either cannot be read.
 */
bool bdi_udev_shares_namespaces(const struct paths *p);

/*
 * Waits until udev has run its rules (nfs-utils' nfsrahead among them) for the bdi `dev`, at
 * most timeout_ms; *ret_waited_ms is how long it waited.  0 when seen, -ETIMEDOUT, or another
 * -errno.
 */
int bdi_watch_wait(struct bdi_watch *w, dev_t dev, int timeout_ms, long *ret_waited_ms);

/*
 * Writes <sysfs>/class/bdi/<maj:min>/read_ahead_kb and reads it back (the kernel keeps whole
 * pages, so 15361 reads 15360); 0 or -errno.
 */
int bdi_set_read_ahead(const struct paths *p, dev_t dev, unsigned long kb, unsigned long *ret_old,
                       unsigned long *ret_now);

/* The page size in KiB: the kernel keeps read_ahead_kb in whole pages (4 when unknown). */
unsigned long bdi_page_kb(void);

/* The read_ahead_kb of bdi `dev` now; 0 or -errno. */
int bdi_get_read_ahead(const struct paths *p, dev_t dev, unsigned long *ret);

/* Whose bdi udev reports: found in the mount table, or in this network namespace's nfsfs. */
struct bdi_owner {
        enum { BDI_NOT_NFS, BDI_NFS_MOUNT, BDI_NFS_VOLUME } kind;
        struct nfs_mount mount;      /* BDI_NFS_MOUNT: its mountinfo line (owned) */
        struct nfs_addr volume_addr; /* BDI_NFS_VOLUME: the server of the volume line */
        long lookup_ms;              /* the first look at the mount table */
        long waited_ms;              /* then the wait for a late line; 0: none */
        unsigned looks;              /* how often a mount table was read */
        bool elsewhere;              /* another mount namespace's table lists it: no wait */
};

/*
 * The owner of bdi `dev`.  A device that the mount table shows as another file system, or
 * that neither the table nor /proc/fs/nfsfs/volumes lists, is BDI_NOT_NFS at once.  An NFS
 * volume whose mountinfo line is not there yet (the event comes before mount(2) returns) is
 * waited for, at most `wait_ms`, then it is BDI_NFS_VOLUME (another mount namespace made it);
 * a volume that goes away meanwhile (NFSv4's superblock of the server's root, which lives only
 * while mount(2) walks to the export) is BDI_NOT_NFS.  0, or -ENOMEM.
 */
int bdi_find_owner(const struct paths *p, dev_t dev, int wait_ms, struct bdi_owner *ret);
