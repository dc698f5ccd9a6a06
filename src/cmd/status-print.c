/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The output of `nfs-tuned status`: findmnt's conventions through libsmartcols (a table, -o
 * columns, -n, --raw, --json with typed numbers), and the Prometheus textfile.
 */
#include <errno.h>
#include <libsmartcols.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>

#include "cmd/status.h"
#include "config-build.h"
#include "core/statusprom.h"
#include "shared/log.h"
#include "shared/macro.h"
#include "sys/chase.h"
#include "sys/fileio.h"

enum {
        COL_TARGET, COL_SOURCE, COL_SERVER, COL_PORT, COL_PROTO, COL_VERS, COL_SEC, COL_CLIENT,
        COL_SET_BY,
        COL_REQ, COL_REQ_FROM, COL_NCONNECT, COL_XPRTS, COL_RA, COL_RA_WANT, COL_RECORD,
        COL_MAJMIN, COL_FINDINGS,
};

struct colinfo {
        const char *name;
        double whint;
        int flags;
        int json;
        const char *help;
};

/* One row per column of the mounts table; -o takes these names (case-insensitive). */
static const struct colinfo cols[] = {
        [COL_TARGET] = { "TARGET", 0.2, SCOLS_FL_NOEXTREMES, SCOLS_JSON_STRING, "mount point" },
        [COL_SOURCE] = { "SOURCE", 0.2, SCOLS_FL_NOEXTREMES, SCOLS_JSON_STRING,
                         "the export, as mounted (server:/path)" },
        [COL_SERVER] = { "SERVER", 0.1, 0, SCOLS_JSON_STRING, "the server address (addr=)" },
        [COL_PORT] = { "PORT", 5, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "the server port" },
        [COL_PROTO] = { "PROTO", 5, 0, SCOLS_JSON_STRING, "transport: tcp, rdma, udp" },
        [COL_VERS] = { "VERS", 4, 0, SCOLS_JSON_STRING, "NFS version" },
        [COL_SEC] = { "SEC", 5, 0, SCOLS_JSON_STRING, "security flavour (sec=)" },
        [COL_CLIENT] = { "CLIENT", 0.1, 0, SCOLS_JSON_STRING,
                         "its NFS client: address:port/transport/version (mounts that share it "
                         "show the same)" },
        [COL_SET_BY] = { "SET-BY", 0.1, SCOLS_FL_NOEXTREMES, SCOLS_JSON_STRING,
                         "the first mount of its NFS client in the table: it set nconnect" },
        [COL_REQ] = { "REQ", 3, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
                      "nconnect asked for (the helper's record, else fstab)" },
        [COL_REQ_FROM] = { "REQ-FROM", 6, 0, SCOLS_JSON_STRING, "where REQ comes from" },
        [COL_NCONNECT] = { "NCONNECT", 3, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
                           "nconnect of its NFS client (mountinfo)" },
        [COL_XPRTS] = { "XPRTS", 3, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
                        "live RPC transports (xprt: lines of mountstats)" },
        [COL_RA] = { "RA-KB", 6, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
                     "read_ahead_kb of its bdi now (KiB)" },
        [COL_RA_WANT] = { "RA-WANT-KB", 6, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
                          "read_ahead_kb the configuration gives it (KiB)" },
        [COL_RECORD] = { "RECORD", 7, 0, SCOLS_JSON_STRING,
                         "the helper's mount record: current, stale, none" },
        [COL_MAJMIN] = { "MAJ:MIN", 6, 0, SCOLS_JSON_STRING, "the superblock's device (its bdi)" },
        [COL_FINDINGS] = { "FINDINGS", 0.2, SCOLS_FL_NOEXTREMES, SCOLS_JSON_STRING,
                           "codes of its findings, comma-separated" },
};

static const int default_cols[] = { COL_TARGET, COL_SOURCE, COL_VERS, COL_SEC, COL_SET_BY,
                                    COL_REQ, COL_NCONNECT, COL_XPRTS, COL_RA, COL_RA_WANT,
                                    COL_FINDINGS };

void status_print_columns_help(void)
{
        printf("\nColumns (-o, comma-separated):\n");
        for (size_t i = 0; i < ELEMENTSOF(cols); i++)
                printf(" %11s  %s\n", cols[i].name, cols[i].help);
}

static int column_id(const char *name, size_t len)
{
        for (size_t i = 0; i < ELEMENTSOF(cols); i++)
                if (strlen(cols[i].name) == len && strncasecmp(cols[i].name, name, len) == 0)
                        return (int)i;
        return -1;
}

