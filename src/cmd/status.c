/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `nfs-tuned status`: what every NFS mount of this host really got.  This file fetches the
 * facts (sys/), has the core decide (core/status.c, core/hostcheck.c) and hands the report to
 * cmd/status-print.c.  It runs unprivileged: every file it reads is readable by anyone.
 */
#include "cmd/status.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/hostcheck.h"
#include "core/spec.h"
#include "shared/log.h"
#include "shared/macro.h"
#include "sys/bdi.h"
#include "sys/conffile.h"
#include "sys/hostfiles.h"
#include "sys/mounttable.h"
#include "sys/record.h"
#include "sys/resolve.h"

struct status_ctx {
        const struct paths *p;
        struct config conf;
        struct clients clients;
        struct mountstats stats;
        struct mount_record *records;   /* one per mount; .spec NULL: none */
        struct status_facts *facts;
        struct fstab_nfs *fstab;
        size_t nfstab;
        struct nfs_addr *fstab_addrs;
        struct status_report rep;
};

static void status_ctx_done(struct status_ctx *s)
{
        for (size_t i = 0; s->records && i < s->clients.nmounts; i++)
                mount_record_done(&s->records[i]);
        free(s->records);
        free(s->facts);
        free(s->fstab_addrs);
        fstab_nfs_free(s->fstab, s->nfstab);
        mountstats_done(&s->stats);
        clients_done(&s->clients);
        config_done(&s->conf);
        status_report_done(&s->rep);
}

/* The options of the last fstab entry on `target`. */
static const char *fstab_options_of(const struct status_ctx *s, const char *target)
{
        for (size_t i = s->nfstab; i-- > 0;)
                if (streq(s->fstab[i].target, target))
                        return s->fstab[i].options;
        return NULL;
}

/* Per mount: its record, fstab entry, live transports and read-ahead now. */
static int gather_facts(struct status_ctx *s)
{
        size_t n = s->clients.nmounts;
        int dir = records_open_readonly(s->p);

        s->records = calloc(n + 1, sizeof(*s->records));
        s->facts = calloc(n + 1, sizeof(*s->facts));
        if (!s->records || !s->facts) {
                if (dir >= 0)
                        close(dir);
                return -ENOMEM;
        }
        for (size_t i = 0; i < n; i++) {
                const struct nfs_mount *m = &s->clients.mounts[i];
                struct status_facts *f = &s->facts[i];
                unsigned long ra;
                if (dir >= 0 && record_read_at(dir, m->target, &s->records[i]) == 0)
                        f->record = &s->records[i];
                f->fstab_options = fstab_options_of(s, m->target);
                f->xprts = mountstats_take(&s->stats, m->target);
                f->ra_now = bdi_get_read_ahead(s->p, m->dev, &ra) == 0 ? (long)ra : -1;
        }
        if (dir >= 0)
                close(dir);
        return 0;
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
        size_t nrules = 0, nnmc = 0;
        int r;

        if ((r = load_udev_rules(s->p, NULL, &rules, &nrules)) == 0)
                r = status_check_udev(rules, nrules, &s->rep);
        udev_rules_free(rules, nrules);
        if (r == 0 && (r = load_nfsmount_conf(s->p, &nmc, &nnmc)) == 0)
                for (size_t i = 0; i < nnmc && r == 0; i++)
                        r = status_check_nfsmount_conf(nmc[i].path, nmc[i].text, &s->rep);
        text_files_free(nmc, nnmc);
        return r;
}

static int config_findings(struct status_ctx *s)
{
        int r = 0;

        for (size_t i = 0; i < s->conf.nerrors && r == 0; i++)
                r = status_add_finding(&s->rep, SEV_WARNING, F_CONFIG_ERROR, NULL, "%s",
                                       s->conf.errors[i]);
        return r;
}

/* Everything read, decided and reported; -errno only for what makes the report wrong. */
static int status_run(struct status_ctx *s)
{
        struct nfsfs_status nfsfs = { 0 };
        long page = sysconf(_SC_PAGESIZE);
        int r;

        /* as the mount path: a root run trusts only root's files */
        if (load_config(s->p->vendor_config, s->p->config, geteuid() == 0, &s->conf) < 0)
                return -ENOMEM;
        r = load_clients(s->p, NULL, &s->clients, NULL, NULL, &nfsfs);
        if (r < 0) {
                log_error("cannot read the mount table %s: %s", s->p->mountinfo, strerror(-r));
                return r;
        }
        if (nfsfs.error)
                log_warning("cannot read %s/servers: %s; clients of other mount namespaces are "
                            "not listed", s->p->nfsfs, strerror(-nfsfs.error));
        if ((r = load_mountstats(s->p, &s->stats)) < 0 && r != -ENOMEM)
                log_warning("cannot read %s: %s; live connections (XPRTS) not known",
                            s->p->mountstats, strerror(-r));
        if (r == -ENOMEM || load_fstab_nfs(s->p, &s->fstab, &s->nfstab) < 0 ||
            gather_facts(s) < 0 || resolve_fstab(s) < 0)
                return -ENOMEM;
        if (status_analyse_mounts(&s->clients, s->facts, &s->conf,
                                  page > 0 ? (unsigned long)page / 1024 : 4, &s->rep) < 0 ||
            config_findings(s) < 0 ||
            status_check_fstab(s->fstab, s->nfstab, &s->conf, &s->rep) < 0 || check_host(s) < 0)
                return -ENOMEM;
        return 0;
}

int cmd_status(const struct status_opts *o, const struct paths *p)
{
        struct status_ctx s = { .p = p };
        int r = status_run(&s);

        if (r == -ENOMEM)
                log_error("out of memory");
        if (r < 0 && o->prometheus)
                (void)status_write_prometheus(o->prometheus, NULL, NULL);
        else if (o->prometheus)
                r = status_write_prometheus(o->prometheus, &s.rep, &s.clients);
        else if (r == 0)
                r = status_print(o, &s.rep, &s.clients);
        int rc = r < 0 ? STATUS_EX_ERROR : s.rep.nfindings ? STATUS_EX_FINDINGS : STATUS_EX_CLEAN;
        status_ctx_done(&s);
        return rc;
}
