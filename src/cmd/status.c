/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `nfs-tuned status`: what every NFS mount of this host really got.  This file fetches the
 * facts (sys/), has the core decide (core/status.c, core/hostcheck.c) and hands the report to
 * cmd/status-print.c.  It runs unprivileged: every file it reads is readable by anyone, and
 * every one it cannot read or parse is named (core/status.h: status_inputs), so that a report
 * with a hole in it never passes for an all-clear.
 */
#include "cmd/status.h"
#include "cmd/survey.h"

#include "cmd/cmd.h"
#include "cmd/commands.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/hostcheck.h"
#include "core/spec.h"
#include "shared/log.h"
#include "shared/macro.h"
#include "sys/bdi.h"
#include "sys/conffile.h"
#include "sys/creds.h"
#include "sys/hostfiles.h"
#include "sys/mountstats.h"
#include "sys/mounttable.h"
#include "sys/record.h"
#include "sys/resolve.h"
#include "sys/sunrpc.h"

struct status_ctx {
        const struct paths *p;
        struct config conf;
        struct clients clients;
        struct mountstats stats;
        bool stats_read;
        struct xprt_state *xstates;
        size_t nxstates;
        bool xstates_known;
        struct mount_record *records; /* one per mount; .spec NULL: none */
        struct status_facts *facts;
        struct fstab_nfs *fstab;
        size_t nfstab;
        struct nfs_addr *fstab_addrs;
        struct status_report rep;
        struct status_inputs in;
};

static void status_ctx_done(struct status_ctx *s)
{
        for (size_t i = 0; s->records && i < s->clients.nmounts; i++)
                mount_record_done(&s->records[i]);
        free(s->records);
        free(s->facts);
        free(s->fstab_addrs);
        free(s->xstates);
        fstab_nfs_free(s->fstab, s->nfstab);
        mountstats_done(&s->stats);
        clients_done(&s->clients);
        config_done(&s->conf);
        status_report_done(&s->rep);
        status_inputs_done(&s->in);
}

/* What the read errors of one input leave out, said once per file. */
static int add_read_errors(struct status_inputs *in, enum status_input which,
                           const struct read_errors *e, const char *missing)
{
        int r = 0;

        for (size_t i = 0; i < e->n && r == 0; i++) {
                const struct read_error *x = &e->v[i];
                if (x->line)
                        r = status_inputs_add(in, which, "%s:%u: cannot be parsed; skipped, so %s",
                                              x->path, x->line, missing);
                else if (x->error == -ELIBACC)
                        r = status_inputs_add(in, which,
                                              "cannot read %s: %s, which reads it, cannot be "
                                              "loaded (install libmount1, util-linux's); %s",
                                              x->path, LIBMOUNT_SONAME, missing);
                else
                        r = status_inputs_add(in, which, "cannot read %s: %s; %s", x->path,
                                              x->error == -EINVAL ? "not a regular file"
                                                                  : strerror(-x->error),
                                              missing);
        }
        return r;
}

/* The records' directory; a missing one has no record to give. */
static int open_records(struct status_ctx *s)
{
        int dir = records_open_readonly(s->p);

        if (dir < 0 && dir != -ENOENT && dir != -ENOMEM &&
            status_inputs_add(&s->in, IN_RECORDS,
                              "cannot use the records in %s/%s: %s; REQ comes from fstab only and "
                              "read-ahead-overwritten is not checked",
                              s->p->rundir, RECORD_SUBDIR,
                              dir == -EPERM ? "not root's, or writable by group or others"
                                            : strerror(-dir)) < 0)
                return -ENOMEM;
        return dir;
}

/* Its client's transports that are live, from the sunrpc sysfs (a kernel before 5.14 has none:
 * then nothing can be offline, and the xprt: lines are the live ones). */
static void live_transports(const struct status_ctx *s, const struct nfs_mount *m,
                            struct status_facts *f)
{
        unsigned total, offline;

        f->live = f->offline = -1;
        if (!f->stats || !s->xstates_known)
                return;
        if (!s->nxstates) {
                f->live = (int)f->stats->nxprts;
                f->offline = 0;
        } else if (mountstats_switch(f->stats, &m->addr, m->port, s->xstates, s->nxstates, &total,
                                     &offline) == 0) {
                f->live = (int)(total - offline);
                f->offline = (int)offline;
        }
}

