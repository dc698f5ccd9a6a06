/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the mount's stages (cmd/mount.c) and its claim (cmd/mount-claim.c) and record
 * (cmd/mount-record.c) all do to one mount: open the run directory, scan the clients, decide
 * the verdict.  Here, below all three, so that none calls back into another.
 */
#include "cmd/mount-ctx.h"

#include <errno.h>
#include <string.h>

#include "cmd/survey.h"
#include "core/merge.h"
#include "shared/log.h"
#include "sys/rundir.h"

int mount_rundir(struct mount_ctx *m)
{
        if (!m->rundir_opened) {
                m->rundir = rundir_open(m->env->paths, true);
                m->rundir_opened = true;
        }
        return m->rundir;
}

int mount_scan(struct mount_ctx *m)
{
        struct nfsfs_status nfsfs = { 0 };
        const struct paths *p = m->env->paths;

        clients_done(&m->clients);
        free(m->sbs);
        m->sbs = NULL;
        m->nsbs = 0;
        /* only the clients of the address mount.nfs uses matter (none when unresolved); the
         * superblocks before the mount are all read: after it the new one is among them, and
         * the read-ahead stage tells a new superblock by its absence here */
        struct scan_filter f = { m->addrs, m->primary ? 1 : 0, -1 };
        if (m->primary)
                f.addrs = m->primary;
        int r = survey_clients(p, &f, &m->clients, &m->sbs, &m->nsbs, &nfsfs);
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                log_warning("cannot read the mount table %s: %s; no client check", p->mountinfo,
                            strerror(-r));
        if (nfsfs.error)
                log_warning("cannot read %s/servers: %s; clients of other mount namespaces are "
                            "not seen",
                            p->nfsfs, strerror(-nfsfs.error));
        else if (nfsfs.bad_lines)
                log_warning("%s/servers: %d lines not understood, skipped", p->nfsfs,
                            nfsfs.bad_lines);
        return 0;
}

int mount_decide_verdict(struct mount_ctx *m)
{
        client_match_done(&m->match);
        if (m->primary && clients_classify(&m->clients, &m->req, m->primary, &m->match) < 0)
                return -ENOMEM;
        struct policy_input pin = {
                .req = &m->req,
                .nconnect_from_config = merged_origin(&m->merged, "nconnect", NULL) ==
                                        ORIGIN_CONFIG,
                .match = &m->match,
                .nconnect_policy = m->set.nconnect_policy,
                .krb5_policy = m->set.krb5_policy,
                .tls_policy = m->set.tls_policy,
                .clients = &m->clients,
                .host = m->spec.host,
                .warn_shared_names = m->set.warn_shared_names,
        };
        m->verdict = policy_decide(&pin);
        return 0;
}
