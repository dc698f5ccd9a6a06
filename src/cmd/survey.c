/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cmd/survey.h"

#include <errno.h>
#include <stdlib.h>

#include "shared/macro.h"
#include "sys/sunrpc.h"

/* The connections of hidden clients, from /sys/kernel/sunrpc where the kernel has it. */
static int count_hidden(const struct paths *p, struct clients *c)
{
        _cleanup_free_ struct rpc_switch *sw = NULL;
        size_t n = 0;
        bool any = false;

        for (size_t i = 0; i < c->n && !any; i++)
                any = c->v[i].hidden;
        if (!any)
                return 0;
        if (load_rpc_switches(p, &sw, &n) == -ENOMEM)
                return -ENOMEM;
        clients_hidden_nconnect(c, sw, n);
        return 0;
}

int survey_clients(const struct paths *p, const struct scan_filter *f, struct clients *ret,
                   dev_t **ret_sbs, size_t *ret_nsbs, struct nfsfs_status *ret_nfsfs)
{
        struct clients c = { 0 };
        _cleanup_free_ dev_t *sbs = NULL;
        size_t nsbs = 0;
        int r;

        if ((r = scan_nfs_mounts(p, f, &c, ret_sbs ? &sbs : NULL, &nsbs)) < 0 ||
            (r = clients_group(&c)) < 0 || (r = nfsfs_add_servers(p, f, &c, ret_nfsfs)) < 0 ||
            (r = count_hidden(p, &c)) < 0) {
                clients_done(&c);
                return r;
        }
        *ret = c;
        if (ret_sbs) {
                *ret_sbs = steal_pointer(&sbs);
                *ret_nsbs = nsbs;
        }
        return 0;
}
