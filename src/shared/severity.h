/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* How a message is shown. The core tags its findings with these; only the front prints
 * (shared/log.h). */
enum severity {
        SEV_INFO,    /* only with -v */
        SEV_NOTICE,  /* always: what the helper did instead of what was asked */
        SEV_WARNING, /* always, led by "warning: " */
        SEV_ERROR,   /* always: the mount is refused or failed */
};

/* "warning: " for SEV_WARNING, "" otherwise. */
static inline const char *severity_prefix(enum severity s)
{
        return s == SEV_WARNING ? "warning: " : "";
}
