/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>

#include "core/opts.h"
#include "core/version.h"

#define NFS_PORT 2049
#define NFS_RDMA_PORT 20049

/* What the options ask of the kernel's client. */
struct nfs_request {
        struct nfs_version vers;
        char transport[8]; /* tcp, udp, rdma */
        int family;        /* AF_UNSPEC, or AF_INET/AF_INET6 forced by proto= */
        unsigned port;     /* 2049 (20049 over rdma) when absent or 0 */
        char xprtsec[8];   /* none, tls, mtls */
        unsigned nconnect; /* 0: not asked */
        const char *sec;   /* points into the option list; NULL: sys */
};

/* The major version an option sets (vers=3, v4.1 ...); 0 when it sets none. */
int nfs_request_opt_major(const struct opt *o);

/*
 * Reads the request from the final option list.  `v4_by_name`: called as mount.nfs4 or with
 * -t nfs4.  On a bad value returns -EINVAL and points *ret_bad at the option.
 */
int nfs_request_parse(const struct optlist *opts, bool v4_by_name, struct nfs_request *ret,
                      const struct opt **ret_bad);
bool sec_is_krb5(const char *sec);
