/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/optmap.h"
#include "core/status.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "core/bdievent.h"
#include "core/merge.h"
#include "core/plan.h"
#include "core/spec.h"
#include "core/verdict.h"
#include "core/xprtsec.h"
#include "shared/array.h"
#include "shared/escape.h"
#include "shared/hash.h"
#include "shared/macro.h"

/* The kernel's read-ahead of a new NFS mount since Linux 5.4, in KiB. */
#define KERNEL_READ_AHEAD_KB 128

const char *const status_input_names[IN__MAX] = {
        [IN_MOUNTINFO] = "mountinfo",
        [IN_MOUNTSTATS] = "mountstats",
        [IN_NFSFS] = "nfsfs",
        [IN_SUNRPC] = "sunrpc",
        [IN_BDI] = "bdi",
        [IN_RECORDS] = "records",
        [IN_FSTAB] = "fstab",
        [IN_CONFIG] = "config",
        [IN_UDEV_RULES] = "udev_rules",
        [IN_NFSMOUNT_CONF] = "nfsmount_conf",
};

void status_inputs_done(struct status_inputs *in)
{
        for (size_t i = 0; i < in->n; i++)
                free(in->v[i].text);
        free(in->v);
        *in = (struct status_inputs){ 0 };
}

int status_inputs_add(struct status_inputs *in, enum status_input which, const char *fmt, ...)
{
        struct status_problem p = { .input = which };
        va_list ap;
        int n;

        in->failed[which] = true;
        if (array_grow(&in->v, in->n) < 0)
                return -ENOMEM;
        va_start(ap, fmt);
        n = vasprintf(&p.text, fmt, ap);
        va_end(ap);
        if (n < 0)
                return -ENOMEM;
        in->v[in->n++] = p;
        return 0;
}

char *status_finding_line(const struct status_finding *f)
{
        _cleanup_free_ char *code = escape_text(f->code, ESCAPE_UTF8),
                            *text = escape_text(f->text, ESCAPE_UTF8);
        char *line = NULL;

        if (!code || !text || asprintf(&line, "%s[%s] %s", severity_prefix(f->sev), code, text) < 0)
                return NULL;
        return line;
}

void status_report_done(struct status_report *r)
{
        for (size_t i = 0; i < r->nfindings; i++) {
                free(r->findings[i].target);
                free(r->findings[i].text);
        }
        free(r->findings);
        free(r->mounts);
        *r = (struct status_report){ 0 };
}

int status_add_finding(struct status_report *r, enum severity sev, const char *code,
                       const char *target, const char *fmt, ...)
{
        struct status_finding f = { .sev = sev, .code = code };
        va_list ap;
        int n;

        if (array_grow(&r->findings, r->nfindings) < 0)
                return -ENOMEM;
        va_start(ap, fmt);
        n = vasprintf(&f.text, fmt, ap);
        va_end(ap);
        if (n < 0)
                return -ENOMEM;
        if (target && !(f.target = strdup(target))) {
                free(f.text);
                return -ENOMEM;
        }
        r->findings[r->nfindings++] = f;
        return 0;
}

bool status_record_current(const struct mount_record *r, const struct nfs_mount *m,
                           const struct mount_when *w)
{
        return mount_record_matches(r, m, w);
}

/* What the config alone gives the mount now: nconnect (0: nothing) and read-ahead. */
struct config_now {
        unsigned nconnect;
        struct read_ahead ra;
};

static int config_now(const struct config *conf, const struct nfs_mount *m, struct config_now *ret)
{
        struct nfs_spec spec = { 0 };
        struct optlist none = { 0 };
        struct merged merged = { 0 };
        struct settings set;
        unsigned long u;
        int r;

        if (nfs_spec_parse(m->source, &spec) == -ENOMEM)
                return -ENOMEM;
        struct match_input in = { spec.host, &m->addr, 1, m->target };
        r = config_merge(conf, &none, &in, m->vers.major == 4, &merged);
        if (r == 0) {
                *ret = (struct config_now){ .ra = { READ_AHEAD_KEEP, 0 } };
                if (plan_settings(&merged, &set, NULL) == 0)
                        ret->ra = set.read_ahead;
                const struct merged_opt *o;
                /* the config alone: what it sets, read by the nconnect row's rule */
                if (merged_origin(&merged, "nconnect", &o) == ORIGIN_CONFIG &&
                    opt_number("nconnect", o->opt.value, &u) == 0)
                        ret->nconnect = (unsigned)u;
        }
        merged_done(&merged);
        nfs_spec_done(&spec);
        return r;
}

