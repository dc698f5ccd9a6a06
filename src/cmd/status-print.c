/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The output of `nfs-tuned status`: findmnt's conventions through libsmartcols (a table cut to
 * the terminal's width, -o columns, +COL, -n, --raw, -P pairs, --json with typed numbers), and
 * the Prometheus textfile.  Standard output holds the table, the pairs or the JSON and nothing
 * else; the hidden clients, the findings and what could not be read go to standard error,
 * where a person sees them and a pipe does not read them.
 */
#include <errno.h>
#include <libsmartcols.h>
#include <langinfo.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>

#include "cmd/status.h"
#include "config-build.h"
#include "core/statusprom.h"
#include "shared/escape.h"
#include "shared/log.h"
#include "shared/macro.h"
#include "sys/chase.h"
#include "sys/fileio.h"

enum {
        COL_TARGET,
        COL_SOURCE,
        COL_SERVER,
        COL_PORT,
        COL_PROTO,
        COL_VERS,
        COL_SEC,
        COL_TLS,
        COL_TLS_REQ,
        COL_CLIENT,
        COL_SET_BY,
        COL_REQ,
        COL_REQ_FROM,
        COL_NCONNECT,
        COL_XPRTS,
        COL_LIVE,
        COL_XPRT_SENDS,
        COL_XPRT_RECVS,
        COL_XPRT_BACKLOG,
        COL_RA,
        COL_RA_WANT,
        COL_RA_RTT,
        COL_RECORD,
        COL_MAJMIN,
        COL_FINDINGS,
        COL__MAX
};

struct colinfo {
        const char *name;
        double whint;
        int flags;
        int json;
        const char *help;
};

/* Text from outside (a mount point, an export): never cut, as findmnt keeps TARGET and SOURCE
 * whole.  It is what tells two mounts apart, and a cut could land inside an escape (\xNN). */
#define WHOLE SCOLS_FL_NOEXTREMES
/* Ours (codes, figures): cut to the terminal's width unless -u; the findings are said in
 * full on standard error. */
#define LONG (SCOLS_FL_NOEXTREMES | SCOLS_FL_TRUNC)

