/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/verdict.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared/macro.h"

char *verdict_describe_client(const struct nfs_client *cl)
{
        char a[NFS_ADDR_STRLEN], vers[32], *s;
        bool tls = !streq(cl->key.xprtsec, "none");

        if (asprintf(&s, "%s port %u, NFSv%s over %s%s%s", nfs_addr_to_string(&cl->key.addr, a),
                     cl->key.port, nfs_version_to_string(cl->key.vers, vers, sizeof(vers)),
                     cl->key.transport, tls ? " with xprtsec=" : "",
                     tls ? cl->key.xprtsec : "") < 0)
                return NULL;
        return s;
}

char *verdict_describe_mounts(const struct nfs_client *cl, const struct clients *c)
{
        if (cl->nmounts == 0)
                return strdup("no mount of this mount namespace");
        size_t len = 1;
        for (size_t i = 0; i < cl->nmounts; i++) {
                const struct nfs_mount *m = &c->mounts[cl->mounts[i]];
                len += strlen(m->target) + strlen(m->source) + sizeof(", ()");
        }
        char *s = malloc(len), *p = s;
        if (!s)
                return NULL;
        for (size_t i = 0; i < cl->nmounts; i++) {
                const struct nfs_mount *m = &c->mounts[cl->mounts[i]];
                p += sprintf(p, "%s%s (%s)", i ? ", " : "", m->target, m->source);
        }
        return s;
}

/* How an nconnect conflict is reported: its severity, its lead and what to do. */
static const struct {
        enum severity sev;
        const char *lead, *todo;
} nconnect_actions[] = {
        [ACTION_WARN] = { SEV_WARNING, "",
                          "to get it, unmount every mount of that client first; to follow the "
                          "existing value instead, set nconnect_policy = follow" },
        [ACTION_REFUSE] = { SEV_ERROR, "refusing to mount: ",
                            "unmount every mount of that client first, use the same nconnect, or "
                            "set nconnect_policy to warn or follow" },
        [ACTION_FOLLOW] = { SEV_NOTICE, "following the existing client: ",
                            "nconnect dropped from the options (nconnect_policy = follow)" },
        [ACTION_FOLLOW_QUIET] = { SEV_INFO, "following the existing client: ",
                                  "the configured default nconnect is dropped from the options" },
};

/* A client another helper is creating now: what it will have, and what this mount passes. */
static int claimed_finding(const struct verdict *v, const char *desc, const char *mounts,
                           struct findings *out)
{
        static const char *const todo[] = {
                [ACTION_WARN] = "; to get it, unmount every mount of that client first",
                [ACTION_REFUSE] = "; unmount every mount of that client first, use the same "
                                  "nconnect, or set nconnect_policy to warn or follow",
                [ACTION_FOLLOW] = " (nconnect_policy = follow)",
                [ACTION_FOLLOW_QUIET] = " (the configured default is not used)",
        };
        char pass[128] = "";

        if (v->pass_nconnect)
                snprintf(pass, sizeof(pass),
                         "; this mount passes nconnect=%u, so that the client gets it whichever "
                         "mount.nfs reaches the kernel first",
                         v->pass_nconnect);
        if (v->nconnect == ACTION_NONE)
                return findings_add(out, SEV_INFO,
                                    "nconnect=%u added: this mount shares the NFS client for %s, "
                                    "which the mount of %s is creating now with it%s",
                                    v->effective, desc, mounts, pass);
        return findings_add(out, nconnect_actions[v->nconnect].sev,
                            "%snconnect=%u cannot take effect: this mount shares the NFS client "
                            "for %s, which the mount of %s is creating now with nconnect=%u (the "
                            "first mount decides it)%s%s",
                            nconnect_actions[v->nconnect].lead, v->requested, desc, mounts,
                            v->effective, v->nconnect == ACTION_REFUSE ? "" : pass,
                            todo[v->nconnect]);
}

int verdict_nconnect_finding(const struct verdict *v, const struct clients *c, struct findings *out)
{
        if (!v->client || (v->nconnect == ACTION_NONE && !v->pass_nconnect))
                return 0;
        _cleanup_free_ char *desc = verdict_describe_client(v->client);
        _cleanup_free_ char *mounts = verdict_describe_mounts(v->client, c);
        if (!desc || !mounts)
                return -ENOMEM;
        if (v->client->claimed)
                return claimed_finding(v, desc, mounts, out);
        enum severity sev = nconnect_actions[v->nconnect].sev;
        const char *lead = nconnect_actions[v->nconnect].lead;
        const char *todo = nconnect_actions[v->nconnect].todo;

        if (v->sharing == SHARE_HIDDEN) {
                char count[128] = "its nconnect, set by the first mount, cannot be read and decides "
                                  "this one";
                if (v->effective)
                        snprintf(count, sizeof(count),
                                 "it has %u connection%s (its transports in /sys/kernel/sunrpc), "
                                 "set by the first mount, and they decide this one",
                                 v->effective, v->effective == 1 ? "" : "s");
                return findings_add(
                        out, sev,
                        "%snconnect=%u cannot take effect: this mount shares the NFS client for %s, "
                        "which exists in this network namespace (/proc/fs/nfsfs) but no mount of "
                        "this mount namespace shows it (a container or a service with its own mount "
                        "namespace)%s; %s; %s",
                        lead, v->requested, desc,
                        v->client->key.vers.major == 4
                                ? " (its NFSv4 minor version is not shown either, so it may be "
                                  "another minor version's client)"
                                : "",
                        count, todo);
        }
        return findings_add(
                out, sev,
                "%snconnect=%u cannot take effect: this mount shares the NFS client for "
                "%s with %s, which has %u connection%s (nconnect=%u); the kernel keeps "
                "one connection set per server address, port, protocol and version, and "
                "the first mount decides it; %s",
                lead, v->requested, desc, mounts, v->effective, v->effective == 1 ? "" : "s",
                v->effective, todo);
}

