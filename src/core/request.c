/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/request.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "core/optmap.h"
#include "shared/macro.h"

/* Sets *v from a version option; 0 when the option is not one, 1 when it is, <0 bad. */
static int apply_version_opt(const struct opt *o, struct nfs_version *v)
{
        struct nfs_version nv;
        const char *n = o->name;

        if (streq(n, "vers") || streq(n, "nfsvers")) {
                if (nfs_version_parse(o->value, &nv) < 0)
                        return -EINVAL;
                *v = nv;
                return 1;
        }
        if (n[0] == 'v' && n[1] >= '2' && n[1] <= '4' && !o->value) {
                if (nfs_version_parse(n + 1, &nv) < 0)
                        return -EINVAL;
                *v = nv;
                return 1;
        }
        if (streq(n, "minorversion")) {
                unsigned long m;
                if (opt_number(n, o->value, &m) < 0)
                        return -EINVAL;
                /* minorversion= alone implies v4 in mount.nfs */
                *v = (struct nfs_version){ 4, (int)m };
                return 1;
        }
        return 0;
}

int nfs_request_opt_major(const struct opt *o)
{
        struct nfs_version v = { 0, -1 };
        return apply_version_opt(o, &v) > 0 ? v.major : 0;
}

static int set_proto(struct nfs_request *r, const char *p)
{
        static const struct {
                const char *name, *transport;
                int family;
        } protos[] = {
                { "tcp", "tcp", AF_INET },   { "tcp6", "tcp", AF_INET6 },
                { "udp", "udp", AF_INET },   { "udp6", "udp", AF_INET6 },
                { "rdma", "rdma", AF_INET }, { "rdma6", "rdma", AF_INET6 },
        };
        for (size_t i = 0; i < ELEMENTSOF(protos); i++)
                if (p && streq(p, protos[i].name)) {
                        snprintf(r->transport, sizeof(r->transport), "%s", protos[i].transport);
                        r->family = protos[i].family;
                        return 0;
                }
        return -EINVAL;
}

/* What the options say so far: minorversion= and port= settle only at the end. */
struct request_state {
        struct nfs_request r;
        int minor_alone; /* minorversion= without a version that says its minor; -1: none */
        unsigned port;   /* 0: not given */
};

/* One option, in order (the kernel and mount.nfs let the last occurrence win); -EINVAL: bad.
 * Whether a value is valid is the option's row (core/optmap.c); this reads what it says. */
static int request_apply(struct request_state *st, const struct opt *o)
{
        const struct optdef *d = optdef_find(o->name);
        const char *n = o->name;
        unsigned long u = 0;
        int k;

        if (d && optdef_decides_client(d) &&
            (optdef_check(d, o->value) < 0 || (d->max && opt_number(n, o->value, &u) < 0)))
                return -EINVAL;
        if (streq(n, "minorversion")) {
                st->minor_alone = (int)u;
                return 0;
        }
        if ((k = apply_version_opt(o, &st->r.vers)) != 0) {
                /* a later vers=4.2 overrides an earlier minorversion=, vers=4 not */
                if (k > 0 && (st->r.vers.major != 4 || st->r.vers.minor >= 0))
                        st->minor_alone = -1;
                return k < 0 ? -EINVAL : 0;
        }
        if (streq(n, "proto"))
                return set_proto(&st->r, o->value);
        if (!o->value && (streq(n, "tcp") || streq(n, "udp") || streq(n, "rdma")))
                /* mount.nfs reads the bare flags as proto=tcp etc.: IPv4 */
                return set_proto(&st->r, n);
        if (streq(n, "port"))
                st->port = (unsigned)u;
        else if (streq(n, "xprtsec"))
                snprintf(st->r.xprtsec, sizeof(st->r.xprtsec), "%s", o->value);
        else if (streq(n, "nconnect"))
                st->r.nconnect = (unsigned)u;
        else if (streq(n, "sec"))
                st->r.sec = o->value;
        return 0;
}

int nfs_request_parse(const struct optlist *opts, bool v4_by_name, struct nfs_request *ret,
                      const struct opt **ret_bad)
{
        struct request_state st = {
                .r = { .vers = { v4_by_name ? 4 : 0, -1 },
                       .transport = "tcp",
                       .family = AF_UNSPEC,
                       .port = NFS_PORT,
                       .xprtsec = "none" },
                .minor_alone = -1,
        };

        for (size_t i = 0; i < opts->n; i++)
                if (request_apply(&st, &opts->v[i]) < 0) {
                        if (ret_bad)
                                *ret_bad = &opts->v[i];
                        return -EINVAL;
                }
        if (st.minor_alone >= 0 && (st.r.vers.major == 4 || st.r.vers.major == 0))
                st.r.vers = (struct nfs_version){ 4, st.minor_alone };
        /* the kernel's default port for RDMA is 20049 (fs_context.c) */
        st.r.port = st.port ? st.port : streq(st.r.transport, "rdma") ? NFS_RDMA_PORT : NFS_PORT;
        *ret = st.r;
        return 0;
}

bool sec_is_krb5(const char *sec)
{
        /* sec= may list flavours separated by ':' (sec=krb5p:sys): any krb5 counts. */
        if (!sec)
                return false;
        for (const char *p = sec; p; p = strchr(p, ':')) {
                if (*p == ':')
                        p++;
                if (strncasecmp(p, "krb5", 4) == 0)
                        return true;
        }
        return false;
}