/* One row per column of the mounts table; -o takes these names (case-insensitive). */
static const struct colinfo cols[COL__MAX] = {
        [COL_TARGET] = { "TARGET", 0.25, WHOLE, SCOLS_JSON_STRING, "mount point" },
        [COL_SOURCE] = { "SOURCE", 0.2, WHOLE, SCOLS_JSON_STRING,
                         "the export, as mounted (server:/path)" },
        [COL_SERVER] = { "SERVER", 0.1, 0, SCOLS_JSON_STRING, "the server address (addr=)" },
        [COL_PORT] = { "PORT", 5, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "the server port" },
        [COL_PROTO] = { "PROTO", 5, 0, SCOLS_JSON_STRING, "transport: tcp, rdma, udp" },
        [COL_VERS] = { "VERS", 4, 0, SCOLS_JSON_STRING, "NFS version" },
        [COL_SEC] = { "SEC", 5, 0, SCOLS_JSON_STRING, "security flavour (sec=)" },
        [COL_TLS] = { "TLS", 4, 0, SCOLS_JSON_STRING,
                      "the TLS policy its NFS client really has: none, tls, mtls (xprtsec= of "
                      "mountinfo)" },
        [COL_TLS_REQ] = { "TLS-REQ", 4, 0, SCOLS_JSON_STRING,
                          "the TLS asked (the helper's record, else fstab; empty: not known)" },
        [COL_CLIENT] = { "CLIENT", 0.1, WHOLE, SCOLS_JSON_STRING,
                         "its NFS client: address:port/transport/version (mounts that share it "
                         "show the same)" },
        [COL_SET_BY] = { "SET-BY", 0.15, WHOLE, SCOLS_JSON_STRING,
                         "the first mount of its NFS client in the table: it set nconnect" },
        [COL_REQ] = { "REQ", 3, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
                      "nconnect asked for (the helper's record, else fstab)" },
        [COL_REQ_FROM] = { "REQ-FROM", 6, 0, SCOLS_JSON_STRING, "where REQ comes from" },
        [COL_NCONNECT] = { "NCONNECT", 3, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
                           "nconnect of its NFS client (mountinfo)" },
        [COL_XPRTS] = { "XPRTS", 3, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
                        "RPC transports of its NFS client (xprt: lines of mountstats)" },
        [COL_LIVE] = { "LIVE", 3, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
                       "of those, the ones not offline (the sunrpc sysfs)" },
        [COL_XPRT_SENDS] = { "XPRT-SENDS", 0.1, LONG, SCOLS_JSON_ARRAY_NUMBER,
                             "RPC requests sent over each transport" },
        [COL_XPRT_RECVS] = { "XPRT-RECVS", 0.1, LONG, SCOLS_JSON_ARRAY_NUMBER,
                             "replies received over each transport" },
        [COL_XPRT_BACKLOG] = { "XPRT-BACKLOG", 0.1, LONG, SCOLS_JSON_ARRAY_NUMBER,
                               "each transport's backlog queue, summed at each send" },
        [COL_RA] = { "RA-KB", 6, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
                     "read_ahead_kb of its bdi now (KiB)" },
        [COL_RA_WANT] = { "RA-WANT-KB", 6, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
                          "read_ahead_kb the configuration gives it (KiB; auto=N: auto's)" },
        [COL_RA_RTT] = { "RA-RTT-MS", 6, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
                         "read_ahead_kb = auto: the round trip its window is sized from (ms)" },
        [COL_RECORD] = { "RECORD", 7, 0, SCOLS_JSON_STRING,
                         "the helper's mount record: current, stale (empty: none)" },
        [COL_MAJMIN] = { "MAJ:MIN", 6, 0, SCOLS_JSON_STRING, "the superblock's device (its bdi)" },
        [COL_FINDINGS] = { "FINDINGS", 0.2, LONG, SCOLS_JSON_ARRAY_STRING,
                           "codes of its findings" },
};

static const int default_cols[] = { COL_TARGET, COL_SOURCE,  COL_VERS,     COL_SEC,
                                    COL_SET_BY, COL_REQ,     COL_NCONNECT, COL_XPRTS,
                                    COL_RA,     COL_RA_WANT, COL_FINDINGS };

void status_print_columns_help(void)
{
        printf("\nColumns (-o, comma-separated; +LIST adds to the default):\n");
        for (size_t i = 0; i < ELEMENTSOF(cols); i++)
                printf(" %12s  %s\n", cols[i].name, cols[i].help);
}

static int column_id(const char *name, size_t len)
{
        for (size_t i = 0; i < ELEMENTSOF(cols); i++)
                if (strlen(cols[i].name) == len && strncasecmp(cols[i].name, name, len) == 0)
                        return (int)i;
        return -1;
}

#define COLS_MAX 64

/* -o LIST (+LIST: after the default) or --output-all into ids; -EINVAL (said) when unknown. */
static int parse_columns(const struct status_opts *o, int *ids, size_t *n)
{
        const char *list = o->columns;

        *n = 0;
        if (o->all_columns) {
                for (int i = 0; i < COL__MAX; i++)
                        ids[(*n)++] = i;
                return 0;
        }
        if (!list || *list == '+') {
                memcpy(ids, default_cols, sizeof(default_cols));
                *n = ELEMENTSOF(default_cols);
        }
        for (const char *p = list ? list + (*list == '+') : ""; *p;) {
                size_t len = strcspn(p, ",");
                int id = column_id(p, len);
                if (id < 0) {
                        log_error("unknown column '%.*s' in -o %s; 'nfs-tuned status -h' lists "
                                  "them",
                                  (int)len, p, list);
                        return -EINVAL;
                }
                if (*n < COLS_MAX)
                        ids[(*n)++] = id;
                p += len + (p[len] == ',');
        }
        return 0;
}