/* What was asked: the helper's record, else the fstab entry's nconnect and xprtsec. */
static void requested(struct status_mount *row, const struct status_facts *f)
{
        struct optlist l = { 0 };
        const struct opt *o;
        unsigned long u;

        if (row->record == RECORD_CURRENT) {
                row->req = f->record->nconnect_requested;
                row->req_from = row->req ? REQ_RECORD : REQ_NONE;
                /* a record of an older helper says nothing of TLS: fstab's counts then */
                row->tls_req = xprtsec_word(f->record->xprtsec);
                row->tls_from = REQ_RECORD;
                if (row->tls_req)
                        return;
        }
        if (!f->fstab_options || optlist_parse(&l, f->fstab_options) < 0)
                goto out;
        o = optlist_find(&l, "xprtsec");
        row->tls_req = o ? xprtsec_word(o->value) : "none";
        row->tls_from = REQ_FSTAB;
        if (row->record == RECORD_CURRENT)
                goto out;
        if ((o = optlist_find(&l, "nconnect")) && o->value &&
            parse_kernel_uint(o->value, NCONNECT_MAX, &u) == 0 && u > 0) {
                row->req = (unsigned)u;
                row->req_from = REQ_FSTAB;
        }
out:
        optlist_done(&l);
}

static const char *req_source_words(enum req_source s)
{
        return s == REQ_RECORD ? "as the helper recorded when it mounted it" : "in fstab";
}

static int finding_nconnect(struct status_report *rep, const struct status_mount *row)
{
        const struct nfs_mount *m = row->m;
        char abuf[NFS_ADDR_STRLEN], vbuf[32];

        if (!row->req || row->req == m->nconnect || row->nconnect_unknown)
                return 0;
        nfs_addr_to_string(&m->addr, abuf);
        nfs_version_to_string(m->vers, vbuf, sizeof(vbuf));
        if (row->set_by != m)
                return status_add_finding(
                        rep, SEV_WARNING, F_NCONNECT_INHERITED, m->target,
                        "%s asked for nconnect=%u (%s) but has %u: it shares the NFS client of %s "
                        "(NFSv%s) that %s set up first; unmount every mount of that client and "
                        "mount it again to change it",
                        m->target, row->req, req_source_words(row->req_from), m->nconnect, abuf,
                        vbuf, row->set_by->target);
        return status_add_finding(
                rep, SEV_WARNING, F_NCONNECT_DIFFERS, m->target,
                "%s asked for nconnect=%u (%s) but has %u: its NFS client of %s (NFSv%s) was set up "
                "before it, by a mount since unmounted or one of another mount namespace; unmount "
                "every mount of that client and mount it again to change it",
                m->target, row->req, req_source_words(row->req_from), m->nconnect, abuf, vbuf);
}

/* It asked for TLS its client does not give (NFSv4 folded it into a client of a weaker policy,
 * or a kernel that ignored xprtsec=). */
static int finding_tls(struct status_report *rep, const struct status_mount *row)
{
        const struct nfs_mount *m = row->m;
        enum tls_level want = row->tls_req ? tls_level_of(row->tls_req) : TLS_NONE;
        enum tls_level has = tls_level_of(m->xprtsec);
        char abuf[NFS_ADDR_STRLEN], vbuf[32];

        if (want <= has)
                return 0;
        return status_add_finding(
                rep, SEV_WARNING, F_TLS_NOT_APPLIED, m->target,
                "%s asked for xprtsec=%s (%s) but its NFS client of %s (NFSv%s), set up by %s, has "
                "%s%s; lacking: %s; NFSv4 folds a TLS mount into an existing client of the same "
                "server whatever its TLS policy; unmount every mount of that server, then mount the "
                "TLS ones first, or use vers=3 or another server address",
                m->target, row->tls_req, req_source_words(row->tls_from),
                nfs_addr_to_string(&m->addr, abuf),
                nfs_version_to_string(m->vers, vbuf, sizeof(vbuf)), row->set_by->target,
                has == TLS_NONE ? "no TLS" : "xprtsec=", has == TLS_NONE ? "" : m->xprtsec,
                verdict_tls_lacking(want, has));
}