/* -o LIST into ids; -EINVAL (said) for an unknown name. */
static int parse_columns(const char *list, int *ids, size_t *n)
{
        *n = 0;
        if (!list) {
                memcpy(ids, default_cols, sizeof(default_cols));
                *n = ELEMENTSOF(default_cols);
                return 0;
        }
        for (const char *p = list; *p;) {
                size_t len = strcspn(p, ",");
                int id = column_id(p, len);
                if (id < 0) {
                        log_error("unknown column '%.*s' in -o %s; 'nfs-tuned status -h' lists "
                                  "them", (int)len, p, list);
                        return -EINVAL;
                }
                if (*n < 64)
                        ids[(*n)++] = id;
                p += len + (p[len] == ',');
        }
        return 0;
}

/* The codes of the row's findings. */
static void codes_of(const struct status_report *rep, const struct status_mount *r, char *buf,
                     size_t n)
{
        size_t used = 0;

        buf[0] = '\0';
        for (size_t i = r->first_finding; i < r->first_finding + r->nfindings && used < n; i++)
                if (!strstr(buf, rep->findings[i].code))
                        used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? "," : "",
                                                 rep->findings[i].code);
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
static const char *const record_names[] = { "none", "current", "stale" };

/* The cell's text; "" leaves it empty (null in JSON). */
static void cell(int id, const struct status_report *rep, const struct status_mount *r,
                 char *buf, size_t n)
{
        const struct nfs_mount *m = r->m;
        const char *s = NULL;

        buf[0] = '\0';
        switch (id) {
        case COL_TARGET: s = m->target; break;
        case COL_SOURCE: s = m->source; break;
        case COL_SERVER: nfs_addr_to_string(&m->addr, buf); break;
        case COL_PORT: snprintf(buf, n, "%u", m->port); break;
        case COL_PROTO: s = m->transport; break;
        case COL_VERS: nfs_version_to_string(m->vers, buf, n); break;
        case COL_SEC: s = m->sec; break;
        case COL_CLIENT: client_key_text(m, buf, n); break;
        case COL_SET_BY: s = r->set_by->target; break;
        case COL_REQ: if (r->req) snprintf(buf, n, "%u", r->req); break;
        case COL_REQ_FROM: s = req_names[r->req_from]; break;
        case COL_NCONNECT: snprintf(buf, n, "%u", m->nconnect); break;
        case COL_XPRTS: if (r->xprts >= 0) snprintf(buf, n, "%d", r->xprts); break;
        case COL_RA: if (r->ra_now >= 0) snprintf(buf, n, "%ld", r->ra_now); break;
        case COL_RA_WANT: if (r->ra_want) snprintf(buf, n, "%lu", r->ra_want); break;
        case COL_RECORD: s = record_names[r->record]; break;
        case COL_MAJMIN: snprintf(buf, n, "%u:%u", major(m->dev), minor(m->dev)); break;
        case COL_FINDINGS: codes_of(rep, r, buf, n); break;
        }
        if (s)
                snprintf(buf, n, "%s", s);
}

static struct libscols_table *new_table(const struct status_opts *o, const char *name)
{
        struct libscols_table *tb = scols_new_table();

        if (!tb)
                return NULL;
        scols_table_set_name(tb, name);
        scols_table_enable_json(tb, o->json);
        scols_table_enable_raw(tb, o->raw);
        scols_table_enable_noheadings(tb, o->noheadings);
        return tb;
}

static int add_column(struct libscols_table *tb, const char *name, double whint, int flags,
                      int json)
{
        struct libscols_column *cl = scols_table_new_column(tb, name, whint, flags);
        return cl && scols_column_set_json_type(cl, json) == 0 ? 0 : -ENOMEM;
}

/* A line's cells: NULL leaves a cell empty (null in JSON). */
static int add_line(struct libscols_table *tb, const char *const *cells, size_t n)
{
        struct libscols_line *ln = scols_table_new_line(tb, NULL);

        for (size_t i = 0; ln && i < n; i++)
                if (cells[i] && *cells[i] && scols_line_set_data(ln, i, cells[i]) < 0)
                        return -ENOMEM;
        return ln ? 0 : -ENOMEM;
}

static int mounts_table(const struct status_opts *o, const struct status_report *rep,
                        struct libscols_table **ret)
{
        int ids[64];
        size_t n;
        int r;

        if ((r = parse_columns(o->columns, ids, &n)) < 0)
                return r;
        struct libscols_table *tb = new_table(o, "mounts");
        for (size_t i = 0; tb && i < n; i++)
                if (add_column(tb, cols[ids[i]].name, cols[ids[i]].whint, cols[ids[i]].flags,
                               cols[ids[i]].json) < 0)
                        goto oom;
        for (size_t j = 0; tb && j < rep->nmounts; j++) {
                struct libscols_line *ln = scols_table_new_line(tb, NULL);
                char buf[4096];
                for (size_t i = 0; ln && i < n; i++) {
                        cell(ids[i], rep, &rep->mounts[j], buf, sizeof(buf));
                        if (*buf && scols_line_set_data(ln, i, buf) < 0)
                                goto oom;
                }
                if (!ln)
                        goto oom;
        }
        if (!tb)
                return -ENOMEM;
        *ret = tb;
        return 0;
oom:
        scols_unref_table(tb);
        return -ENOMEM;
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

/* The clients no mount of this namespace shows (/proc/fs/nfsfs). */
static int clients_lines(struct libscols_table *tb, const struct clients *c)
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
                if (add_line(tb, cells, ELEMENTSOF(cells)) < 0)
                        return -ENOMEM;
        }
        return 0;
}