/* --- the view: which mounts and findings the arguments select ------------------------- */

void status_view_done(struct status_view *v)
{
        free(v->mount_shown);
        free(v->finding_shown);
        *v = (struct status_view){ 0 };
}

/* `path` is `dir` or under it. */
static bool path_under(const char *path, const char *dir)
{
        size_t n = strlen(dir);
        return strncmp(path, dir, n) == 0 &&
               (path[n] == '\0' || path[n] == '/' || (n == 1 && dir[0] == '/'));
}

/* -T: the NFS mount with the longest mount point that holds the path (the top one). */
static void select_target(const struct status_report *rep, const char *path, bool *shown)
{
        char real[PATH_MAX];
        size_t best = SIZE_MAX, blen = 0;

        if (realpath(path, real))
                path = real;
        for (size_t i = 0; i < rep->nmounts; i++) {
                const char *t = rep->mounts[i].m->target;
                if (path_under(path, t) && strlen(t) >= blen) {
                        best = i;
                        blen = strlen(t);
                }
        }
        if (best != SIZE_MAX)
                shown[best] = true;
}

static bool mount_selected(const struct status_opts *o, const struct nfs_mount *m, const char *real)
{
        if (o->source && !streq(m->source, o->source))
                return false;
        if (o->mountpoint && !streq(m->target, o->mountpoint) && !streq(m->source, o->mountpoint) &&
            !(real && streq(m->target, real)))
                return false;
        return true;
}

int status_select(const struct status_opts *o, const struct status_report *rep,
                  struct status_view *ret)
{
        struct status_view v = { 0 };
        char real[PATH_MAX];
        const char *r = o->mountpoint && realpath(o->mountpoint, real) ? real : NULL;
        bool any = false;

        if (!o->mountpoint && !o->target && !o->source) {
                *ret = (struct status_view){ .nfindings = rep->nfindings };
                return 0;
        }
        v.mount_shown = calloc(rep->nmounts + 1, sizeof(bool));
        v.finding_shown = calloc(rep->nfindings + 1, sizeof(bool));
        if (!v.mount_shown || !v.finding_shown) {
                status_view_done(&v);
                return -ENOMEM;
        }
        if (o->target)
                select_target(rep, o->target, v.mount_shown);
        for (size_t i = 0; i < rep->nmounts; i++) {
                bool *s = &v.mount_shown[i];
                *s = (o->target ? *s : true) && mount_selected(o, rep->mounts[i].m, r);
                any |= *s;
        }
        for (size_t i = 0; i < rep->nmounts; i++)
                for (size_t k = 0; v.mount_shown[i] && k < rep->nfindings; k++)
                        if (streq_ptr(rep->findings[k].target, rep->mounts[i].m->target) &&
                            !v.finding_shown[k]) {
                                v.finding_shown[k] = true;
                                v.nfindings++;
                        }
        if (!any) {
                log_error("no NFS mount %s%s",
                          o->target   ? "holds "
                          : o->source ? "of "
                                      : "at ",
                          o->target   ? o->target
                          : o->source ? o->source
                                      : o->mountpoint);
                v.nomatch = true;
        }
        *ret = v;
        return any ? 0 : -ENOENT;
}

/* --- cells ------------------------------------------------------------------------------ */

/* The codes of the row's findings, each once, joined by `sep`. */
static void codes_of(const struct status_report *rep, const struct status_mount *r, char *buf,
                     size_t n, const char *sep)
{
        size_t used = 0;

        buf[0] = '\0';
        for (size_t i = r->first_finding; i < r->first_finding + r->nfindings && used < n; i++)
                if (!strstr(buf, rep->findings[i].code))
                        used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? sep : "",
                                                 rep->findings[i].code);
}

