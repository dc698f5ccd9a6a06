/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/statusprom.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "shared/hash.h"
#include "shared/macro.h"

/* A label value: backslash, double quote and newline escaped. */
static void label(FILE *out, const char *name, const char *value, bool first)
{
        fprintf(out, "%s%s=\"", first ? "" : ",", name);
        for (const char *p = value ? value : ""; *p; p++) {
                if (*p == '\\' || *p == '"')
                        fputc('\\', out);
                if (*p == '\n')
                        fputs("\\n", out);
                else
                        fputc(*p, out);
        }
        fputc('"', out);
}

static void header(FILE *out, const char *name, const char *help)
{
        fprintf(out, "# HELP " PROM_PREFIX "%s %s\n# TYPE " PROM_PREFIX "%s gauge\n", name, help,
                name);
}

/* Marks the rows whose mount point a later row has (mounted over): one series per target. */
static int top_mounts(const struct status_report *rep, bool *ret_hidden)
{
        struct hindex idx = { 0 };
        int r = 0;

        for (size_t i = rep->nmounts; i-- > 0 && r == 0;) {
                const char *t = rep->mounts[i].m->target;
                uint64_t h = hash_bytes(HASH_INIT, t, strlen(t));
                size_t pos = 0, id;
                while (hindex_next(&idx, h, &pos, &id))
                        if (streq(rep->mounts[id].m->target, t))
                                ret_hidden[i] = true;
                if (!ret_hidden[i])
                        r = hindex_add(&idx, h, i);
        }
        hindex_done(&idx);
        return r;
}

static const char *const record_names[] = { "none", "current", "stale" };

static void mount_info(FILE *out, const struct status_mount *row)
{
        char abuf[NFS_ADDR_STRLEN], vbuf[32], port[16];

        snprintf(port, sizeof(port), "%u", row->m->port);
        fputs(PROM_PREFIX "mount_info{", out);
        label(out, "target", row->m->target, true);
        label(out, "source", row->m->source, false);
        label(out, "server", nfs_addr_to_string(&row->m->addr, abuf), false);
        label(out, "port", port, false);
        label(out, "proto", row->m->transport, false);
        label(out, "vers", nfs_version_to_string(row->m->vers, vbuf, sizeof(vbuf)), false);
        label(out, "sec", row->m->sec, false);
        label(out, "set_by", row->set_by->target, false);
        label(out, "record", record_names[row->record], false);
        fputs("} 1\n", out);
}

/* One gauge per mount: `value` < 0 leaves the mount out (not known). */
static void per_mount(FILE *out, const struct status_report *rep, const bool *hidden,
                      const char *name, const char *help,
                      long long (*value)(const struct status_mount *))
{
        header(out, name, help);
        for (size_t i = 0; i < rep->nmounts; i++) {
                long long v = value(&rep->mounts[i]);
                if (hidden[i] || v < 0)
                        continue;
                fprintf(out, PROM_PREFIX "%s{", name);
                label(out, "target", rep->mounts[i].m->target, true);
                fprintf(out, "} %lld\n", v);
        }
}

static long long v_req(const struct status_mount *r)
{
        return r->req ? (long long)r->req : -1;
}
static long long v_nconnect(const struct status_mount *r)
{
        return r->m->nconnect;
}
static long long v_xprts(const struct status_mount *r)
{
        return r->xprts;
}
static long long v_ra(const struct status_mount *r)
{
        return r->ra_now < 0 ? -1 : (long long)r->ra_now * 1024;
}
static long long v_ra_want(const struct status_mount *r)
{
        return r->ra_want ? (long long)r->ra_want * 1024 : -1;
}

