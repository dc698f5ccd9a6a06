/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

#include "sys/paths.h"

struct bdi_watch;

/*
 * Starts listening for udev's bdi events before mount.nfs creates the superblock, so the
 * event for the new bdi cannot be missed.  NULL (no error) when udev is not running.
 */
struct bdi_watch *bdi_watch_start(const struct paths *p);
void bdi_watch_free(struct bdi_watch *w);

/*
 * Waits until udev has run its rules (nfs-utils' nfsrahead among them) for the bdi `dev`, at
 * most timeout_ms.  0 when seen, -ETIMEDOUT, or another -errno.
 */
int bdi_watch_wait(struct bdi_watch *w, dev_t dev, int timeout_ms);

/*
 * Writes <sysfs>/class/bdi/<maj:min>/read_ahead_kb and reads it back (the kernel keeps whole
 * pages, so 15361 reads 15360); 0 or -errno.
 */
int bdi_set_read_ahead(const struct paths *p, dev_t dev, unsigned long kb, unsigned long *ret_old,
                       unsigned long *ret_now);