/* One mount's record, transports and read-ahead; what cannot be read is said. */
static int gather_one(struct status_ctx *s, int dir, size_t i)
{
        const struct nfs_mount *m = &s->clients.mounts[i];
        struct status_facts *f = &s->facts[i];
        unsigned long ra;
        int r = dir >= 0 ? record_read_at(dir, m->target, &s->records[i]) : -ENOENT;

        if (r == 0)
                f->record = &s->records[i];
        else if (r != -ENOENT && status_inputs_add(&s->in, IN_RECORDS,
                                                   "cannot read the record of %s: %s; its REQ "
                                                   "comes from fstab only",
                                                   m->target, strerror(-r)) < 0)
                return -ENOMEM;
        f->fstab_options = fstab_target_options(s->fstab, s->nfstab, m->target);
        f->stats = s->stats_read ? mountstats_take(&s->stats, m->target) : NULL;
        f->when = mountstats_when(&s->stats, f->stats);
        live_transports(s, m, f);
        if (s->stats_read && !f->stats &&
            status_inputs_add(&s->in, IN_MOUNTSTATS,
                              "%s has no entry for %s; its XPRTS and "
                              "transports are not known",
                              s->p->mountstats, m->target) < 0)
                return -ENOMEM;
        if (f->stats && f->stats->bad_xprts &&
            status_inputs_add(&s->in, IN_MOUNTSTATS,
                              "%s: %u xprt: line%s of %s not understood; "
                              "not counted",
                              s->p->mountstats, f->stats->bad_xprts,
                              f->stats->bad_xprts == 1 ? "" : "s", m->target) < 0)
                return -ENOMEM;
        f->ra_now = -1;
        if ((r = bdi_get_read_ahead(s->p, m->dev, &ra)) == 0)
                f->ra_now = (long)ra;
        else if (status_inputs_add(&s->in, IN_BDI,
                                   "cannot read the read-ahead of %s (bdi %u:%u "
                                   "in %s/class/bdi): %s; its RA-KB is not known and its "
                                   "read-ahead not checked",
                                   m->target, major(m->dev), minor(m->dev), s->p->sysfs,
                                   strerror(-r)) < 0)
                return -ENOMEM;
        return 0;
}

/* Per mount: its record, fstab entry, live transports and read-ahead now. */
static int gather_facts(struct status_ctx *s)
{
        size_t n = s->clients.nmounts;
        int dir, r = 0;

        s->records = calloc(n + 1, sizeof(*s->records));
        s->facts = calloc(n + 1, sizeof(*s->facts));
        if (!s->records || !s->facts || (dir = open_records(s)) == -ENOMEM)
                return -ENOMEM;
        for (size_t i = 0; i < n && r == 0; i++)
                r = gather_one(s, dir, i);
        if (dir >= 0)
                close(dir);
        return r;
}

/* Each fstab entry's address as mount.nfs resolves it; NULL when it does not resolve. */
static int resolve_fstab(struct status_ctx *s)
{
        if (!s->nfstab)
                return 0;
        if (!(s->fstab_addrs = calloc(s->nfstab, sizeof(*s->fstab_addrs))))
                return -ENOMEM;
        for (size_t i = 0; i < s->nfstab; i++) {
                struct nfs_addr a[RESOLVE_MAX];
                struct nfs_spec spec = { 0 };
                if (nfs_spec_parse(s->fstab[i].spec, &spec) == 0 &&
                    resolve_host(spec.host, AF_UNSPEC, a) > 0) {
                        s->fstab_addrs[i] = a[0];
                        s->fstab[i].addr = &s->fstab_addrs[i];
                }
                nfs_spec_done(&spec);
        }
        return 0;
}

/* The host's files that defeat settings silently: udev rules and nfsmount.conf. */
static int check_host(struct status_ctx *s)
{
        struct udev_rule_file *rules = NULL;
        struct text_file *nmc = NULL;
        struct read_errors ue = { 0 }, ne = { 0 };
        size_t nrules = 0, nnmc = 0;
        int r;

        if ((r = load_udev_rules(s->p, NULL, &rules, &nrules, &ue)) == 0)
                r = hostcheck_udev(rules, nrules, &s->rep);
        udev_rules_free(rules, nrules);
        if (r == 0 && (r = load_nfsmount_conf(s->p, &nmc, &nnmc, &ne)) == 0)
                for (size_t i = 0; i < nnmc && r == 0; i++)
                        r = hostcheck_nfsmount_conf(nmc[i].path, nmc[i].text, &s->rep);
        text_files_free(nmc, nnmc);
        if (r == 0)
                r = add_read_errors(&s->in, IN_UDEV_RULES, &ue,
                                    "udev-rule-shadowed and udev-rule-overrides are not checked");
        if (r == 0)
                r = add_read_errors(&s->in, IN_NFSMOUNT_CONF, &ne,
                                    "nfsmount-conf-server is not checked");
        read_errors_done(&ue);
        read_errors_done(&ne);
        return r;
}

