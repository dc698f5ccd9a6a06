/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/statusprom.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared/escape.h"
#include "shared/hash.h"
#include "shared/macro.h"

void prom_label_value(struct strbuf *out, const char *value)
{
        const unsigned char *p = (const unsigned char *)(value ? value : "");

        strbuf_add(out, "\"", 1);
        while (*p) {
                size_t n = escape_keep(p, ESCAPE_UTF8);
                if (n == 0)
                        strbuf_printf(out, "\\\\x%02x", *p++);
                else if (*p == '\\' || *p == '"')
                        strbuf_printf(out, "\\%c", *p++);
                else {
                        strbuf_add(out, (const char *)p, n);
                        p += n;
                }
        }
        strbuf_add(out, "\"", 1);
}

/* name="value": the value escaped (shared/escape.h), so the file stays valid whatever the
 * mount point's bytes. */
static void label(struct strbuf *out, const char *name, const char *value, bool first)
{
        strbuf_printf(out, "%s%s=", first ? "" : ",", name);
        prom_label_value(out, value);
}

static void header_typed(struct strbuf *out, const char *name, const char *type, const char *help)
{
        strbuf_printf(out, "# HELP " PROM_PREFIX "%s %s\n# TYPE " PROM_PREFIX "%s %s\n", name, help,
                      name, type);
}

