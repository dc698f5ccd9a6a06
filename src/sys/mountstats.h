/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "core/mountstats.h"
#include "sys/paths.h"

/*
 * `nfs-tuned status`'s reader of the kernel's per-mount statistics, apart from sys/hostfiles.c
 * so that the mount path does not link the parser (core/mountstats.c).
 */

/* p->mountstats line by line; -errno when it cannot be read (a directory too), 0 otherwise. */
int load_mountstats(const struct paths *p, struct mountstats *ret);