/* A file of the config that cannot be read is a hole in the answer; a bad line is a finding
 * (the helper skips it too). */
static int config_findings(struct status_ctx *s)
{
        int r = 0;

        for (size_t i = 0; i < s->conf.nerrors && r == 0; i++)
                if (s->conf.nunread && strstr(s->conf.errors[i], ": cannot be read: "))
                        r = status_inputs_add(&s->in, IN_CONFIG,
                                              "%s; what the configuration gives (RA-WANT-KB, "
                                              "config-mismatch, read-ahead-lost and -overwritten) "
                                              "is not checked",
                                              s->conf.errors[i]);
                else
                        r = status_add_finding(&s->rep, SEV_WARNING, F_CONFIG_ERROR, NULL, "%s",
                                               s->conf.errors[i]);
        return r;
}

/* The mount table's lines that could not be used, and options that could not be read. */
static int mountinfo_problems(struct status_ctx *s)
{
        const struct clients *c = &s->clients;
        int r = 0;

        for (size_t i = 0; i < c->nproblems && r == 0; i++) {
                const struct scan_problem *x = &c->problems[i];
                if (x->target)
                        r = status_inputs_add(&s->in, IN_MOUNTINFO, "%s: %s (mount ID %d): %s",
                                              s->p->mountinfo, x->target, x->id, x->why);
                else
                        r = status_inputs_add(&s->in, IN_MOUNTINFO, "%s:%u: %s", s->p->mountinfo,
                                              x->line, x->why);
        }
        if (r == 0 && c->nproblems_total > c->nproblems)
                r = status_inputs_add(&s->in, IN_MOUNTINFO, "%s: %zu more lines like these",
                                      s->p->mountinfo, c->nproblems_total - c->nproblems);
        for (size_t i = 0; i < c->nmounts && r == 0; i++)
                if (c->mounts[i].unreadable)
                        r = status_inputs_add(&s->in, IN_MOUNTINFO,
                                              "%s: %s: its super option %s= cannot be read; what "
                                              "depends on it is not known",
                                              s->p->mountinfo, c->mounts[i].target,
                                              c->mounts[i].unreadable);
        return r;
}

/* The mount table, nfsfs, mountstats and the sunrpc transports: -errno when no mount is known. */
static int load_kernel_view(struct status_ctx *s)
{
        struct nfsfs_status nfsfs = { 0 };
        int r = survey_clients(s->p, NULL, &s->clients, NULL, NULL, &nfsfs);

        if (r < 0) {
                if (r != -ENOMEM &&
                    status_inputs_add(&s->in, IN_MOUNTINFO,
                                      "cannot read the mount table %s: %s; nothing is checked",
                                      s->p->mountinfo, strerror(-r)) < 0)
                        return -ENOMEM;
                return r;
        }
        if ((r = mountinfo_problems(s)) < 0)
                return r;
        if (nfsfs.error && (r = status_inputs_add(&s->in, IN_NFSFS,
                                                  "cannot read %s/servers: %s; "
                                                  "clients of other mount namespaces are not "
                                                  "listed",
                                                  s->p->nfsfs, strerror(-nfsfs.error))) < 0)
                return r;
        /* no nfs module, no client; but NFS mounts are clients, so the file was not found */
        if (nfsfs.missing && s->clients.nmounts &&
            (r = status_inputs_add(&s->in, IN_NFSFS,
                                   "%s/servers does not exist, yet %s has %zu NFS mount%s, so "
                                   "the nfs module is loaded: NFS clients of other mount "
                                   "namespaces are not checked (%s is per network namespace: a "
                                   "container needs the host's)",
                                   s->p->nfsfs, s->p->mountinfo, s->clients.nmounts,
                                   s->clients.nmounts == 1 ? "" : "s", s->p->nfsfs)) < 0)
                return r;
        if (nfsfs.bad_lines && (r = status_inputs_add(&s->in, IN_NFSFS,
                                                      "%s/servers: %d lines not "
                                                      "understood; skipped",
                                                      s->p->nfsfs, nfsfs.bad_lines)) < 0)
                return r;
        if ((r = load_mountstats(s->p, &s->stats)) == 0)
                s->stats_read = true;
        else if (r == -ENOMEM ||
                 status_inputs_add(&s->in, IN_MOUNTSTATS,
                                   "cannot read %s: %s; live transports "
                                   "(XPRTS, LIVE, XPRT-*) not known, transports-down and "
                                   "transport-imbalance not checked",
                                   s->p->mountstats, strerror(-r)) < 0)
                return -ENOMEM;
        r = s->clients.nmounts ? load_rpc_xprt_states(s->p, &s->xstates, &s->nxstates) : 0;
        /* a kernel without the sunrpc sysfs: the xprt: lines are the live transports */
        s->xstates_known = r == 0 || r == -ENOENT || r == -EOPNOTSUPP;
        if (r == -ENOMEM ||
            (!s->xstates_known && status_inputs_add(&s->in, IN_SUNRPC,
                                                    "cannot read %s/kernel/sunrpc: "
                                                    "%s; transports taken offline are not known",
                                                    s->p->sysfs, strerror(-r)) < 0))
                return -ENOMEM;
        return 0;
}