static void header(struct strbuf *out, const char *name, const char *help)
{
        header_typed(out, name, "gauge", help);
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

/* The labels node_exporter's mountstats collector gives an NFS mount's client:
 * mountaddr (addr=), protocol; and the rest of the kernel's key. */
static void client_labels(struct strbuf *out, const struct client_key *k, bool first)
{
        char abuf[NFS_ADDR_STRLEN], vbuf[32], port[16];

        snprintf(port, sizeof(port), "%u", k->port);
        label(out, "mountaddr", nfs_addr_to_string(&k->addr, abuf), first);
        label(out, "port", port, false);
        label(out, "protocol", k->transport, false);
        label(out, "vers", nfs_version_to_string(k->vers, vbuf, sizeof(vbuf)), false);
}

/*
 * One series per mount point: its facts as labels (value 1). Its figures are gauges of their
 * own (mount_figures), so that a change moves a line on a graph instead of starting a series.
 */
static void mount_info(struct strbuf *out, const struct status_mount *row)
{
        struct client_key k = client_key_of(row->m);

        strbuf_puts(out, PROM_PREFIX "mount_info{");
        label(out, "mountpoint", row->m->target, true);
        label(out, "export", row->m->source, false);
        client_labels(out, &k, false);
        label(out, "sec", row->m->sec, false);
        label(out, "xprtsec", tls_level_to_string(tls_level_of(row->m->xprtsec)), false);
        label(out, "xprtsec_requested", row->tls_req ? row->tls_req : "", false);
        label(out, "set_by", row->set_by->target, false);
        label(out, "record", record_names[row->record], false);
        strbuf_puts(out, "} 1\n");
}

enum mount_figure { MF_READ_AHEAD, MF_READ_AHEAD_WANTED, MF_NCONNECT_REQUESTED };

/* A mount's figure; < 0: not known (no bdi read), or none asked (no read-ahead planned, no
 * nconnect= given): then no series, rather than a 0 that reads as a value. */
static long long mount_figure(const struct status_mount *row, enum mount_figure fig)
{
        switch (fig) {
        case MF_READ_AHEAD: return row->ra_now >= 0 ? (long long)row->ra_now * 1024 : -1;
        case MF_READ_AHEAD_WANTED: return row->ra_want ? (long long)row->ra_want * 1024 : -1;
        case MF_NCONNECT_REQUESTED: return row->req ? (long long)row->req : -1;
        }
        return -1;
}

/* One gauge per top mount point for each figure, labelled by its mount point alone (the
 * mount_info series of the same mountpoint holds the rest). */
static void mount_figures(struct strbuf *out, const struct status_report *rep, const bool *hidden)
{
        static const struct {
                const char *name, *help;
        } figs[] = {
                [MF_READ_AHEAD] = { "mount_read_ahead_bytes",
                                    "The read-ahead of an NFS mount's bdi now (read_ahead_kb, in "
                                    "bytes)." },
                [MF_READ_AHEAD_WANTED] = { "mount_read_ahead_wanted_bytes",
                                           "The read-ahead the configuration wants for an NFS "
                                           "mount (none: no series), in bytes." },
                [MF_NCONNECT_REQUESTED] = { "mount_nconnect_requested",
                                            "The nconnect an NFS mount asked for (its options, "
                                            "the configuration; none: no series)." },
        };

        for (size_t f = 0; f < ELEMENTSOF(figs); f++) {
                header(out, figs[f].name, figs[f].help);
                for (size_t i = 0; i < rep->nmounts; i++) {
                        long long v = mount_figure(&rep->mounts[i], (enum mount_figure)f);
                        if (hidden[i] || v < 0)
                                continue;
                        strbuf_printf(out, PROM_PREFIX "%s{", figs[f].name);
                        label(out, "mountpoint", rep->mounts[i].m->target, true);
                        strbuf_printf(out, "} %lld\n", v);
                }
        }
}

/* One gauge (or counter) per visible client, from its first mount's row; `value` < 0: none. */
static void per_client(struct strbuf *out, const struct status_report *rep, const char *name,
                       const char *help, long long (*value)(const struct status_mount *))
{
        header(out, name, help);
        for (size_t i = 0; i < rep->nmounts; i++) {
                const struct status_mount *row = &rep->mounts[i];
                long long v = value(row);
                if (row->set_by != row->m || v < 0)
                        continue;
                struct client_key k = client_key_of(row->m);
                strbuf_printf(out, PROM_PREFIX "%s{", name);
                client_labels(out, &k, true);
                strbuf_printf(out, "} %lld\n", v);
        }
}

static long long v_nconnect(const struct status_mount *r)
{
        return r->nconnect_unknown ? -1 : (long long)r->m->nconnect;
}
static long long v_xprts(const struct status_mount *r)
{
        return r->xprts;
}
static long long v_live(const struct status_mount *r)
{
        return r->live;
}

enum xprt_figure { XF_SENDS, XF_RECVS, XF_BACKLOG };

/* Each transport of each visible client: a counter of the kernel's (since it connected). */
static void per_transport(struct strbuf *out, const struct status_report *rep, const char *name,
                          const char *help, enum xprt_figure fig)
{
        header_typed(out, name, "counter", help);
        for (size_t i = 0; i < rep->nmounts; i++) {
                const struct status_mount *row = &rep->mounts[i];
                if (row->set_by != row->m || !row->stats)
                        continue;
                struct client_key k = client_key_of(row->m);
                for (size_t x = 0; x < row->stats->nxprts; x++) {
                        const struct xprt_stats *t = &row->stats->xprts[x];
                        char idx[24];
                        snprintf(idx, sizeof(idx), "%zu", x);
                        strbuf_printf(out, PROM_PREFIX "%s{", name);
                        client_labels(out, &k, true);
                        label(out, "transport", idx, false);
                        strbuf_printf(out, "} %llu\n",
                                      (unsigned long long)(fig == XF_SENDS   ? t->sends
                                                           : fig == XF_RECVS ? t->recvs
                                                                             : t->backlog));
                }
        }
}

static void clients(struct strbuf *out, const struct status_report *rep, bool transports)
{
        per_client(out, rep, "client_nconnect",
                   "The nconnect of an NFS client (mountinfo of its mounts).", v_nconnect);
        per_client(out, rep, "client_transports",
                   "The RPC transports of an NFS client (well-formed xprt lines of mountstats).",
                   v_xprts);
        per_client(out, rep, "client_transports_live",
                   "The transports of an NFS client the sunrpc sysfs does not show offline.",
                   v_live);
        if (!transports)
                return;
        per_transport(out, rep, "client_transport_sends_total",
                      "RPC requests sent over one transport of an NFS client.", XF_SENDS);
        per_transport(out, rep, "client_transport_receives_total",
                      "RPC replies received over one transport of an NFS client.", XF_RECVS);
        per_transport(out, rep, "client_transport_backlog_total",
                      "The backlog queue of one transport, summed at each send.", XF_BACKLOG);
}

static void findings(struct strbuf *out, const struct status_report *rep)
{
        header(out, "findings",
               "Findings of nfs-tuned status, by code and mount point or fstab "
               "entry (an empty mountpoint: the host).");
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
                strbuf_puts(out, PROM_PREFIX "findings{");
                label(out, "code", f->code, true);
                label(out, "mountpoint", f->target, false);
                strbuf_printf(out, "} %zu\n", count);
        }
}