/* One figure of each transport, joined by `sep`; "" when not known. */
static void per_xprt(const struct status_mount *r, int id, char *buf, size_t n, const char *sep)
{
        size_t used = 0;

        buf[0] = '\0';
        for (size_t i = 0; r->stats && i < r->stats->nxprts && used < n; i++) {
                const struct xprt_stats *x = &r->stats->xprts[i];
                uint64_t v = id == COL_XPRT_SENDS   ? x->sends
                             : id == COL_XPRT_RECVS ? x->recvs
                                                    : x->backlog;
                used += (size_t)snprintf(buf + used, n - used, "%s%llu", i ? sep : "",
                                         (unsigned long long)v);
        }
}

/* "10.99.0.1:2049/tcp/4.1", "[fd99::1]:2049/tcp/3" */
static void client_key_text(const struct nfs_mount *m, char *buf, size_t n)
{
        char abuf[NFS_ADDR_STRLEN], vbuf[32];
        bool v6 = m->addr.family == AF_INET6;

        snprintf(buf, n, "%s%s%s:%u/%s/%s", v6 ? "[" : "", nfs_addr_to_string(&m->addr, abuf),
                 v6 ? "]" : "", m->port, m->transport,
                 nfs_version_to_string(m->vers, vbuf, sizeof(vbuf)));
}

static const char *const req_names[] = { "", "record", "fstab" };
static const char *const record_names[] = { "", "current", "stale" };

/* A number cell: "" (null in JSON) when not known. */
static void number(char *buf, size_t n, long long v, bool known)
{
        if (known)
                snprintf(buf, n, "%lld", v);
}

/* The cell's text; "" leaves it empty (null in JSON).  In JSON an array cell is one item a
 * line, elsewhere its items are joined by commas. */
static void cell(int id, bool json, const struct status_report *rep, const struct status_mount *r,
                 char *buf, size_t n)
{
        const struct nfs_mount *m = r->m;
        const char *s = NULL;

        buf[0] = '\0';
        switch (id) {
        case COL_TARGET: s = m->target; break;
        case COL_SOURCE: s = m->source; break;
        case COL_SERVER: nfs_addr_to_string(&m->addr, buf); break;
        case COL_PORT: number(buf, n, m->port, true); break;
        case COL_PROTO: s = m->transport; break;
        case COL_VERS: nfs_version_to_string(m->vers, buf, n); break;
        case COL_SEC: s = m->sec; break;
        case COL_TLS: s = tls_level_to_string(tls_level_of(m->xprtsec)); break;
        case COL_TLS_REQ: s = r->tls_req; break;
        case COL_CLIENT: client_key_text(m, buf, n); break;
        case COL_SET_BY: s = r->set_by->target; break;
        case COL_REQ: number(buf, n, r->req, r->req); break;
        case COL_REQ_FROM: s = req_names[r->req_from]; break;
        case COL_NCONNECT: number(buf, n, m->nconnect, !r->nconnect_unknown); break;
        case COL_XPRTS: number(buf, n, r->xprts, r->xprts >= 0); break;
        case COL_LIVE: number(buf, n, r->live, r->live >= 0); break;
        case COL_XPRT_SENDS:
        case COL_XPRT_RECVS:
        case COL_XPRT_BACKLOG: per_xprt(r, id, buf, n, json ? "\n" : ","); break;
        case COL_RA: number(buf, n, r->ra_now, r->ra_now >= 0); break;
        case COL_RA_WANT:
                if (r->ra_auto && !json)
                        snprintf(buf, n, "auto=%lu", r->ra_want);
                else
                        number(buf, n, (long long)r->ra_want, r->ra_want);
                break;
        case COL_RA_RTT:
                if (r->ra_rtt_us)
                        snprintf(buf, n, "%lu.%03lu", r->ra_rtt_us / 1000, r->ra_rtt_us % 1000);
                break;
        case COL_RECORD: s = record_names[r->record]; break;
        case COL_MAJMIN: snprintf(buf, n, "%u:%u", major(m->dev), minor(m->dev)); break;
        case COL_FINDINGS: codes_of(rep, r, buf, n, json ? "\n" : ","); break;
        }
        if (s)
                snprintf(buf, n, "%s", s);
}