static void findings(FILE *out, const struct status_report *rep)
{
        header(out, "findings", "Findings of nfs-tuned status, by code and mount point or fstab "
                                "entry (an empty target: the host).");
        for (size_t i = 0; i < rep->nfindings; i++) {
                const struct status_finding *f = &rep->findings[i];
                size_t count = 0, j;
                for (j = 0; j < rep->nfindings; j++) {
                        const struct status_finding *g = &rep->findings[j];
                        if (streq(g->code, f->code) && streq_ptr(g->target, f->target)) {
                                if (j < i)
                                        break;
                                count++;
                        }
                }
                if (j < rep->nfindings)
                        continue; /* counted with an earlier one */
                fputs(PROM_PREFIX "findings{", out);
                label(out, "code", f->code, true);
                label(out, "target", f->target, false);
                fprintf(out, "} %zu\n", count);
        }
}

static void hidden_clients(FILE *out, const struct clients *c)
{
        char abuf[NFS_ADDR_STRLEN], vbuf[32], port[16];

        header(out, "hidden_client_transports",
               "Connections of an NFS client that no mount of this mount namespace shows "
               "(/proc/fs/nfsfs), when the sunrpc switches tell.");
        for (size_t k = 0; k < c->n; k++) {
                const struct nfs_client *cl = &c->v[k];
                if (!cl->hidden || !cl->nconnect)
                        continue;
                snprintf(port, sizeof(port), "%u", cl->key.port);
                fputs(PROM_PREFIX "hidden_client_transports{", out);
                label(out, "server", nfs_addr_to_string(&cl->key.addr, abuf), true);
                label(out, "port", port, false);
                label(out, "proto", cl->key.transport, false);
                label(out, "vers", nfs_version_to_string(cl->key.vers, vbuf, sizeof(vbuf)), false);
                fprintf(out, "} %u\n", cl->nconnect);
        }
}

static size_t count_hidden(const struct clients *c)
{
        size_t n = 0;
        for (size_t k = 0; k < c->n; k++)
                n += c->v[k].hidden;
        return n;
}

static void build_info(FILE *out, const char *version, bool success)
{
        header(out, "build_info", "The nfs-tuned that wrote this file (value 1).");
        fputs(PROM_PREFIX "build_info{", out);
        label(out, "version", version, true);
        fputs("} 1\n", out);
        header(out, "status_success", "1 when nfs-tuned status could read the mount table and "
                                      "decide; 0: this file holds nothing else.");
        fprintf(out, PROM_PREFIX "status_success %d\n", success);
}

int status_prometheus_failed(FILE *out, const char *version)
{
        build_info(out, version, false);
        return ferror(out) ? -EIO : 0;
}

int status_prometheus(FILE *out, const struct status_report *rep, const struct clients *c,
                      const char *version)
{
        bool *hidden = calloc(rep->nmounts + 1, sizeof(*hidden));

        if (!hidden || top_mounts(rep, hidden) < 0) {
                free(hidden);
                return -ENOMEM;
        }
        build_info(out, version, true);
        header(out, "mount_info", "An NFS mount: its server, version, security flavour, and the "
                                  "mount that set up its NFS client (value 1).");
        for (size_t i = 0; i < rep->nmounts; i++)
                if (!hidden[i])
                        mount_info(out, &rep->mounts[i]);
        per_mount(out, rep, hidden, "mount_nconnect_requested",
                  "The nconnect the mount asked for (the helper's record, else fstab).", v_req);
        per_mount(out, rep, hidden, "mount_nconnect",
                  "The nconnect of the mount's NFS client (mountinfo).", v_nconnect);
        per_mount(out, rep, hidden, "mount_transports",
                  "The mount's live RPC transports (xprt lines of mountstats).", v_xprts);
        per_mount(out, rep, hidden, "mount_read_ahead_bytes",
                  "The read-ahead of the mount's bdi now.", v_ra);
        per_mount(out, rep, hidden, "mount_read_ahead_wanted_bytes",
                  "The read-ahead the configuration gives the mount.", v_ra_want);
        header(out, "hidden_clients", "NFS clients of this network namespace that no mount of "
                                      "this mount namespace shows.");
        fprintf(out, PROM_PREFIX "hidden_clients %zu\n", count_hidden(c));
        hidden_clients(out, c);
        findings(out, rep);
        free(hidden);
        return ferror(out) ? -EIO : 0;
}