static void hidden_clients(struct strbuf *out, const struct clients *c)
{
        size_t n = 0;

        for (size_t k = 0; k < c->n; k++)
                n += c->v[k].hidden;
        header(out, "hidden_clients",
               "NFS clients of this network namespace that no mount of "
               "this mount namespace shows.");
        strbuf_printf(out, PROM_PREFIX "hidden_clients %zu\n", n);
        header(out, "hidden_client_transports",
               "Connections of an NFS client that no mount of this mount namespace shows "
               "(/proc/fs/nfsfs), when the sunrpc switches tell.");
        for (size_t k = 0; k < c->n; k++) {
                if (!c->v[k].hidden || !c->v[k].nconnect)
                        continue;
                strbuf_puts(out, PROM_PREFIX "hidden_client_transports{");
                client_labels(out, &c->v[k].key, true);
                strbuf_printf(out, "} %u\n", c->v[k].nconnect);
        }
}

/* The version, the verdict and one gauge per input: 0 for each that could not be read whole. */
static void build_info(struct strbuf *out, const struct status_inputs *in, const char *version,
                       bool decided)
{
        header(out, "build_info", "The nfs-tuned that wrote this file (value 1).");
        strbuf_puts(out, PROM_PREFIX "build_info{");
        label(out, "version", version, true);
        strbuf_puts(out, "} 1\n");
        header(out, "status_success",
               "1 when nfs-tuned status read every input and decided; 0 "
               "when something could not be read (exit status 2): see "
               "input_success.");
        strbuf_printf(out, PROM_PREFIX "status_success %d\n", decided && !in->n);
        header(out, "input_success",
               "1 when nfs-tuned status could read and parse this input "
               "whole; 0: what depends on it is missing from this file.");
        for (int i = 0; i < IN__MAX; i++) {
                strbuf_puts(out, PROM_PREFIX "input_success{");
                label(out, "input", status_input_names[i], true);
                strbuf_printf(out, "} %d\n", !in->failed[i] && (decided || i != IN_MOUNTINFO));
        }
}

int status_prometheus_failed(struct strbuf *out, const struct status_inputs *in,
                             const char *version)
{
        build_info(out, in, version, false);
        return out->oom ? -ENOMEM : 0;
}

int status_prometheus(struct strbuf *out, const struct status_report *rep, const struct clients *c,
                      const struct status_inputs *in, const char *version, bool transports)
{
        bool *hidden = calloc(rep->nmounts + 1, sizeof(*hidden));

        if (!hidden || top_mounts(rep, hidden) < 0) {
                free(hidden);
                return -ENOMEM;
        }
        build_info(out, in, version, true);
        header(out, "mount_info",
               "An NFS mount point (the top mount): its export, its NFS "
               "client's key, the mount that set that client up, its TLS and "
               "its record (value 1).");
        for (size_t i = 0; i < rep->nmounts; i++)
                if (!hidden[i])
                        mount_info(out, &rep->mounts[i]);
        mount_figures(out, rep, hidden);
        clients(out, rep, transports);
        hidden_clients(out, c);
        findings(out, rep);
        free(hidden);
        return out->oom ? -ENOMEM : 0;
}
