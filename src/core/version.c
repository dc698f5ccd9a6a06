/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/version.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/opts.h"

int nfs_version_parse(const char *s, struct nfs_version *ret)
{
        unsigned long major, minor = 0;
        char buf[16];
        const char *dot = s ? strchr(s, '.') : NULL;

        if (!s || strlen(s) >= sizeof(buf))
                return -EINVAL;
        snprintf(buf, sizeof(buf), "%.*s", dot ? (int)(dot - s) : (int)strlen(s), s);
        if (parse_uint(buf, 2, 4, &major) < 0)
                return -EINVAL;
        if (dot && (major != 4 || parse_uint(dot + 1, 0, NFS4_MINOR_MAX, &minor) < 0))
                return -EINVAL;
        *ret = (struct nfs_version){ (int)major, major == 4 && !dot ? -1 : (int)minor };
        return 0;
}

const char *nfs_version_to_string(struct nfs_version v, char *buf, size_t n)
{
        if (v.major == 0)
                snprintf(buf, n, "negotiated");
        else if (v.major == 4 && v.minor < 0)
                snprintf(buf, n, "4.x");
        else if (v.major == 4)
                snprintf(buf, n, "4.%d", v.minor);
        else
                snprintf(buf, n, "%d", v.major);
        return buf;
}