static int findings_lines(struct libscols_table *tb, const struct status_report *rep)
{
        for (size_t i = 0; i < rep->nfindings; i++) {
                const struct status_finding *f = &rep->findings[i];
                const char *cells[] = { f->sev == SEV_WARNING ? "warning" : "notice", f->code,
                                        f->target, f->text };
                if (add_line(tb, cells, ELEMENTSOF(cells)) < 0)
                        return -ENOMEM;
        }
        return 0;
}

/* The hidden clients' and the findings' tables (tbs[1], tbs[2]); 0 or -ENOMEM. */
static int other_tables(const struct status_opts *o, const struct status_report *rep,
                        const struct clients *c, struct libscols_table **tbs)
{
        static const char *const cnames[] = { "SERVER", "PORT", "PROTO", "VERS", "XPRTS" };
        static const int ctypes[] = { SCOLS_JSON_STRING, SCOLS_JSON_NUMBER, SCOLS_JSON_STRING,
                                      SCOLS_JSON_STRING, SCOLS_JSON_NUMBER };
        static const char *const fnames[] = { "SEVERITY", "CODE", "TARGET", "TEXT" };
        static const int ftypes[] = { SCOLS_JSON_STRING, SCOLS_JSON_STRING, SCOLS_JSON_STRING,
                                      SCOLS_JSON_STRING };

        tbs[1] = fixed_table(o, "clients", cnames, ctypes, ELEMENTSOF(cnames));
        tbs[2] = fixed_table(o, "findings", fnames, ftypes, ELEMENTSOF(fnames));
        if (!tbs[1] || !tbs[2] || clients_lines(tbs[1], c) < 0 || findings_lines(tbs[2], rep) < 0)
                return -ENOMEM;
        return 0;
}

/* libsmartcols prints one JSON object per table: their members are joined into one object. */
static int print_json(struct libscols_table **tbs, size_t n)
{
        fputs("{\n", stdout);
        for (size_t i = 0; i < n; i++) {
                char *s = NULL;
                if (scols_print_table_to_string(tbs[i], &s) < 0 || !s)
                        return -ENOMEM;
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

static void print_text(struct libscols_table **tbs, const struct status_report *rep)
{
        scols_print_table(tbs[0]);
        if (scols_table_get_nlines(tbs[1])) {
                printf("\nNFS clients that no mount here shows (other mount namespaces):\n");
                scols_print_table(tbs[1]);
        }
        if (rep->nfindings)
                putchar('\n');
        for (size_t i = 0; i < rep->nfindings; i++)
                printf("%s[%s] %s\n", severity_prefix(rep->findings[i].sev),
                       rep->findings[i].code, rep->findings[i].text);
}

int status_print(const struct status_opts *o, const struct status_report *rep,
                 const struct clients *c)
{
        struct libscols_table *tbs[3] = { NULL, NULL, NULL };
        int r = mounts_table(o, rep, &tbs[0]);

        if (r == 0)
                r = other_tables(o, rep, c, tbs);
        if (r == 0 && o->json)
                r = print_json(tbs, ELEMENTSOF(tbs));
        else if (r == 0)
                print_text(tbs, rep);
        for (size_t i = 0; i < ELEMENTSOF(tbs); i++)
                scols_unref_table(tbs[i]);
        if (r == -ENOMEM)
                log_error("out of memory");
        if (r == 0 && (fflush(stdout) != 0 || ferror(stdout)))
                r = -EIO;
        return r;
}

struct prom_args {
        const struct status_report *rep;
        const struct clients *c;
};

static int fill_prom(FILE *f, void *arg)
{
        const struct prom_args *a = arg;
        return a->rep ? status_prometheus(f, a->rep, a->c, VERSION) :
                        status_prometheus_failed(f, VERSION);
}

int status_write_prometheus(const char *file, const struct status_report *rep,
                            const struct clients *c)
{
        struct prom_args a = { rep, c };
        int r;

        if (streq(file, "-")) {
                r = fill_prom(stdout, &a);
                return r == 0 && fflush(stdout) != 0 ? -EIO : r;
        }
        struct chase_refusal why;
        char desc[PATH_MAX + 256];
        if ((r = write_file_atomic(file, fill_prom, &a, &why)) == -EPERM && why.where[0]) {
                chase_describe(&why, desc, sizeof(desc));
                log_error("refusing to write %s: %s", file, desc);
        } else if (r < 0)
                log_error("cannot write %s: %s", file, strerror(-r));
        return r;
}