/* Everything read, decided and reported; -errno only for what makes the report wrong. */
static int status_run(struct status_ctx *s)
{
        struct read_errors fe = { 0 };
        int r;

        /* as the mount path: a root run trusts only root's files */
        if (load_config(s->p->vendor_config, s->p->config, creds_effective_root(), &s->conf) < 0)
                return -ENOMEM;
        if ((r = load_kernel_view(s)) < 0)
                return r;
        r = load_fstab_nfs(s->p, false, &s->fstab, &s->nfstab, &fe);
        if (r == 0)
                r = add_read_errors(&s->in, IN_FSTAB, &fe,
                                    "REQ from fstab and "
                                    "fstab-nconnect-conflict are not checked for it");
        read_errors_done(&fe);
        if (r < 0 || gather_facts(s) < 0 || resolve_fstab(s) < 0)
                return -ENOMEM;
        if (status_analyse_mounts(&s->clients, s->facts, &s->conf, bdi_page_kb(), &s->rep) < 0 ||
            config_findings(s) < 0 || hostcheck_fstab(s->fstab, s->nfstab, &s->conf, &s->rep) < 0 ||
            check_host(s) < 0)
                return -ENOMEM;
        return 0;
}

static void say_problems(const struct status_inputs *in)
{
        for (size_t i = 0; i < in->n; i++)
                log_error("%s", in->v[i].text);
}

int cmd_status(const struct status_opts *o, const struct paths *p)
{
        struct status_ctx s = { .p = p };
        struct status_view v = { 0 };
        int r;

        /* the table's characters as the terminal's locale has them (UTF-8: a mount point in
         * Japanese prints as itself; C: escaped); messages and numbers stay as they are */
        (void)setlocale(LC_CTYPE, "");
        r = status_run(&s);

        if (r == -ENOMEM)
                log_error("out of memory");
        if (r == 0)
                r = status_select(o, &s.rep, &v);
        if (r < 0 && r != -ENOMEM && o->prometheus && !v.nomatch)
                (void)status_write_prometheus(o, NULL, NULL, &s.in);
        else if (r == 0 && o->prometheus)
                r = status_write_prometheus(o, &s.rep, &s.clients, &s.in);
        else if (r == 0)
                r = status_print(o, &s.rep, &v, &s.clients, &s.in);
        else if (r != -ENOMEM && o->json && !v.nomatch)
                /* no mount table: JSON still names the input that failed */
                (void)status_print(o, &s.rep, &v, &s.clients, &s.in);
        say_problems(&s.in);
        int rc = r < 0 || s.in.n ? STATUS_EX_ERROR
                 : v.nfindings   ? STATUS_EX_FINDINGS
                                 : STATUS_EX_CLEAN;
        status_view_done(&v);
        status_ctx_done(&s);
        return rc;
}

/* --- the command line -------------------------------------------------------------------- */

const char status_options_help[] = {
        "Options of status:\n"
        "  -T, --target PATH    the NFS mount that holds PATH\n"
        "  -S, --source SPEC    the mounts of SPEC (server:/export)\n"
        "  -o, --output LIST    the mounts table's columns (+LIST: added to the default)\n"
        "      --output-all     every column\n"
        "  -n, --noheadings     no header line\n"
        "  -r, --raw            raw output: no alignment\n"
        "  -l, --list           a list (the only form; findmnt's option, accepted)\n"
        "  -P, --pairs          NAME=\"value\" pairs, one line a mount\n"
        "  -J, --json           JSON: {\"mounts\":[...],\"clients\":[...],\"findings\":[...],\n"
        "                       \"inputs\":[...]} (inputs: what could not be read)\n"
        "  -u, --notruncate     never cut a column to the terminal's width\n"
        "      --prometheus FILE  write node_exporter's textfile format to FILE\n"
        "                       (atomically; \"-\": standard output) and print nothing;\n"
        "                       no option of the table's shape with it\n"
        "      --no-transport-series  with --prometheus: leave out the counters of each\n"
        "                       transport (three series a connection)\n"
        "\n"
        "Exit status: 0 nothing found, 1 findings, 2 an error or an input that could not\n"
        "be read (the answer is not whole).  See nfs-tuned(8).\n"
};

