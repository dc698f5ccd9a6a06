/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/clock.h"

#include <time.h>

long long clock_monotonic_ms(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000L;
}