int verdict_names_finding(const struct verdict *v, const struct clients *c, const char *host,
                          struct findings *out)
{
        if (v->names == ACTION_NONE)
                return 0;
        _cleanup_free_ char *desc = verdict_describe_client(v->client);
        _cleanup_free_ char *mounts = verdict_describe_mounts(v->client, c);
        if (!desc || !mounts)
                return -ENOMEM;
        return findings_add(out, SEV_WARNING,
                            "%s shares the NFS client for %s with %s, mounted under another server "
                            "name: every name behind one address shares its %u connection%s and "
                            "that address's limits; to keep them apart, give each its own address "
                            "(a private endpoint per storage account, for Azure Files)",
                            host, desc, mounts, v->effective, v->effective == 1 ? "" : "s");
}

int verdict_krb5_finding(const struct verdict *v, const struct clients *c,
                         const struct nfs_request *req, struct findings *out)
{
        _cleanup_free_ char *mounts = NULL;
        bool refuse = v->krb5 == ACTION_REFUSE;
        char count[64];
        const char *from;

        if (v->krb5 == ACTION_NONE)
                return 0;
        if (v->effective)
                snprintf(count, sizeof(count), "%u connections", v->effective);
        else
                snprintf(count, sizeof(count), "an unknown number of connections");
        if (v->client && v->sharing == SHARE_HIDDEN) {
                from = "inherited from a client that only another mount namespace uses";
        } else if (v->client && v->sharing != SHARE_NEW) {
                if (!(mounts = verdict_describe_mounts(v->client, c)))
                        return -ENOMEM;
                from = "inherited from ";
        } else
                from = "requested by this mount's nconnect";
        return findings_add(
                out, refuse ? SEV_ERROR : SEV_WARNING,
                "%ssec=%s on an NFS client with %s (%s%s): every connection of a client "
                "shares one GSS context and sequence window, so requests fall outside "
                "the window and are retransmitted after a context renegotiation; use "
                "nconnect=1 for a client that carries krb5 mounts%s",
                refuse ? "refusing to mount: " : "", req->sec, count, from, mounts ? mounts : "",
                refuse ? "" : ", or set krb5_policy = refuse to prevent it");
}

/* What a mount that asked for `want` lacks on a client of `has`. */
const char *verdict_tls_lacking(enum tls_level want, enum tls_level has)
{
        if (has == TLS_NONE)
                return "encryption and integrity protection (its RPC traffic in plain text)";
        return want == TLS_MTLS ? "the client certificate it asked to present (encrypted, but "
                                  "the server cannot tell this client from any other)"
                                : "the protection it asked for";
}

int verdict_tls_finding(const struct verdict *v, const struct clients *c,
                        const struct nfs_request *req, struct findings *out)
{
        bool refuse = v->tls == ACTION_REFUSE;

        if (v->tls == ACTION_NONE)
                return 0;
        const struct nfs_client *cl = v->tls_client;
        enum tls_level has = tls_level_of(cl->key.xprtsec);
        _cleanup_free_ char *desc = verdict_describe_client(cl);
        _cleanup_free_ char *mounts = verdict_describe_mounts(cl, c);
        char hasw[128];
        if (!desc || !mounts)
                return -ENOMEM;
        if (cl->hidden)
                snprintf(hasw, sizeof(hasw),
                         "a TLS policy /proc/fs/nfsfs does not show (taken "
                         "as none)");
        else if (has == TLS_NONE)
                snprintf(hasw, sizeof(hasw), "no TLS");
        else
                snprintf(hasw, sizeof(hasw), "xprtsec=%s", cl->key.xprtsec);
        return findings_add(
                out, refuse ? SEV_ERROR : SEV_WARNING,
                "%sxprtsec=%s %s on the NFS client for %s, set up by %s, which has %s; lacking: %s; NFSv4 "
                "trunking folds a new client into an existing one of the same server, whatever its "
                "TLS policy (doc: mount.nfs-tuned(8), TLS); unmount the mounts of that client "
                "first, or mount with vers=3 or through another server address%s",
                refuse ? "refusing to mount: " : "", req->xprtsec,
                v->sharing == SHARE_MAYBE ? "may land (the version is negotiated)" : "would land",
                desc, mounts, hasw, verdict_tls_lacking(v->tls_want, has),
                refuse ? "" : "; tls_policy = refuse prevents it");
}
