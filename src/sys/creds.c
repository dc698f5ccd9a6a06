/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/creds.h"

#include <sys/auxv.h>
#include <unistd.h>

bool creds_privileged_exec(void)
{
        /* decided by the exec and asked for every path (sys/paths.c): looked at once; the
         * helper never changes its real or effective ids */
        static int privileged = -1;

        if (privileged < 0)
                privileged = getauxval(AT_SECURE) != 0 || getuid() != geteuid() ||
                             getgid() != getegid();
        return privileged;
}

bool creds_untrusted_caller(void)
{
        return creds_privileged_exec() && getuid() != 0;
}

unsigned creds_caller_uid(void)
{
        return (unsigned)getuid();
}

bool creds_caller_is_root(void)
{
        return getuid() == 0;
}

bool creds_effective_root(void)
{
        return geteuid() == 0;
}