enum { OPT_PROMETHEUS = 0x100, OPT_OUTPUT_ALL, OPT_NO_TRANSPORTS };
#define OPTSTRING "o:nrJPluT:S:hV"

static const struct option longopts[] = {
        { "output", required_argument, NULL, 'o' },
        { "output-all", no_argument, NULL, OPT_OUTPUT_ALL },
        { "noheadings", no_argument, NULL, 'n' },
        { "raw", no_argument, NULL, 'r' },
        { "json", no_argument, NULL, 'J' },
        { "pairs", no_argument, NULL, 'P' },
        { "list", no_argument, NULL, 'l' },
        { "notruncate", no_argument, NULL, 'u' },
        { "target", required_argument, NULL, 'T' },
        { "source", required_argument, NULL, 'S' },
        { "prometheus", required_argument, NULL, OPT_PROMETHEUS },
        { "no-transport-series", no_argument, NULL, OPT_NO_TRANSPORTS },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { 0 },
};

int status_read_options(const struct cmd_env *env, bool leading)
{
        struct status_opts *o = env->status;
        int argc = env->argc;
        char **argv = env->argv;
        int c;

        while ((c = getopt_long(argc, argv, leading ? "+" OPTSTRING : OPTSTRING, longopts, NULL)) !=
               -1) {
                switch (c) {
                case 'o': o->columns = optarg; break;
                case OPT_OUTPUT_ALL: o->all_columns = true; break;
                case 'n': o->noheadings = true; break;
                case 'r': o->raw = true; break;
                case 'J': o->json = true; break;
                case 'P': o->pairs = true; break;
                case 'l': break;
                case 'u': o->notruncate = true; break;
                case 'T': o->target = optarg; break;
                case 'S': o->source = optarg; break;
                case OPT_PROMETHEUS: o->prometheus = optarg; break;
                case OPT_NO_TRANSPORTS: o->no_transports = true; break;
                case 'h': return cmd_help(env);
                case 'V': return cmd_version(env);
                default: fprintf(stderr, "Try 'nfs-tuned -h'.\n"); return STATUS_EX_ERROR;
                }
        }
        return -1;
}

/* The first option given that shapes the table (its form, columns, header, width); NULL
 * when none. */
static const char *table_form_option(const struct status_opts *o)
{
        return o->json                        ? "--json"
               : o->raw                       ? "--raw"
               : o->pairs                     ? "--pairs"
               : o->columns || o->all_columns ? "--output"
               : o->noheadings                ? "--noheadings"
               : o->notruncate                ? "--notruncate"
                                              : NULL;
}

/* Options that exclude each other, said; 0 when none do. */
static int check_options(const struct status_opts *o)
{
        if (o->json + o->raw + o->pairs > 1) {
                log_error("--json, --raw and --pairs exclude each other");
                return -1;
        }
        const char *form = table_form_option(o);
        if (o->prometheus && form) {
                log_error("--prometheus writes the textfile format; %s shapes the table and does "
                          "not apply to it: give one or the other",
                          form);
                return -1;
        }
        if (o->no_transports && !o->prometheus) {
                log_error("--no-transport-series shapes the textfile: give it with --prometheus");
                return -1;
        }
        if (o->prometheus && (o->mountpoint || o->target || o->source)) {
                log_error("--prometheus writes every mount; a mount point, -T or -S does not "
                          "apply to it");
                return -1;
        }
        return 0;
}

int cmd_status_verb(const struct cmd_env *env)
{
        struct status_opts *o = env->status;
        int rc;

        if ((rc = status_read_options(env, false)) >= 0)
                return rc;
        if (optind < env->argc)
                o->mountpoint = env->argv[optind++];
        if (optind < env->argc) {
                log_error("unexpected argument '%s': one mount point or source at most; see "
                          "'nfs-tuned -h'",
                          env->argv[optind]);
                return STATUS_EX_ERROR;
        }
        if (check_options(o) < 0)
                return STATUS_EX_ERROR;
        rc = cmd_status(o, env->paths);
        return rc;
}