static int finding_krb5(struct status_report *rep, const struct status_mount *row)
{
        const struct nfs_mount *m = row->m;
        unsigned conns = row->nconnect_unknown ? 1 : m->nconnect;

        if (row->xprts > 0 && (unsigned)row->xprts > conns)
                conns = (unsigned)row->xprts;
        if (!sec_is_krb5(m->sec) || conns <= 1)
                return 0;
        return status_add_finding(
                rep, SEV_WARNING, F_KRB5_MULTI, m->target,
                "%s uses sec=%s over %u connections (its NFS client was set up by %s with "
                "nconnect=%u): all of them share one GSS context and its sequence window, so requests "
                "fall out of the window and are retransmitted; give krb5 mounts an NFS client of "
                "their own (another server address or NFS version) with nconnect=1",
                m->target, m->sec, conns, row->set_by->target, row->set_by->nconnect);
}

static int finding_read_ahead(struct status_report *rep, const struct status_mount *row,
                              unsigned long page_kb)
{
        const struct nfs_mount *m = row->m;
        unsigned maj = major(m->dev), min = minor(m->dev);

        if (row->ra_shared || !row->ra_want || row->ra_now < 0 ||
            read_ahead_readback_ok(row->ra_want, (unsigned long)row->ra_now, page_kb))
                return 0;
        /* auto without the mount path's record: the rule sized it from the round trip of its
         * time, which today's need not repeat; only the kernel's own value says it never ran */
        if (row->ra_auto_now && row->ra_now != KERNEL_READ_AHEAD_KB)
                return 0;
        /* a current record that says keep gives no want: not here */
        if (row->record == RECORD_CURRENT)
                return status_add_finding(
                        rep, SEV_WARNING, F_RA_OVERWRITTEN, m->target,
                        "%s: read_ahead_kb of bdi %u:%u is %ld, not the %lu the helper set when it "
                        "mounted it: something wrote it since (by hand, a tuning tool or a udev rule "
                        "that sorts after nfs-tuned's); write %lu back, or remount",
                        m->target, maj, min, row->ra_now, row->ra_want, row->ra_want);
        return status_add_finding(
                rep, SEV_WARNING, F_RA_LOST, m->target,
                "%s: read_ahead_kb of bdi %u:%u is %ld%s, the config asks %lu: it was mounted "
                "without the helper and nfs-tuned's udev rule did not set it; run `udevadm trigger "
                "--action=add /sys/class/bdi/%u:%u` or remount",
                m->target, maj, min, row->ra_now,
                row->ra_now == KERNEL_READ_AHEAD_KB ? " (the kernel's default)" : "", row->ra_want,
                maj, min);
}

/* "15x", or "auto with read_ahead_bandwidth = 100" */
static const char *read_ahead_words(const struct read_ahead *ra, char *buf, size_t size)
{
        char s[READ_AHEAD_STRLEN];

        if (ra->kind == READ_AHEAD_AUTO)
                snprintf(buf, size, "%s with read_ahead_bandwidth = %lu",
                         read_ahead_to_string(ra, s), ra->bw);
        else
                snprintf(buf, size, "%s", read_ahead_to_string(ra, s));
        return buf;
}

static bool read_ahead_equal(const struct read_ahead *a, const struct read_ahead *b)
{
        return a->kind == b->kind && (a->kind == READ_AHEAD_KEEP || a->n == b->n) &&
               (a->kind != READ_AHEAD_AUTO || a->bw == b->bw);
}

/* A setting the config decided (or left unset) at mount time: the config may have moved on. */
static bool from_config(enum setting_origin o)
{
        return o == ORIGIN_CONFIG || o == ORIGIN_NONE;
}