/* --- tables ------------------------------------------------------------------------------ */

static struct libscols_table *new_table(const struct status_opts *o, const char *name)
{
        struct libscols_table *tb = scols_new_table();

        if (!tb)
                return NULL;
        scols_table_set_name(tb, name);
        scols_table_enable_json(tb, o->json);
        scols_table_enable_raw(tb, o->raw);
        scols_table_enable_export(tb, o->pairs);
        scols_table_enable_noheadings(tb, o->noheadings);
        return tb;
}

static bool is_array(int json)
{
        return json == SCOLS_JSON_ARRAY_NUMBER || json == SCOLS_JSON_ARRAY_STRING;
}

static int add_column(struct libscols_table *tb, const char *name, double whint, int flags,
                      int json)
{
        bool split = is_array(json) && scols_table_is_json(tb);
        /* libsmartcols makes a JSON array of a cell's lines when the column wraps at them */
        struct libscols_column *cl = scols_table_new_column(tb, name, whint,
                                                            split ? flags | SCOLS_FL_WRAP : flags);

        if (!cl || scols_column_set_json_type(cl, json) < 0 ||
            (split && scols_column_set_wrapfunc(cl, scols_wrapnl_chunksize, scols_wrapnl_nextchunk,
                                                NULL) < 0))
                return -ENOMEM;
        return 0;
}

/* How the mounts table's text from outside is escaped (shared/escape.h): in JSON and in the
 * aligned table by our one rule, a backslash too, so that the text reads back one way; on a
 * terminal whose locale is not UTF-8 every byte above 0x7f too.  In a UTF-8 locale a mount
 * point in Japanese prints as itself while a bidi override or a C1 control stays escaped
 * (libsmartcols would leave a bidi mark raw, so it does not encode the aligned table: its
 * cells come escaped).  0: -r and -P, which libsmartcols escapes itself, all but ASCII. */
#define ESCAPE_JSON (ESCAPE_UTF8 | ESCAPE_BACKSLASH)

static int text_flags(const struct status_opts *o)
{
        if (o->raw || o->pairs)
                return 0;
        /* any locale but UTF-8 (C, or a legacy multibyte one) gets ASCII alone: libsmartcols
         * does not finish on bytes its locale cannot decode when it does not encode them */
        bool utf8 = streq(nl_langinfo(CODESET), "UTF-8");
        return ESCAPE_JSON | (!o->json && !utf8 ? ESCAPE_ASCII : 0);
}

/* The cell's data, escaped under `flags` (0: ours as it is: numbers, codes, an array's
 * newlines in JSON). */
static int set_cell(struct libscols_line *ln, size_t i, const char *text, int flags)
{
        _cleanup_free_ char *safe = NULL;

        if (!*text)
                return 0;
        if (flags && !(safe = escape_text(text, flags)))
                return -ENOMEM;
        return scols_line_set_data(ln, i, safe ? safe : text) < 0 ? -ENOMEM : 0;
}

static int mount_lines(struct libscols_table *tb, const struct status_opts *o,
                       const struct status_report *rep, const struct status_view *v, const int *ids,
                       size_t n)
{
        int flags = text_flags(o); /* the locale asked once, not per cell */

        for (size_t j = 0; j < rep->nmounts; j++) {
                struct libscols_line *ln;
                char buf[4096];
                if (v->mount_shown && !v->mount_shown[j])
                        continue;
                if (!(ln = scols_table_new_line(tb, NULL)))
                        return -ENOMEM;
                for (size_t i = 0; i < n; i++) {
                        cell(ids[i], o->json, rep, &rep->mounts[j], buf, sizeof(buf));
                        bool ours = o->json && is_array(cols[ids[i]].json);
                        if (set_cell(ln, i, buf, ours ? 0 : flags) < 0)
                                return -ENOMEM;
                }
        }
        return 0;
}

