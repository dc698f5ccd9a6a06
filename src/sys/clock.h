/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "core/mountinfo.h"
#include "sys/paths.h"

/* CLOCK_MONOTONIC in milliseconds: the clock the kernel's jiffies follow (mountstats' age). */
long long clock_monotonic_ms(void);
/*
 * This boot's identity, the kernel's random boot_id (<proc>/sys/kernel/random/boot_id), which
 * CLOCK_MONOTONIC's times belong to: a record of another boot (a /run kept on disk) is not of
 * a mount of this one.  0, or -errno with `buf` "" (a kernel or /proc without it).
 */
int clock_boot_id(const struct paths *p, char buf[static BOOT_ID_STRLEN]);