/* The config changed since the mount, or the mount never got what the config says. */
static int finding_config(struct status_report *rep, const struct status_mount *row,
                          const struct mount_record *rec, const struct config_now *now)
{
        const struct nfs_mount *m = row->m;
        char was[READ_AHEAD_STRLEN + 48], is[READ_AHEAD_STRLEN + 48];
        int r = 0;

        if (row->record == RECORD_CURRENT) {
                if (from_config(rec->nconnect_from) && now->nconnect != rec->nconnect_requested)
                        r = status_add_finding(
                                rep, SEV_WARNING, F_CONFIG_MISMATCH, m->target,
                                "%s was mounted when the config gave it nconnect=%u, and it now "
                                "gives %u: unmount every mount of its NFS client and mount them again "
                                "to apply it",
                                m->target, rec->nconnect_requested ? rec->nconnect_requested : 1,
                                now->nconnect ? now->nconnect : 1);
                if (r == 0 && from_config(rec->read_ahead_from) &&
                    !read_ahead_equal(&rec->read_ahead, &now->ra))
                        r = status_add_finding(
                                rep, SEV_WARNING, F_CONFIG_MISMATCH, m->target,
                                "%s was mounted when the config gave it read_ahead_kb = %s, and it "
                                "now says %s: a new mount gets the new value; remount to apply it",
                                m->target, read_ahead_words(&rec->read_ahead, was, sizeof(was)),
                                read_ahead_words(&now->ra, is, sizeof(is)));
                return r;
        }
        /* no record: the mount that set up the client, with nothing asked explicitly */
        if (row->req_from == REQ_NONE && row->set_by == m && now->nconnect &&
            now->nconnect != m->nconnect)
                r = status_add_finding(
                        rep, SEV_WARNING, F_CONFIG_MISMATCH, m->target,
                        "the config gives %s nconnect=%u but it has %u: it was mounted without the "
                        "helper, or before the config said so; unmount every mount of its NFS client "
                        "and mount them again to apply it",
                        m->target, now->nconnect, m->nconnect);
        return r;
}

/* The read-ahead the mount should have: as the udev rule decides it now (bdi_event_decide),
 * auto's from the round trip of the helper's record, else the one mountstats shows now. */
static int read_ahead_want(const struct config *conf, struct status_mount *row,
                           const struct mount_record *rec)
{
        struct bdi_decision d;
        const struct mountstats_entry *st = row->stats;
        struct bdi_event ev = {
                .dev = row->m->dev,
                .mount = row->m,
                .record = rec,
                .rtt_us = st ? read_ahead_rtt_us(st->rtt.ops, st->rtt.rtt_ms, st->rtt.kinds) : 0,
        };
        int r = bdi_event_decide(conf, &ev, &d);

        if (r < 0)
                return r;
        row->ra_want = d.plan.step == READ_AHEAD_WRITE ? d.plan.kb : 0;
        row->ra_auto = row->ra_want && d.setting.kind == READ_AHEAD_AUTO;
        row->ra_auto_now = row->ra_auto && !d.rtt_from_record;
        row->ra_rtt_us = row->ra_auto ? d.rtt_us : 0;
        return 0;
}

static const char *offline_words(int offline)
{
        static const char *const w[] = { "none", "1", "2", "3", "4", "5", "6", "7", "8" };
        return offline < 0 ? "nothing" : offline < (int)ELEMENTSOF(w) ? w[offline] : "more";
}

/* A client's transports: fewer live than its nconnect. */
static int finding_transports_down(struct status_report *rep, const struct status_mount *row)
{
        const struct nfs_mount *m = row->m;
        char abuf[NFS_ADDR_STRLEN], vbuf[32];

        /* the sunrpc sysfs not telling, the xprt: lines are what is known */
        int live = row->live >= 0 ? row->live : row->xprts;

        if (row->nconnect_unknown || live < 0 || (unsigned)live >= m->nconnect)
                return 0;
        return status_add_finding(
                rep, SEV_WARNING, F_TRANSPORTS_DOWN, m->target,
                "the NFS client of %s (%s, NFSv%s) that %s set up has %d live transport%s of the "
                "nconnect=%u it was made with (mountstats lists %d, the sunrpc sysfs shows %s "
                "offline): its load runs over fewer connections; bring them back online (rpcctl "
                "xprt set online) or unmount every mount of that client and mount it again",
                nfs_addr_to_string(&m->addr, abuf), m->transport,
                nfs_version_to_string(m->vers, vbuf, sizeof(vbuf)), m->target, live,
                live == 1 ? "" : "s", m->nconnect, row->xprts, offline_words(row->offline));
}

/* A client whose sends nearly all went over one of several transports. */
static int finding_imbalance(struct status_report *rep, const struct status_mount *row)
{
        const struct mountstats_entry *e = row->stats;
        uint64_t total = 0, most = 0;
        size_t busiest = 0;

        if (!e || e->nxprts < 2)
                return 0;
        for (size_t i = 0; i < e->nxprts; i++) {
                total += e->xprts[i].sends;
                if (e->xprts[i].sends > most) {
                        most = e->xprts[i].sends;
                        busiest = i;
                }
        }
        if (total < LOAD_MIN_SENDS || most * 100 < total * LOAD_IMBALANCE_PERCENT)
                return 0;
        return status_add_finding(
                rep, SEV_WARNING, F_TRANSPORT_IMBALANCE, row->m->target,
                "the NFS client that %s set up sent %llu of its %llu RPC requests (%llu%%) over "
                "transport %zu of %zu: its other connections carry almost nothing (not connected, "
                "offline, or a server that does not spread them); see XPRT-SENDS",
                row->m->target, (unsigned long long)most, (unsigned long long)total,
                (unsigned long long)(most * 100 / total), busiest, e->nxprts);
}

