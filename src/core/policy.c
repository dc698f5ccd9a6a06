/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/policy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared/macro.h"

int policy_parse(const char *s, enum policy *ret)
{
        if (!s)
                return -EINVAL;
        if (streq(s, "warn"))
                *ret = POLICY_WARN;
        else if (streq(s, "refuse"))
                *ret = POLICY_REFUSE;
        else if (streq(s, "follow"))
                *ret = POLICY_FOLLOW;
        else
                return -EINVAL;
        return 0;
}

const char *action_to_string(enum action a)
{
        static const char *const s[] = { "none", "warn", "refuse", "follow", "follow (quiet)" };
        return s[a];
}

const char *sharing_to_string(enum sharing s)
{
        static const char *const t[] = { "new client", "shares a client",
                                         "shares a client of another mount namespace",
                                         "version negotiated, may share a client" };
        return t[s];
}

static enum action action_of(enum policy p)
{
        return p == POLICY_REFUSE ? ACTION_REFUSE : p == POLICY_FOLLOW ? ACTION_FOLLOW : ACTION_WARN;
}

struct verdict policy_decide(const struct policy_input *in)
{
        const struct client_match *m = in->match;
        struct verdict v = { .requested = in->req->nconnect };

        if (m->client) {
                v.client = m->client;
                v.sharing = m->client->hidden ? SHARE_HIDDEN : SHARE_VISIBLE;
                v.effective = m->client->hidden ? 0 : m->client->nconnect;
        } else if (m->nmaybe > 0) {
                v.sharing = SHARE_MAYBE;
                v.client = m->maybe[0];
                v.effective = 0;
        } else {
                v.sharing = SHARE_NEW;
                v.effective = v.requested ? v.requested : 1;
        }

        /* nconnect: only a shared client can make the requested value void */
        if (v.requested && (v.sharing == SHARE_VISIBLE || v.sharing == SHARE_HIDDEN) &&
            v.requested != v.effective) {
                if (in->nconnect_from_config)
                        v.nconnect = ACTION_FOLLOW_QUIET;
                else
                        v.nconnect = action_of(in->nconnect_policy);
        }

        if (sec_is_krb5(in->req->sec)) {
                if (v.effective > 1)
                        v.krb5 = in->krb5_policy == POLICY_REFUSE ? ACTION_REFUSE : ACTION_WARN;
                else if (v.effective == 0 && (v.requested > 1 || v.sharing != SHARE_NEW))
                        /* unknown: the shared client's nconnect cannot be read */
                        v.krb5 = ACTION_WARN;
        }
        return v;
}

char *client_describe(const struct nfs_client *cl)
{
        char a[NFS_ADDR_STRLEN], vers[32], *s;
        if (asprintf(&s, "%s port %u, NFSv%s over %s%s%s", nfs_addr_to_string(&cl->key.addr, a),
                     cl->key.port, nfs_version_to_string(cl->key.vers, vers, sizeof(vers)),
                     cl->key.transport, streq(cl->key.xprtsec, "none") ? "" : " with xprtsec=",
                     streq(cl->key.xprtsec, "none") ? "" : cl->key.xprtsec) < 0)
                return NULL;
        return s;
}

char *client_mounts_describe(const struct nfs_client *cl, const struct clients *c)
{
        size_t len = 1;
        for (size_t i = 0; i < cl->nmounts; i++) {
                const struct nfs_mount *m = &c->mounts[cl->mounts[i]];
                len += strlen(m->target) + strlen(m->source) + 8;
        }
        char *s = malloc(len + 64), *p = s;
        if (!s)
                return NULL;
        *p = '\0';
        if (cl->nmounts == 0) {
                strcpy(s, "no mount of this mount namespace");
                return s;
        }
        for (size_t i = 0; i < cl->nmounts; i++) {
                const struct nfs_mount *m = &c->mounts[cl->mounts[i]];
                p += sprintf(p, "%s%s (%s)", i ? ", " : "", m->target, m->source);
        }
        return s;
}

