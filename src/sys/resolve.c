/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/resolve.h"

#include <netdb.h>
#include <string.h>
#include <sys/socket.h>

#define EAI_BASE 1000

int resolve_host(const char *host, int family, struct nfs_addr ret[static RESOLVE_MAX])
{
        struct addrinfo hints = { .ai_family = family,
                                  .ai_socktype = SOCK_STREAM,
                                  .ai_protocol = IPPROTO_TCP },
                        *res, *ai;
        int n = 0, r;

        r = getaddrinfo(host, NULL, &hints, &res);
        if (r != 0)
                return -EAI_BASE + r; /* EAI_* are negative */
        for (ai = res; ai && n < RESOLVE_MAX; ai = ai->ai_next) {
                struct nfs_addr a = { .family = ai->ai_family };
                if (ai->ai_family == AF_INET)
                        memcpy(a.b, &((struct sockaddr_in *)ai->ai_addr)->sin_addr, 4);
                else if (ai->ai_family == AF_INET6)
                        memcpy(a.b, &((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr, 16);
                else
                        continue;
                int dup = 0;
                for (int i = 0; i < n; i++)
                        dup |= nfs_addr_equal(&ret[i], &a);
                if (!dup)
                        ret[n++] = a;
        }
        freeaddrinfo(res);
        return n;
}

const char *resolve_strerror(int r)
{
        return gai_strerror(r + EAI_BASE);
}
