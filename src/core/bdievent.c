/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/bdievent.h"

#include <errno.h>
#include <stdio.h>

#include "core/merge.h"
#include "core/plan.h"
#include "core/spec.h"
#include "shared/macro.h"

/* The record's setting as a command line, so that it beats every section as -o does. */
static int record_cmdline(const struct mount_record *r, struct optlist *ret)
{
        char ra[READ_AHEAD_STRLEN], bw[24];
        int rc;

        if (!r)
                return 0;
        rc = optlist_add(ret, "read_ahead_kb", read_ahead_to_string(&r->read_ahead, ra));
        if (rc < 0 || r->read_ahead.kind != READ_AHEAD_AUTO || !r->read_ahead.bw)
                return rc;
        snprintf(bw, sizeof(bw), "%lu", r->read_ahead.bw);
        return optlist_add(ret, "read_ahead_bandwidth", bw);
}

int bdi_event_decide(const struct config *c, const struct bdi_event *ev, struct bdi_decision *ret)
{
        const struct mount_record *rec = mount_record_matches(ev->record, ev->mount, ev->when)
                                                 ? ev->record
                                                 : NULL;
        const struct nfs_mount *m = ev->mount;
        struct nfs_spec spec = { 0 };
        struct optlist cmd = { 0 };
        struct merged merged = { 0 };
        struct settings set;
        int r;

        /* a source that is not host:/path leaves only the address to match */
        if (m && nfs_spec_parse(m->source, &spec) == -ENOMEM)
                return -ENOMEM;
        struct match_input in = {
                .host = spec.host,
                .addrs = m ? &m->addr : ev->volume_addr,
                .naddrs = m || ev->volume_addr ? 1 : 0,
                .dir = m ? m->target : NULL,
        };
        if ((r = record_cmdline(rec, &cmd)) < 0 ||
            (r = config_merge(c, &cmd, &in, false, &merged)) < 0)
                goto out;
        struct bdi_decision d = { .from_record = rec != NULL };
        /* the config's values are checked when parsed, the record's here: a bad one is unset */
        if (plan_settings(&merged, &set, NULL) < 0)
                set = (struct settings){ .read_ahead = { READ_AHEAD_KEEP, 0 } };
        const struct merged_opt *o = merged_find(&merged, "read_ahead_kb");
        if (o && o->from) {
                d.from = o->from;
                d.line = o->line;
        }
        d.setting = set.read_ahead;
        if (set.read_ahead.kind == READ_AHEAD_AUTO) {
                /* the mount path's: what it measured, or none (it wrote MAX) */
                d.rtt_from_record = rec != NULL;
                d.rtt_us = rec ? rec->rtt_us : ev->rtt_us;
        }
        /* the event is for a new bdi: no earlier superblock shares it */
        d.plan = read_ahead_plan(&set.read_ahead, ev->dev, m ? m->rsize : 0, m ? m->nconnect : 1,
                                 d.rtt_us, NULL, 0);
        d.nconnect_differs = rec && rec->bg && rec->nconnect && m->nconnect != rec->nconnect;
        /* a bg mount's verification is this one: the mount path had gone when it landed */
        d.tls_lacking = rec && rec->bg && m &&
                        tls_level_of(m->xprtsec) < tls_level_of(rec->xprtsec);
        *ret = d;
out:
        merged_done(&merged);
        optlist_done(&cmd);
        nfs_spec_done(&spec);
        return r;
}