char *verdict_nconnect_message(const struct verdict *v, const struct clients *c)
{
        _cleanup_free_ char *desc = NULL, *mounts = NULL;
        const char *lead, *todo;
        char *s = NULL;

        if (v->nconnect == ACTION_NONE || !v->client)
                return NULL;
        desc = client_describe(v->client);
        mounts = client_mounts_describe(v->client, c);
        if (!desc || !mounts)
                return NULL;
        switch (v->nconnect) {
        case ACTION_REFUSE:
                lead = "refusing to mount: ";
                todo = "unmount every mount of that client first, use the same nconnect, or set "
                       "nconnect_policy to warn or follow";
                break;
        case ACTION_FOLLOW:
                lead = "following the existing client: ";
                todo = "nconnect dropped from the options (nconnect_policy = follow)";
                break;
        case ACTION_FOLLOW_QUIET:
                lead = "following the existing client: ";
                todo = "the configured default nconnect is dropped from the options";
                break;
        default:
                lead = "warning: ";
                todo = "to get it, unmount every mount of that client first; to follow the "
                       "existing value instead, set nconnect_policy = follow";
                break;
        }
        if (v->sharing == SHARE_HIDDEN) {
                if (asprintf(&s,
                             "%snconnect=%u cannot take effect: this mount shares the NFS client "
                             "for %s, which exists in this network namespace (/proc/fs/nfsfs) but "
                             "no mount of this mount namespace shows it (a container or a service "
                             "with its own mount namespace)%s; its nconnect, set by the first mount, "
                             "cannot be read and decides this one; %s",
                             lead, v->requested, desc,
                             v->client->key.vers.major == 4 ?
                                     " (its NFSv4 minor version is not shown either, so it may "
                                     "be another minor version's client)" : "",
                             todo) < 0)
                        return NULL;
                return s;
        }
        if (asprintf(&s,
                     "%snconnect=%u cannot take effect: this mount shares the NFS client for %s "
                     "with %s, which has %u connection%s (nconnect=%u); the kernel keeps one "
                     "connection set per server address, port, protocol and version, and the "
                     "first mount decides it; %s",
                     lead, v->requested, desc, mounts, v->effective, v->effective == 1 ? "" : "s",
                     v->effective, todo) < 0)
                return NULL;
        return s;
}

char *verdict_krb5_message(const struct verdict *v, const struct clients *c,
                           const struct nfs_request *req)
{
        _cleanup_free_ char *mounts = NULL;
        char *s = NULL, count[64];
        const char *lead = v->krb5 == ACTION_REFUSE ? "refusing to mount: " : "warning: ";
        const char *from;

        if (v->krb5 == ACTION_NONE)
                return NULL;
        if (v->effective)
                snprintf(count, sizeof(count), "%u connections", v->effective);
        else
                snprintf(count, sizeof(count), "an unknown number of connections");
        if (v->client && v->sharing == SHARE_HIDDEN) {
                from = "inherited from a client that only another mount namespace uses";
        } else if (v->client && v->sharing != SHARE_NEW) {
                mounts = client_mounts_describe(v->client, c);
                if (!mounts)
                        return NULL;
                from = "inherited from ";
        } else
                from = "requested by this mount's nconnect";
        if (asprintf(&s,
                     "%ssec=%s on an NFS client with %s (%s%s): every connection of a client "
                     "shares one GSS context and sequence window, so requests fall outside the "
                     "window and are retransmitted after a context renegotiation; use nconnect=1 "
                     "for a client that carries krb5 mounts%s",
                     lead, req->sec, count, from, mounts ? mounts : "",
                     v->krb5 == ACTION_REFUSE ? "" : ", or set krb5_policy = refuse to prevent it") < 0)
                return NULL;
        return s;
}
