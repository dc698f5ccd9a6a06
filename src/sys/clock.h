/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* CLOCK_MONOTONIC in milliseconds: the clock the kernel's jiffies follow (mountstats' age). */
long long clock_monotonic_ms(void);
