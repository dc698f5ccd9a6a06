/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/policy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/spec.h"
#include "shared/macro.h"

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
        return p == POLICY_REFUSE   ? ACTION_REFUSE
               : p == POLICY_FOLLOW ? ACTION_FOLLOW
                                    : ACTION_WARN;
}

/* A mount of the client was made under another server name than this one's. */
static bool other_names(const struct nfs_client *cl, const struct clients *c, const char *host)
{
        for (size_t i = 0; i < cl->nmounts; i++)
                if (!nfs_spec_host_is(c->mounts[cl->mounts[i]].source, host))
                        return true;
        return false;
}

/* The client that gives the mount less TLS than it asked: the one it lands on, else the first
 * one a negotiated version may land on; NULL: none. */
static const struct nfs_client *tls_weaker(const struct client_match *m, enum tls_level want)
{
        if (m->client)
                return tls_level_of(m->client->key.xprtsec) < want ? m->client : NULL;
        for (size_t i = 0; i < m->nmaybe; i++)
                if (tls_level_of(m->maybe[i]->key.xprtsec) < want)
                        return m->maybe[i];
        return NULL;
}

enum tls_level verdict_tls_gets(const struct verdict *v)
{
        const struct nfs_client *cl = v->tls_client ? v->tls_client : v->client;
        return cl && v->sharing != SHARE_NEW ? tls_level_of(cl->key.xprtsec) : v->tls_want;
}

struct verdict policy_decide(const struct policy_input *in)
{
        const struct client_match *m = in->match;
        struct verdict v = { .requested = in->req->nconnect };

        if (m->client) {
                v.client = m->client;
                v.sharing = m->client->hidden ? SHARE_HIDDEN : SHARE_VISIBLE;
                /* a hidden client's count is known only from its RPC transports (0: unknown) */
                v.effective = m->client->nconnect;
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

        /* a claimed client: a joiner whose mount.nfs got there first would create it with its
         * own value and undo the claimant's; a refused mount creates nothing */
        if (v.client && v.client->claimed && v.nconnect != ACTION_REFUSE &&
            (v.requested ? v.requested : 1) != v.effective)
                v.pass_nconnect = v.effective;

        if (in->warn_shared_names && in->host && v.sharing == SHARE_VISIBLE &&
            other_names(v.client, in->clients, in->host))
                v.names = ACTION_WARN;

        /* a TLS mount on a client of a weaker policy runs with that client's: a security
         * finding, never followed */
        v.tls_want = tls_level_of(in->req->xprtsec);
        if ((v.tls_client = tls_weaker(m, v.tls_want)))
                v.tls = in->tls_policy == POLICY_REFUSE ? ACTION_REFUSE : ACTION_WARN;

        if (sec_is_krb5(in->req->sec)) {
                if (v.effective > 1)
                        v.krb5 = in->krb5_policy == POLICY_REFUSE ? ACTION_REFUSE : ACTION_WARN;
                else if (v.effective == 0 && (v.requested > 1 || v.sharing != SHARE_NEW))
                        /* unknown: the shared client's nconnect cannot be read */
                        v.krb5 = ACTION_WARN;
        }
        return v;
}
