/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/verify.h"

#include <errno.h>
#include <stdio.h>
#include <sys/sysmacros.h>

#include "core/verdict.h"
#include "shared/macro.h"

unsigned verify_expected_nconnect(const struct verdict *v)
{
        /* a hidden client's nconnect is unknown, and following it drops the request */
        return v->effective ? v->effective : v->sharing == SHARE_HIDDEN ? 0 : v->requested;
}

struct verify_result verify_mount(const struct nfs_mount *newm, const struct verdict *v,
                                  const struct nfs_addr *primary, const struct clients *before,
                                  enum policy tls_policy)
{
        struct client_key k = client_key_of(newm);
        unsigned expect = verify_expected_nconnect(v);
        enum tls_level has = tls_level_of(newm->xprtsec);

        return (struct verify_result){
                .expect = expect,
                .joined = clients_find(before, &k),
                .nconnect_differs = expect && newm->nconnect != expect,
                .addr_differs = primary && !nfs_addr_equal(&newm->addr, primary),
                .tls_lacking = has < v->tls_want,
                .tls_want = v->tls_want,
                .tls_has = has,
                .unmount = has < v->tls_want && tls_policy == POLICY_REFUSE,
        };
}

/* The mount asked for TLS and its mountinfo shows less: which client, what it lacks. */
static int tls_finding(const struct verify_result *r, const char *dir, const struct nfs_mount *newm,
                       const char *mounts, struct findings *out)
{
        char abuf[NFS_ADDR_STRLEN], vbuf[32], has[32] = "no xprtsec=";

        if (r->tls_has != TLS_NONE)
                snprintf(has, sizeof(has), "xprtsec=%s", newm->xprtsec);
        return findings_add(
                out, r->unmount ? SEV_ERROR : SEV_WARNING,
                "%s asked for xprtsec=%s but its mountinfo shows %s: %s %s (NFSv%s), %s; lacking: %s; %s",
                dir, tls_level_to_string(r->tls_want), has,
                mounts ? "the kernel folded it into the existing NFS client of"
                       : "it landed on an NFS client of",
                nfs_addr_to_string(&newm->addr, abuf),
                nfs_version_to_string(newm->vers, vbuf, sizeof(vbuf)),
                mounts ? mounts
                       : "which a mount made meanwhile (a race) or a kernel that folds "
                         "where the plan did not expect it set up",
                verdict_tls_lacking(r->tls_want, r->tls_has),
                r->unmount
                        ? "its first requests already went that way; unmounting it "
                          "(tls_policy = refuse): unmount the other mounts of that server first, "
                          "or mount with vers=3 or through another server address"
                        : "the mount stays (tls_policy = warn); unmount it and the other mounts "
                          "of that server, then mount the TLS ones first or with vers=3");
}

int verify_findings(const struct verify_result *r, const char *dir, const struct nfs_mount *newm,
                    const struct nfs_addr *primary, const struct clients *before,
                    struct findings *out)
{
        char abuf[NFS_ADDR_STRLEN], pbuf[NFS_ADDR_STRLEN], vbuf[32];
        _cleanup_free_ char *ms = NULL;

        /* the mounts of the client joined are listed only in a warning (a hundred at a boot) */
        if ((r->nconnect_differs || r->addr_differs || r->tls_lacking) && r->joined &&
            !(ms = verdict_describe_mounts(r->joined, before)))
                return -ENOMEM;
        if (findings_add(
                    out, SEV_INFO,
                    "verified: %s is NFSv%s, server address %s, nconnect=%u, rsize=%lu, bdi %u:%u",
                    dir, nfs_version_to_string(newm->vers, vbuf, sizeof(vbuf)),
                    nfs_addr_to_string(&newm->addr, abuf), newm->nconnect, newm->rsize,
                    major(newm->dev), minor(newm->dev)) < 0)
                return -ENOMEM;
        if (r->nconnect_differs &&
            findings_add(out, SEV_WARNING,
                         "the kernel gave %s nconnect=%u, not the %u planned: %s%s%s", dir,
                         newm->nconnect, r->expect,
                         r->joined ? "it joined the existing client of "
                                   : "another mount of this server raced this one, or the "
                                     "negotiated version landed on an existing client",
                         ms ? ms : "", r->joined ? "; unmount those first to change it" : "") < 0)
                return -ENOMEM;
        if (r->addr_differs &&
            findings_add(out, SEV_WARNING, "the kernel uses server address %s for %s, not %s: %s%s",
                         nfs_addr_to_string(&newm->addr, abuf), dir,
                         nfs_addr_to_string(primary, pbuf),
                         r->joined ? "NFSv4 trunking found the same server and merged the mount "
                                     "into the existing client of "
                                   : "the server was reached through another address",
                         ms ? ms : "") < 0)
                return -ENOMEM;
        if (r->tls_lacking && tls_finding(r, dir, newm, ms, out) < 0)
                return -ENOMEM;
        return 0;
}
