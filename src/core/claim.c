/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/claim.h"
#include "core/optmap.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/keyfile.h"
#include "core/opts.h"
#include "core/xprtsec.h"
#include "shared/macro.h"

enum serialise serialise_decide(const struct serialise_input *in)
{
        const struct verdict *v = in->verdict;

        if (in->dry_run)
                return SERIALISE_NONE_DRY_RUN;
        if (!in->resolved)
                return SERIALISE_NONE_UNRESOLVED;
        if (!in->root)
                return SERIALISE_NONE_USER;
        /* the client is there: whatever else mounts now, it cannot change its nconnect */
        if (v->sharing == SHARE_VISIBLE)
                return SERIALISE_NONE_JOINS;
        /* which client it makes is the server's answer, known only after the mount */
        if (v->sharing == SHARE_MAYBE || in->req->vers.major == 0 ||
            (in->req->vers.major == 4 && in->req->vers.minor < 0))
                return SERIALISE_NONE_NEGOTIATED;
        /* a client nfsfs lists and no mountinfo line shows may be the one a claimant's mount.nfs
         * has just made: its claim, not the line's unknown nconnect, decides (before a refusal,
         * which that unknown would cause) */
        if (v->sharing == SHARE_HIDDEN)
                return SERIALISE_CHECK_CLAIM;
        if (v->nconnect == ACTION_REFUSE || v->krb5 == ACTION_REFUSE || v->tls == ACTION_REFUSE)
                return SERIALISE_NONE_REFUSED;
        return SERIALISE_CLAIM;
}

const char *serialise_to_string(enum serialise s)
{
        static const char *const t[] = {
                [SERIALISE_NONE_JOINS] = "joins a client that exists: no claim",
                [SERIALISE_NONE_NEGOTIATED] = "version negotiated: no claim",
                [SERIALISE_NONE_UNRESOLVED] = "address unknown: no claim",
                [SERIALISE_NONE_DRY_RUN] = "dry run: no claim",
                [SERIALISE_NONE_USER] = "a user's mount: no claim",
                [SERIALISE_NONE_REFUSED] = "refused: no claim",
                [SERIALISE_CLAIM] = "creates a client: claims its key",
                [SERIALISE_CHECK_CLAIM] = "a client only /proc/fs/nfsfs shows: reads its key's "
                                          "claim",
        };
        return t[s];
}

bool serialise_takes_key(enum serialise s)
{
        return s == SERIALISE_CLAIM || s == SERIALISE_CHECK_CLAIM;
}

int claim_key_name(unsigned long netns, const struct client_key *k, char *buf, size_t n)
{
        char a[NFS_ADDR_STRLEN], v[32];
        /* where the kernel folds TLS policies into one client (the sharing model), they are
         * one key: a TLS and a plain mount started at once must see each other's claim */
        bool tls = k->xprtsec[0] && !streq(k->xprtsec, "none") && xprtsec_separates(k->vers);

        if (k->vers.major == 4)
                snprintf(v, sizeof(v), "4.%d", k->vers.minor);
        else
                snprintf(v, sizeof(v), "%d", k->vers.major);
        int r = snprintf(buf, n, "net%lu-%s-%u-%s-v%s%s%s", netns, nfs_addr_to_string(&k->addr, a),
                         k->port, k->transport, v, tls ? "-" : "", tls ? k->xprtsec : "");
        return r < 0 || (size_t)r >= n || (size_t)r > NAME_MAX - 8 ? -ENAMETOOLONG : 0;
}

void claim_done(struct claim *c)
{
        free(c->target);
        free(c->spec);
        *c = (struct claim){ 0 };
}

int claim_format(const struct claim *c, char **ret)
{
        /* one line each: a newline in a path would forge a key */
        if (strchr(c->target, '\n') || strchr(c->spec, '\n'))
                return -EINVAL;
        return asprintf(ret,
                        CLAIM_HEADER "\npid=%ld\nnconnect=%u\nxprtsec=%s\ntarget=%s\nspec=%s\n",
                        (long)c->pid, c->nconnect, c->xprtsec[0] ? c->xprtsec : "none", c->target,
                        c->spec) < 0
                       ? -ENOMEM
                       : 0;
}

/* One key=value line of a claim; a repeated key is not a claim the helper wrote. */
static int claim_set(void *ctx, const char *key, const char *value)
{
        struct claim *c = ctx;
        unsigned long u;

        if (streq(key, "pid") && !c->pid && parse_uint(value, 1, INT_MAX, &u) == 0)
                c->pid = (pid_t)u;
        else if (streq(key, "nconnect") && !c->nconnect &&
                 parse_uint(value, 1, NCONNECT_MAX, &u) == 0)
                c->nconnect = (unsigned)u;
        else if (streq(key, "xprtsec") && !c->xprtsec[0] && xprtsec_word(value))
                snprintf(c->xprtsec, sizeof(c->xprtsec), "%s", value);
        else if (streq(key, "target") && !c->target && value[0] == '/')
                return (c->target = strdup(value)) ? 0 : -ENOMEM;
        else if (streq(key, "spec") && !c->spec && value[0])
                return (c->spec = strdup(value)) ? 0 : -ENOMEM;
        else
                return -EINVAL;
        return 0;
}

int claim_parse(const char *text, struct claim *ret)
{
        struct claim c = { 0 };
        int r = keyfile_parse(text, CLAIM_HEADER, KEYFILE_STRICT, claim_set, &c);

        if (r == 0 && (!c.pid || !c.nconnect || !c.target || !c.spec))
                r = -EINVAL;
        /* a claim without it: taken as none, the side where a TLS mount is refused */
        if (!c.xprtsec[0])
                snprintf(c.xprtsec, sizeof(c.xprtsec), "none");
        if (r < 0) {
                claim_done(&c);
                return r;
        }
        *ret = c;
        return 0;
}
