/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/spec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "shared/macro.h"

/* mount.nfs caps the spec at NFS_MAXPATHLEN + NFS_MAXHOSTNAME, about 1 KiB */
#define SPEC_MAX 4096

int nfs_spec_parse(const char *spec, struct nfs_spec *ret)
{
        const char *colon, *host = spec;
        size_t hostlen;

        if (!spec || !*spec || strlen(spec) > SPEC_MAX)
                return -EINVAL;
        if (spec[0] == '[') {
                const char *close = strchr(spec, ']');
                if (!close || close[1] != ':')
                        return -EINVAL;
                host = spec + 1;
                hostlen = (size_t)(close - host);
                colon = close + 1;
        } else {
                colon = strchr(spec, ':');
                if (!colon)
                        return -EINVAL;
                hostlen = (size_t)(colon - spec);
                /* an unbracketed IPv6 literal splits at its first colon: "fd00::1:/x" */
                if (colon[1] == ':')
                        return -EINVAL;
        }
        if (hostlen == 0 || colon[1] == '\0' || memchr(host, '/', hostlen) ||
            memchr(host, '@', hostlen))
                return -EINVAL;
        _cleanup_free_ char *h = strndup(host, hostlen);
        char *p = strdup(colon + 1);
        if (!h || !p) {
                free(p);
                return -ENOMEM;
        }
        ret->host = steal_pointer(&h);
        ret->path = p;
        return 0;
}

void nfs_spec_done(struct nfs_spec *s)
{
        free(s->host);
        free(s->path);
        s->host = s->path = NULL;
}

bool nfs_spec_host_is(const char *spec, const char *host)
{
        size_t n = strlen(host);
        if (spec[0] == '[')
                return strncasecmp(spec + 1, host, n) == 0 && spec[n + 1] == ']';
        return strncasecmp(spec, host, n) == 0 && spec[n] == ':';
}
