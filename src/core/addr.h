/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <netinet/in.h>

/* A server address as the kernel keys an NFS client on it (scope ids ignored). */
struct nfs_addr {
        int family; /* AF_INET, AF_INET6, 0 = none */
        uint8_t b[16];
};

#define NFS_ADDR_STRLEN 64

int nfs_addr_parse(const char *s, struct nfs_addr *ret);
/* The hex form of /proc/fs/nfsfs/servers ("0a630001", 32 digits for IPv6). */
int nfs_addr_parse_hex(const char *s, struct nfs_addr *ret);
bool nfs_addr_equal(const struct nfs_addr *a, const struct nfs_addr *b);
/* "10.0.0.0/8", "fd00::/8" or a plain address; -EINVAL when not a CIDR/address. */
int nfs_addr_in_cidr(const struct nfs_addr *a, const char *cidr);
/* Why a CIDR cannot be used ("the prefix length of an IPv4 network is 0 to 32"), or NULL. */
const char *nfs_cidr_problem(const char *cidr);
const char *nfs_addr_to_string(const struct nfs_addr *a, char buf[static NFS_ADDR_STRLEN]);