static int analyse_one(struct status_report *rep, struct status_mount *row,
                       const struct status_facts *f, const struct config *conf,
                       unsigned long page_kb)
{
        const struct mount_record *rec = f->record;
        struct config_now now;
        int r;

        row->record = !rec                                           ? RECORD_NONE
                      : status_record_current(rec, row->m, &f->when) ? RECORD_CURRENT
                                                                     : RECORD_STALE;
        if (row->record != RECORD_CURRENT)
                rec = NULL;
        requested(row, f);
        row->nconnect_unknown = row->m->unreadable && streq(row->m->unreadable, "nconnect");
        row->stats = f->stats;
        row->xprts = f->stats ? (int)f->stats->nxprts : -1;
        row->live = f->live;
        row->offline = f->offline;
        row->ra_now = f->ra_now;
        if ((r = config_now(conf, row->m, &now)) < 0 ||
            /* a config file that could not be read: what it gives is not known */
            (!conf->nunread && (r = read_ahead_want(conf, row, rec)) < 0))
                return r;
        row->nconnect_config = now.nconnect;
        size_t before = row->first_finding = rep->nfindings;
        bool first = row->set_by == row->m; /* the client's findings once, on its first mount */
        if ((r = finding_tls(rep, row)) < 0 || (r = finding_nconnect(rep, row)) < 0 ||
            (r = finding_krb5(rep, row)) < 0 || (r = finding_read_ahead(rep, row, page_kb)) < 0 ||
            (!conf->nunread && (r = finding_config(rep, row, rec, &now)) < 0) ||
            (first && (r = finding_transports_down(rep, row)) < 0) ||
            (first && (r = finding_imbalance(rep, row)) < 0))
                return r;
        row->nfindings = rep->nfindings - before;
        return 0;
}

/* Marks the mounts whose superblock an earlier mount of the table has: they share its bdi. */
static int mark_shared_superblocks(struct status_report *rep)
{
        struct hindex seen = { 0 };
        int r = 0;

        for (size_t i = 0; i < rep->nmounts && r == 0; i++) {
                dev_t dev = rep->mounts[i].m->dev;
                uint64_t h = hash_bytes(HASH_INIT, &dev, sizeof(dev));
                size_t pos = 0, id;
                while (hindex_next(&seen, h, &pos, &id))
                        if (rep->mounts[id].m->dev == dev)
                                rep->mounts[i].ra_shared = true;
                if (!rep->mounts[i].ra_shared)
                        r = hindex_add(&seen, h, i);
        }
        hindex_done(&seen);
        return r;
}

int status_analyse_mounts(const struct clients *c, const struct status_facts *facts,
                          const struct config *conf, unsigned long page_kb,
                          struct status_report *ret)
{
        struct status_report rep = { 0 };
        int r = -ENOMEM;

        if (c->nmounts && !(rep.mounts = calloc(c->nmounts, sizeof(*rep.mounts))))
                goto fail;
        rep.nmounts = c->nmounts;
        for (size_t i = 0; i < c->nmounts; i++)
                rep.mounts[i].m = &c->mounts[i];
        for (size_t k = 0; k < c->n; k++)
                for (size_t j = 0; j < c->v[k].nmounts; j++) {
                        struct status_mount *row = &rep.mounts[c->v[k].mounts[j]];
                        row->client = &c->v[k];
                        row->set_by = &c->mounts[c->v[k].mounts[0]];
                }
        if ((r = mark_shared_superblocks(&rep)) < 0)
                goto fail;
        for (size_t i = 0; i < rep.nmounts; i++) {
                struct status_mount *row = &rep.mounts[i];
                if (!row->set_by)
                        row->set_by = row->m;
                if ((r = analyse_one(&rep, row, &facts[i], conf, page_kb)) < 0)
                        goto fail;
        }
        *ret = rep;
        return 0;
fail:
        status_report_done(&rep);
        return r;
}
