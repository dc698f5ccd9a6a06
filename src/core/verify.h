/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "core/clients.h"
#include "core/findings.h"
#include "core/policy.h"

/* What the plan expected of the new mount, against what the kernel did. */
struct verify_result {
        unsigned expect;                 /* nconnect the plan expected; 0: cannot be known */
        const struct nfs_client *joined; /* the earlier client with the new mount's key */
        bool nconnect_differs;
        bool addr_differs;
        /* it asked for more TLS than its mountinfo shows (the client it landed on has less) */
        bool tls_lacking;
        enum tls_level tls_want, tls_has;
        bool unmount; /* tls_policy = refuse: the helper unmounts it */
};

/* The connections the plan expects the new mount to have; 0: cannot be known. */
unsigned verify_expected_nconnect(const struct verdict *v);

/*
 * `newm` is the new mount as mountinfo shows it; `before` the clients found before mount.nfs
 * ran; `primary` the address mount.nfs was to use (NULL: unresolved); `tls_policy` what to do
 * with a mount that got less TLS than asked (refuse: unmount it).
 */
struct verify_result verify_mount(const struct nfs_mount *newm, const struct verdict *v,
                                  const struct nfs_addr *primary, const struct clients *before,
                                  enum policy tls_policy);

/* "verified: ..." (info) and a warning for each difference; missing TLS is an error under
 * refuse (the mount is unmounted), a warning under warn.  0 or -ENOMEM. */
int verify_findings(const struct verify_result *r, const char *dir, const struct nfs_mount *newm,
                    const struct nfs_addr *primary, const struct clients *before,
                    struct findings *out);
