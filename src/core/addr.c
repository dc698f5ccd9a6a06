/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/addr.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "shared/macro.h"
#include "core/opts.h"

int nfs_addr_parse(const char *s, struct nfs_addr *ret)
{
        struct nfs_addr a = { 0 };
        char buf[INET6_ADDRSTRLEN + 1];
        size_t len = s ? strcspn(s, "%") : 0; /* fe80::1%eth0 */

        if (len == 0 || len >= sizeof(buf))
                return -EINVAL;
        memcpy(buf, s, len);
        buf[len] = '\0';
        if (inet_pton(AF_INET, buf, a.b) == 1)
                a.family = AF_INET;
        else if (inet_pton(AF_INET6, buf, a.b) == 1)
                a.family = AF_INET6;
        else
                return -EINVAL;
        *ret = a;
        return 0;
}

static int hexval(char c)
{
        if (c >= '0' && c <= '9')
                return c - '0';
        if (c >= 'a' && c <= 'f')
                return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
                return c - 'A' + 10;
        return -1;
}

int nfs_addr_parse_hex(const char *s, struct nfs_addr *ret)
{
        struct nfs_addr a = { 0 };
        size_t len = s ? strlen(s) : 0;

        if (len == 8)
                a.family = AF_INET;
        else if (len == 32)
                a.family = AF_INET6;
        else
                return -EINVAL;
        for (size_t i = 0; i < len / 2; i++) {
                int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
                if (hi < 0 || lo < 0)
                        return -EINVAL;
                a.b[i] = (uint8_t)(hi << 4 | lo);
        }
        *ret = a;
        return 0;
}

bool nfs_addr_equal(const struct nfs_addr *a, const struct nfs_addr *b)
{
        if (a->family != b->family || a->family == 0)
                return false;
        return memcmp(a->b, b->b, a->family == AF_INET ? 4 : 16) == 0;
}

int nfs_addr_in_cidr(const struct nfs_addr *a, const char *cidr)
{
        char buf[INET6_ADDRSTRLEN + 8];
        struct nfs_addr net;
        unsigned long bits;
        const char *slash = cidr ? strchr(cidr, '/') : NULL;
        size_t len = slash ? (size_t)(slash - cidr) : cidr ? strlen(cidr) : 0;

        if (!cidr || len >= sizeof(buf))
                return -EINVAL;
        memcpy(buf, cidr, len);
        buf[len] = '\0';
        if (nfs_addr_parse(buf, &net) < 0)
                return -EINVAL;
        unsigned long maxbits = net.family == AF_INET ? 32 : 128;
        if (!slash)
                bits = maxbits;
        else if (parse_uint(slash + 1, 0, maxbits, &bits) < 0)
                return -EINVAL;
        if (a->family != net.family)
                return 0;
        for (unsigned long i = 0; i < bits; i++) {
                unsigned mask = 0x80u >> (i % 8);
                if ((a->b[i / 8] & mask) != (net.b[i / 8] & mask))
                        return 0;
        }
        return 1;
}

const char *nfs_addr_to_string(const struct nfs_addr *a, char buf[static NFS_ADDR_STRLEN])
{
        if (!a->family || !inet_ntop(a->family, a->b, buf, NFS_ADDR_STRLEN))
                snprintf(buf, NFS_ADDR_STRLEN, "(none)");
        return buf;
}

const char *nfs_cidr_problem(const char *cidr)
{
        char buf[INET6_ADDRSTRLEN + 8];
        struct nfs_addr net;
        unsigned long bits;
        const char *slash = strchr(cidr, '/');
        size_t len = slash ? (size_t)(slash - cidr) : strlen(cidr);

        if (len >= sizeof(buf))
                return "the address is too long";
        memcpy(buf, cidr, len);
        buf[len] = '\0';
        if (nfs_addr_parse(buf, &net) < 0)
                return "the part before '/' is not an IPv4 or IPv6 address";
        if (slash && parse_uint(slash + 1, 0, net.family == AF_INET ? 32 : 128, &bits) < 0)
                return net.family == AF_INET ? "the prefix length of an IPv4 network is 0 to 32"
                                             : "the prefix length of an IPv6 network is 0 to 128";
        return NULL;
}