static int mounts_table(const struct status_opts *o, const struct status_report *rep,
                        const struct status_view *v, struct libscols_table **ret)
{
        int ids[COLS_MAX];
        size_t n;
        int r;

        if ((r = parse_columns(o, ids, &n)) < 0)
                return r;
        struct libscols_table *tb = new_table(o, "mounts");
        /* its cells come escaped (text_flags) */
        if (tb && text_flags(o) && !o->json)
                scols_table_enable_noencoding(tb, 1);
        for (size_t i = 0; tb && i < n; i++) {
                int flags = cols[ids[i]].flags & ~(o->notruncate ? SCOLS_FL_TRUNC : 0);
                if (add_column(tb, cols[ids[i]].name, cols[ids[i]].whint, flags,
                               cols[ids[i]].json) < 0) {
                        scols_unref_table(tb);
                        return -ENOMEM;
                }
        }
        if (!tb || mount_lines(tb, o, rep, v, ids, n) < 0) {
                scols_unref_table(tb);
                return -ENOMEM;
        }
        *ret = tb;
        return 0;
}

/* A table of `n` columns, numbers right-aligned; NULL when out of memory. */
static struct libscols_table *fixed_table(const struct status_opts *o, const char *name,
                                          const char *const *names, const int *types, size_t n)
{
        struct libscols_table *tb = new_table(o, name);

        for (size_t i = 0; tb && i < n; i++)
                if (add_column(tb, names[i], 0, types[i] == SCOLS_JSON_NUMBER ? SCOLS_FL_RIGHT : 0,
                               types[i]) < 0) {
                        scols_unref_table(tb);
                        return NULL;
                }
        return tb;
}

/* A line's cells: "" leaves a cell empty (null in JSON). */
static int add_line(struct libscols_table *tb, const char *const *cells, size_t n, bool json)
{
        struct libscols_line *ln = scols_table_new_line(tb, NULL);

        for (size_t i = 0; ln && i < n; i++)
                if (cells[i] && set_cell(ln, i, cells[i], json ? ESCAPE_JSON : 0) < 0)
                        return -ENOMEM;
        return ln ? 0 : -ENOMEM;
}

/* The clients no mount of this namespace shows (/proc/fs/nfsfs). */
static int clients_lines(struct libscols_table *tb, const struct clients *c, bool json)
{
        for (size_t k = 0; k < c->n; k++) {
                const struct nfs_client *cl = &c->v[k];
                char abuf[NFS_ADDR_STRLEN], port[16], vbuf[32], xp[16] = "";
                if (!cl->hidden)
                        continue;
                snprintf(port, sizeof(port), "%u", cl->key.port);
                if (cl->nconnect)
                        snprintf(xp, sizeof(xp), "%u", cl->nconnect);
                const char *cells[] = { nfs_addr_to_string(&cl->key.addr, abuf), port,
                                        cl->key.transport,
                                        nfs_version_to_string(cl->key.vers, vbuf, sizeof(vbuf)),
                                        xp };
                if (add_line(tb, cells, ELEMENTSOF(cells), json) < 0)
                        return -ENOMEM;
        }
        return 0;
}

static int findings_lines(struct libscols_table *tb, const struct status_report *rep,
                          const struct status_view *v)
{
        for (size_t i = 0; i < rep->nfindings; i++) {
                const struct status_finding *f = &rep->findings[i];
                const char *cells[] = { f->sev == SEV_WARNING ? "warning" : "notice", f->code,
                                        f->target, f->text };
                if ((!v->finding_shown || v->finding_shown[i]) &&
                    add_line(tb, cells, ELEMENTSOF(cells), true) < 0)
                        return -ENOMEM;
        }
        return 0;
}

