/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What -v prints of a mount's plan: the front only; every fact comes from the context. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/mount.h"
#include "core/verdict.h"
#include "shared/log.h"
#include "sys/creds.h"

static void report_endpoint(const struct mount_ctx *m)
{
        char all[RESOLVE_MAX * (NFS_ADDR_STRLEN + 2)] = "", abuf[NFS_ADDR_STRLEN], vbuf[32];
        const struct nfs_request *req = &m->req;

        for (int i = 0; i < m->naddrs; i++) {
                strcat(all, i ? ", " : "");
                strcat(all, nfs_addr_to_string(&m->addrs[i], abuf));
        }
        log_info("endpoint: %s -> %s (mount.nfs uses %s), port %u, NFS%s%s over %s%s",
                 m->env->cl->spec, m->naddrs ? all : "unresolved",
                 m->primary ? nfs_addr_to_string(m->primary, abuf) : "none", req->port,
                 req->vers.major ? "v" : " version ",
                 nfs_version_to_string(req->vers, vbuf, sizeof(vbuf)), req->transport,
                 streq(req->xprtsec, "none") ? "" : ", xprtsec");
}

/* On a user's setuid run, what comes from a file they cannot read stays unsaid. */
static void report_config(const struct merged *merged)
{
        size_t hidden = 0;

        for (size_t i = 0; i < merged->napplied; i++) {
                const struct conf_section *s = merged->applied[i];
                if (!paths_caller_may_read(s->file)) {
                        hidden++;
                        continue;
                }
                log_info("config: %s:%u [%s%s%s%s] applies", s->file, s->line,
                         section_kind_to_string(s->kind), s->pattern ? " \"" : "",
                         s->pattern ? s->pattern : "", s->pattern ? "\"" : "");
        }
        for (size_t i = 0; i < merged->n; i++) {
                const struct merged_opt *o = &merged->v[i];
                if (o->from && paths_caller_may_read(o->from->file))
                        log_info("config: %s%s%s from %s:%u", o->opt.name, o->opt.value ? "=" : "",
                                 o->opt.value ? o->opt.value : "", o->from->file, o->line);
        }
        /* not how many: the kernel shows the mount's options, not where they came from */
        if (hidden)
                log_info("config: sections of files you cannot read apply; not shown");
        else
                for (size_t i = 0; i < merged->nnotes; i++)
                        log_info("config: %s", merged->notes[i]);
}

static int report_clients(const struct clients *c, const struct client_match *match)
{
        size_t shown = 0;

        for (size_t i = 0; i < c->n; i++) {
                const struct nfs_client *cl = &c->v[i];
                if (match->rel[i] == CLIENT_OTHER_ADDRESS)
                        continue;
                _cleanup_free_ char *d = verdict_describe_client(cl);
                _cleanup_free_ char *ms = verdict_describe_mounts(cl, c);
                char nc[32] = "nconnect unknown";
                if (!d || !ms)
                        return -ENOMEM;
                if (!cl->hidden)
                        snprintf(nc, sizeof(nc), "nconnect=%u", cl->nconnect);
                else if (cl->nconnect)
                        snprintf(nc, sizeof(nc), "%u connections (sunrpc)", cl->nconnect);
                /* how it relates to this mount, as the core classified it */
                bool lands = match->rel[i] == CLIENT_SHARES || match->rel[i] == CLIENT_FOLDED;
                log_info(lands ? "client: %s: %s, %s <- %s" : "client: %s: %s, %s (%s)", d, nc, ms,
                         client_relation_to_string(match->rel[i]));
                shown++;
        }
        if (!shown)
                log_info("client: none to this address: the mount creates a new client");
        return 0;
}

int report_plan(const struct mount_ctx *m)
{
        report_endpoint(m);
        report_config(&m->merged);
        return m->primary ? report_clients(&m->clients, &m->match) : 0;
}

/* A user's setuid run where a file they cannot read shapes the plan: a section of it applies,
 * or its [global] names the program. */
static bool plan_hidden(const struct mount_ctx *m)
{
        if (!creds_untrusted_caller())
                return false;
        for (size_t i = 0; i < m->merged.napplied; i++)
                if (!paths_caller_may_read(m->merged.applied[i]->file))
                        return true;
        for (size_t i = 0; i < m->conf.n; i++) {
                const struct conf_section *s = &m->conf.v[i];
                if (s->kind == SECTION_GLOBAL && optlist_find(&s->opts, "mount_nfs") &&
                    !paths_caller_may_read(s->file))
                        return true;
        }
        return false;
}

void report_verdict(const struct mount_ctx *m)
{
        const struct verdict *v = &m->verdict;
        char eff[16] = "unknown";

        if (v->sharing == SHARE_MAYBE)
                log_info("verdict: the NFS version is left to negotiation, so the client cannot "
                         "be known before the mount; it is checked after (pin vers= to decide "
                         "before)");
        if (v->effective)
                snprintf(eff, sizeof(eff), "%u", v->effective);
        if (plan_hidden(m)) {
                log_info("verdict: %s; connections: %s; the policies of files you cannot read "
                         "are not shown",
                         sharing_to_string(v->sharing), eff);
                return;
        }
        log_info("verdict: %s; nconnect: %s; krb5: %s; connections: %s; tls: %s (asks %s, gets %s)",
                 sharing_to_string(v->sharing), action_to_string(v->nconnect),
                 action_to_string(v->krb5), eff, action_to_string(v->tls),
                 tls_level_to_string(v->tls_want), tls_level_to_string(verdict_tls_gets(v)));
}

int report_exec(const struct mount_ctx *m)
{
        const struct settings *set = &m->set;
        char **argv = m->argv;

        if (plan_hidden(m)) {
                log_info("exec: mount.nfs with settings of files you cannot read; not shown");
                return 0;
        }
        const char *name = program_name(&m->prog);
        size_t len = strlen(name) + 1;
        for (char **a = argv + 1; *a; a++)
                len += strlen(*a) + 1;
        _cleanup_free_ char *line = malloc(len);
        if (!line)
                return -ENOMEM;
        char *q = stpcpy(line, name);
        for (char **a = argv + 1; *a; a++)
                q += sprintf(q, " %s", *a);
        log_info("exec: %s (as %s)", line, argv[0]);
        if (set->read_ahead.kind == READ_AHEAD_KEEP)
                log_info("read-ahead: left alone (read_ahead_kb not set)");
        else if (set->read_ahead.kind == READ_AHEAD_KB)
                log_info("read-ahead: %lu KiB on the new superblock's bdi", set->read_ahead.n);
        else if (set->read_ahead.kind == READ_AHEAD_AUTO)
                log_info("read-ahead: auto on the new superblock's bdi: sized from its round trip "
                         "and %lu MiB/s, %lu to %lu KiB",
                         set->read_ahead.bw, READ_AHEAD_AUTO_MIN, set->read_ahead.n);
        else
                log_info("read-ahead: %lu x the effective rsize on the new superblock's bdi",
                         set->read_ahead.n);
        return 0;
}