/* The inputs that could not be read or parsed, each problem once: what, where, why. */
static int inputs_lines(struct libscols_table *tb, const struct status_inputs *in)
{
        for (size_t i = 0; i < in->n; i++) {
                const char *cells[] = { status_input_names[in->v[i].input], in->v[i].text };
                if (add_line(tb, cells, ELEMENTSOF(cells), true) < 0)
                        return -ENOMEM;
        }
        return 0;
}

/* The hidden clients', the findings' and the failed inputs' tables (tbs[1], tbs[2], tbs[3]);
 * 0 or -ENOMEM. */
static int other_tables(const struct status_opts *o, const struct status_report *rep,
                        const struct status_view *v, const struct clients *c,
                        const struct status_inputs *in, struct libscols_table **tbs)
{
        static const char *const inames[] = { "INPUT", "TEXT" };
        static const int itypes[] = { SCOLS_JSON_STRING, SCOLS_JSON_STRING };
        static const char *const cnames[] = { "SERVER", "PORT", "PROTO", "VERS", "XPRTS" };
        static const int ctypes[] = { SCOLS_JSON_STRING, SCOLS_JSON_NUMBER, SCOLS_JSON_STRING,
                                      SCOLS_JSON_STRING, SCOLS_JSON_NUMBER };
        static const char *const fnames[] = { "SEVERITY", "CODE", "TARGET", "TEXT" };
        static const int ftypes[] = { SCOLS_JSON_STRING, SCOLS_JSON_STRING, SCOLS_JSON_STRING,
                                      SCOLS_JSON_STRING };
        struct status_opts co = *o;

        /* on standard error, for a person: aligned, with a header */
        if (!o->json)
                co = (struct status_opts){ 0 };
        tbs[1] = fixed_table(&co, "clients", cnames, ctypes, ELEMENTSOF(cnames));
        tbs[2] = fixed_table(&co, "findings", fnames, ftypes, ELEMENTSOF(fnames));
        tbs[3] = fixed_table(&co, "inputs", inames, itypes, ELEMENTSOF(inames));
        if (!tbs[1] || !tbs[2] || !tbs[3] || clients_lines(tbs[1], c, o->json) < 0 ||
            findings_lines(tbs[2], rep, v) < 0 || inputs_lines(tbs[3], in) < 0)
                return -ENOMEM;
        return 0;
}

/* An array column with no item: libsmartcols writes [null]; an empty list is [].  One pass,
 * copying down (a 10,000-mount report is megabytes). */
static void empty_arrays(char *s)
{
        char *out = s;

        for (const char *p = s; *p;) {
                const char *q = p + 1 + strspn(p + 1, " \n"), *end;
                if (*p == '[' && strncmp(q, "null", 4) == 0 &&
                    *(end = q + 4 + strspn(q + 4, " \n")) == ']') {
                        *out++ = '[';
                        *out++ = ']';
                        p = end + 1;
                } else
                        *out++ = *p++;
        }
        *out = '\0';
}

/* libsmartcols prints one JSON object per table: their members are joined into one object. */
static int print_json(struct libscols_table **tbs, size_t n)
{
        fputs("{\n", stdout);
        for (size_t i = 0; i < n; i++) {
                char *s = NULL;
                if (scols_print_table_to_string(tbs[i], &s) < 0 || !s)
                        return -ENOMEM;
                empty_arrays(s);
                size_t len = strlen(s);
                while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
                        len--;
                /* "{\n MEMBERS\n}": the members only */
                if (len < 3 || s[0] != '{' || s[len - 1] != '}') {
                        free(s);
                        return -EINVAL;
                }
                len--;
                while (len > 2 && (s[len - 1] == '\n' || s[len - 1] == ' '))
                        len--;
                printf("%.*s%s\n", (int)(len - 2), s + 2, i + 1 < n ? "," : "");
                free(s);
        }
        fputs("}\n", stdout);
        return 0;
}

/* The findings, each on one line of standard error (escaped: status_finding_line). */
static int print_findings(const struct status_report *rep, const struct status_view *v)
{
        for (size_t i = 0; i < rep->nfindings; i++) {
                if (v->finding_shown && !v->finding_shown[i])
                        continue;
                _cleanup_free_ char *line = status_finding_line(&rep->findings[i]);
                if (!line)
                        return -ENOMEM;
                fprintf(stderr, "nfs-tuned: %s\n", line);
        }
        return 0;
}

static int print_text(struct libscols_table **tbs, const struct status_report *rep,
                      const struct status_view *v)
{
        scols_print_table(tbs[0]);
        /* what follows goes to standard error: the table comes first on a terminal */
        fflush(stdout);
        if (scols_table_get_nlines(tbs[1]) && !v->mount_shown) {
                fprintf(stderr, "\nNFS clients that no mount here shows (other mount "
                                "namespaces):\n");
                scols_table_set_stream(tbs[1], stderr);
                scols_print_table(tbs[1]);
        }
        if (v->nfindings)
                fputc('\n', stderr);
        return print_findings(rep, v);
}

/* A write error on standard output (a full disk, a closed pipe) is said and is exit 2. */
static int check_stdout(void)
{
        if (fflush(stdout) == 0 && !ferror(stdout))
                return 0;
        int r = errno ? -errno : -EIO;
        log_error("cannot write to standard output: %s", strerror(-r));
        return r;
}

int status_print(const struct status_opts *o, const struct status_report *rep,
                 const struct status_view *v, const struct clients *c,
                 const struct status_inputs *in)
{
        struct libscols_table *tbs[4] = { NULL, NULL, NULL, NULL };
        int r = mounts_table(o, rep, v, &tbs[0]);

        if (r == 0)
                r = other_tables(o, rep, v, c, in, tbs);
        errno = 0;
        if (r == 0 && o->json)
                r = print_json(tbs, ELEMENTSOF(tbs));
        else if (r == 0)
                r = print_text(tbs, rep, v);
        for (size_t i = 0; i < ELEMENTSOF(tbs); i++)
                scols_unref_table(tbs[i]);
        if (r == -ENOMEM)
                log_error("out of memory");
        if (r == 0)
                r = check_stdout();
        return r;
}

/* --- the Prometheus textfile -------------------------------------------------------------- */

/* The textfile as the core formats it (core/statusprom.c): the whole text, or NULL when out
 * of memory. */
static char *prom_text(const struct status_opts *o, const struct status_report *rep,
                       const struct clients *c, const struct status_inputs *in, size_t *ret_len)
{
        struct strbuf b = { 0 };

        if (rep)
                (void)status_prometheus(&b, rep, c, in, VERSION, !o->no_transports);
        else
                (void)status_prometheus_failed(&b, in, VERSION);
        return strbuf_steal(&b, ret_len);
}

/* One fwrite and a flush, so a write error (ENOSPC, EPIPE) is read from errno where it
 * happened, not as stdio's bare error flag. */
static int print_prom(const char *text, size_t len)
{
        errno = 0;
        if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
                int r = errno ? -errno : -EIO;
                log_error("cannot write to standard output: %s", strerror(-r));
                return r;
        }
        return 0;
}

int status_write_prometheus(const struct status_opts *o, const struct status_report *rep,
                            const struct clients *c, const struct status_inputs *in)
{
        const char *file = o->prometheus;
        size_t len;
        _cleanup_free_ char *text = prom_text(o, rep, c, in, &len);
        int r;

        if (!text) {
                log_error("out of memory");
                return -ENOMEM;
        }
        if (streq(file, "-"))
                return print_prom(text, len);
        struct chase_refusal why;
        char desc[PATH_MAX + 256];
        if ((r = write_file_atomic(file, text, len, &why)) == -EPERM && why.where[0]) {
                chase_describe(&why, desc, sizeof(desc));
                log_error("refusing to write %s: %s", file, desc);
        } else if (r < 0)
                log_error("cannot write %s: %s", file, strerror(-r));
        return r;
}
