/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The mount verb: one context carried through named stages (as nfs-utils' stropts.c passes
 * its nfsmount_info), each a short function with one job.  The core decides; sys/ fetches;
 * this file and cmd/mount-report.c print.
 */
#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "config-build.h"
#include "cmd/mount.h"
#include "cmd/survey.h"
#include "core/fstab.h"
#include "core/udevrule.h"
#include "core/verdict.h"
#include "core/optmap.h"
#include "core/opts.h"
#include "core/record.h"
#include "core/verify.h"
#include "shared/log.h"
#include "sys/bdi.h"
#include "sys/creds.h"
#include "sys/hostfiles.h"
#include "sys/mounttable.h"
#include "sys/rpcrtt.h"
#include "sys/record.h"

/* How long to wait for udev to finish the new bdi's add event before writing anyway. */
#define UDEV_WAIT_MS 5000

enum stage_result { STAGE_NEXT, STAGE_STOP };

static enum stage_result stop(struct mount_ctx *m, int rc)
{
        m->rc = rc;
        return STAGE_STOP;
}

static enum stage_result oom(struct mount_ctx *m)
{
        log_error("out of memory");
        return stop(m, MNT_EX_SYSERR);
}

static int enter_namespace(struct paths *p, const char *ns)
{
        char path[PATH_MAX];
        int r;

        if ((r = paths_hold_root(p)) < 0) {
                log_error("cannot open /: %s", strerror(-r));
                return r;
        }
        if ((r = paths_enter_mount_ns(ns, path)) < 0)
                log_error("cannot enter the mount namespace %s: %s", path, strerror(-r));
        return r;
}

/* The fstab entry that lets a user make this mount, found as root reads fstab (sys/chase.c). */
static int find_user_entry(struct mount_ctx *m, bool *ret_found)
{
        const struct cmdline *cl = m->env->cl;
        struct read_errors errs = { 0 }; /* an fstab that cannot be used has no entry */
        struct fstab_nfs *tab = NULL;
        size_t n = 0;
        int r = load_fstab_nfs(m->env->paths, true, &tab, &n, &errs);
        const struct fstab_nfs *e = r < 0 ? NULL
                                          : fstab_user_entry(tab, n, cl->spec, cl->dir,
                                                             cl->v4_by_name);

        *ret_found = e != NULL;
        if (e && fstab_allows_user(e->options) && !(m->fstab_options = strdup(e->options)))
                r = -ENOMEM;
        fstab_nfs_free(tab, n);
        read_errors_done(&errs);
        return r;
}

/*
 * A user's setuid run mounts only what fstab lets users mount, as nfs-utils' mount.nfs, and
 * is refused before any configuration is read: what root's files set for a server is not
 * anyone's to probe with -f -v.
 */
static enum stage_result allow_user_mount(struct mount_ctx *m)
{
        const char *fstab = m->env->paths->fstab, *dir = m->env->cl->dir;
        bool found = false;

        if (find_user_entry(m, &found) == -ENOMEM)
                return oom(m);
        if (m->fstab_options)
                return STAGE_NEXT;
        if (!found)
                log_error("permission denied: no match for %s found in %s (a user may mount "
                          "only an entry there with this mount point, this spec, type %s and "
                          "the option user or users)",
                          dir, fstab, m->env->cl->v4_by_name ? "nfs4" : "nfs");
        else
                log_error("permission denied: the %s entry for %s has neither user nor users: "
                          "only root may mount it",
                          fstab, dir);
        return stop(m, MNT_EX_USAGE);
}

/* A user runs the helper and it is not setuid root: what it runs could not mount as root
 * either (the package takes the bit from the real mount.nfs), so it says why, as nfs-utils'
 * mount.nfs does. A dry run says what it would do; a stand-in named by NFS_TUNED_MOUNT_NFS
 * (a test's) runs as the caller. */
static bool user_mount_off(const struct cmd_env *env)
{
        return !creds_caller_is_root() && !creds_effective_root() && !env->cl->fake &&
               strcmp(env->paths->mount_nfs, MOUNT_NFS_PATH) == 0;
}

/* The configuration and the program come from the caller's file system, read before -N
 * switches to the target mount namespace; every path after it is resolved under the caller's
 * root (paths.rootfd). */
static enum stage_result mount_open(struct mount_ctx *m)
{
        const struct cmdline *cl = m->env->cl;
        int rc;

        if (user_mount_off(m->env)) {
                log_error("not installed setuid: \"user\" NFS mounts are off on this host; an "
                          "administrator turns them on by making %s setuid root (see USER "
                          "MOUNTS in mount.nfs-tuned(8))",
                          HELPER_PATH);
                return stop(m, MNT_EX_FAIL);
        }
        if (cl->ns && creds_privileged_exec()) {
                /* a setuid helper must not enter namespaces for its caller */
                log_error("-N is only for root: mount(8) passes it for root's mounts");
                return stop(m, MNT_EX_USAGE);
        }
        if (creds_untrusted_caller() && allow_user_mount(m) != STAGE_NEXT)
                return STAGE_STOP;
        if ((rc = open_config_and_program(m->env, &m->conf, &m->prog)) != MNT_EX_SUCCESS)
                return stop(m, rc);
        print_config_errors(&m->conf, "fix them: mount.nfs-tuned --check-config");
        if (creds_untrusted_caller() && m->conf.nunread) {
                /* root reads every file; what it could not read (the user's own limits, as
                 * RLIMIT_NOFILE) would leave the admin's policies out of a user's mount */
                log_error("%zu configuration file%s or director%s could not be read: a user's "
                          "mount is not made without the whole configuration",
                          m->conf.nunread, m->conf.nunread == 1 ? "" : "s",
                          m->conf.nunread == 1 ? "y" : "ies");
                return stop(m, MNT_EX_SYSERR);
        }
        if (!cl->ns)
                return STAGE_NEXT;
        return enter_namespace(m->env->paths, cl->ns) < 0 ? stop(m, MNT_EX_SYSERR) : STAGE_NEXT;
}

/* Bad helper keys on the command line: exit 1, before anything is done. */
static enum stage_result refuse_settings(struct mount_ctx *m, const struct merged_opt *bad)
{
        if (optdef_find(bad->opt.name)->flags & OPTF_NO_CMDLINE)
                log_error("%s cannot be given on the command line: it names the program run as "
                          "root; set it in [global] of %s",
                          bad->opt.name, m->env->paths->config);
        else {
                char why[512];
                opt_describe_invalid(why, sizeof(why), bad->opt.name, bad->opt.value,
                                     " on the command line");
                log_error("%s", why);
        }
        return stop(m, MNT_EX_USAGE);
}

/* The request: the options as they would reach mount.nfs before any policy. */
static enum stage_result read_request(struct mount_ctx *m)
{
        const struct opt *bad = NULL;

        if (plan_options(&m->merged, NULL, &m->requested) < 0)
                return oom(m);
        if (nfs_request_parse(&m->requested, m->env->cl->v4_by_name, &m->req, &bad) == 0)
                return STAGE_NEXT;
        const struct merged_opt *src;
        char where[PATH_MAX + 32] = " (from the command line)", why[PATH_MAX + 512];
        if (merged_origin(&m->merged, bad->name, &src) == ORIGIN_CONFIG)
                snprintf(where, sizeof(where), " (from %s:%u)", src->from->file, src->line);
        opt_describe_invalid(why, sizeof(why), bad->name, bad->value, where);
        log_error("refusing to mount: %s", why);
        return stop(m, MNT_EX_FAIL);
}

/* A user's setuid run: the admin's policies are not theirs to loosen (plan.h); the helper's
 * keys come from the fstab entry that allowed the mount (allow_user_mount()), and so do the
 * options it is checked on: mount.nfs takes a user's options from there, not from -o, so the
 * kernel gets those whatever -o said. */
static int take_user_options(struct mount_ctx *m)
{
        _cleanup_(optlist_done) struct optlist f = { 0 }, dropped = { 0 }, user = { 0 };

        if (m->fstab_options && optlist_parse(&f, m->fstab_options) == -ENOMEM)
                return -ENOMEM;
        if (plan_drop_untrusted(&m->cmdopts, &f, &dropped) < 0)
                return -ENOMEM;
        for (size_t i = 0; i < dropped.n; i++)
                log_warning("%s%s%s on the command line not used: a user's mount takes the "
                            "helper's own keys only from its %s entry (or from %s)",
                            dropped.v[i].name, dropped.v[i].value ? "=" : "",
                            dropped.v[i].value ? dropped.v[i].value : "", m->env->paths->fstab,
                            m->env->paths->config);
        if (!m->fstab_options)
                return 0;
        if (plan_user_options(&m->cmdopts, &f, &user) < 0)
                return -ENOMEM;
        log_info("options: those of the %s entry (%s), which mount.nfs takes for a user",
                 m->env->paths->fstab, m->fstab_options);
        optlist_done(&m->cmdopts);
        m->cmdopts = user;
        user = (struct optlist){ 0 };
        return 0;
}

/* Spec, mount point, options, addresses, the merged configuration, the request. */
static enum stage_result mount_prepare(struct mount_ctx *m)
{
        const struct cmdline *cl = m->env->cl;
        const struct merged_opt *bad = NULL;
        int r;

        if (nfs_spec_parse(cl->spec, &m->spec) < 0) {
                log_error("'%s' is not a remote file system: write host:/path or "
                          "[IPv6-address]:/path",
                          cl->spec);
                return stop(m, MNT_EX_USAGE);
        }
        /* mountinfo shows the canonical path; mount.nfs canonicalizes too */
        if (!(m->dir = paths_canonical_as_caller(cl->dir)) && !(m->dir = strdup(cl->dir)))
                return oom(m);
        if (paths_mount_id_as_caller(m->dir, &m->dir_parent) < 0)
                m->dir_parent = -1; /* no fdinfo: the path alone */
        if ((r = optlist_parse(&m->cmdopts, cl->opts)) < 0) {
                if (r == -ENOMEM)
                        return oom(m);
                log_error("cannot parse the options '%s': check quotes and commas", cl->opts);
                return stop(m, MNT_EX_USAGE);
        }
        if (creds_untrusted_caller() && take_user_options(m) < 0)
                return oom(m);
        m->naddrs = resolve_host(m->spec.host, AF_UNSPEC, m->addrs);
        if (m->naddrs < 0) {
                log_warning("cannot resolve %s (%s): no client check; mount.nfs decides",
                            m->spec.host, resolve_strerror(m->naddrs));
                m->naddrs = 0;
        }
        struct match_input in = { m->spec.host, m->addrs, (size_t)m->naddrs, m->dir };
        if (config_merge(&m->conf, &m->cmdopts, &in, cl->v4_by_name, &m->merged) < 0)
                return oom(m);
        if (plan_settings(&m->merged, &m->set, &bad) < 0)
                return refuse_settings(m, bad);
        if (read_request(m) != STAGE_NEXT)
                return STAGE_STOP;
        /* the address mount.nfs uses: the first of the family proto= allows */
        for (int i = 0; i < m->naddrs && !m->primary; i++)
                if (m->req.family == AF_UNSPEC || m->addrs[i].family == m->req.family)
                        m->primary = &m->addrs[i];
        return STAGE_NEXT;
}

/* The clients and superblocks that exist, read with no lock (cmd/mount-claim.c says why). */
static enum stage_result mount_survey(struct mount_ctx *m)
{
        return mount_scan(m) < 0 ? oom(m) : STAGE_NEXT;
}

/* Which client the mount will share (or another helper is creating now), the policies'
 * verdict, and what to say about it. */
static enum stage_result mount_decide(struct mount_ctx *m)
{
        if (mount_decide_verdict(m) < 0 || mount_claim(m) < 0)
                return oom(m);
        if (verdict_nconnect_finding(&m->verdict, &m->clients, &m->findings) < 0 ||
            verdict_names_finding(&m->verdict, &m->clients, m->spec.host, &m->findings) < 0 ||
            verdict_krb5_finding(&m->verdict, &m->clients, &m->req, &m->findings) < 0 ||
            verdict_tls_finding(&m->verdict, &m->clients, &m->req, &m->findings) < 0)
                return oom(m);
        if (log_verbose() && report_plan(m) < 0)
                return oom(m);
        print_findings(&m->findings);
        report_verdict(m);
        if (m->verdict.nconnect == ACTION_REFUSE || m->verdict.krb5 == ACTION_REFUSE ||
            m->verdict.tls == ACTION_REFUSE)
                return stop(m, MNT_EX_FAIL);
        return STAGE_NEXT;
}

static int run_status_to_exit(const struct program *prog, int r, const struct run_status *st)
{
        if (r < 0) {
                log_error("cannot run %s: %s", program_name(prog), strerror(-r));
                return MNT_EX_SYSERR;
        }
        if (!st->signal)
                return st->exit_status;
        log_error("%s was killed by signal %d (%s)", program_name(prog), st->signal,
                  strsignal(st->signal));
        /* ^C: mount(8)'s "user interrupt" */
        return st->signal == SIGINT ? MNT_EX_USER : MNT_EX_SYSERR;
}

/* Why the read-ahead is written at once or after udev's event, for -v. */
static void describe_udev(struct mount_ctx *m, bool sees, enum udev_rule_state st, const char *path)
{
        char *b = m->ra_udev_why;
        size_t n = sizeof(m->ra_udev_why);

        if (m->ra_udev == READ_AHEAD_UDEV_NONE)
                snprintf(b, n, "udev is not running: written at once");
        else if (m->ra_udev == READ_AHEAD_UDEV_RULE)
                snprintf(b, n,
                         "udev's rule %s writes the same value last in the bdi's event "
                         "(after nfs-utils' nfsrahead): written at once, no wait for udev",
                         path);
        else if (m->set.read_ahead.kind == READ_AHEAD_AUTO)
                snprintf(b, n,
                         "read_ahead_kb = auto is sized from the round trip measured once "
                         "mounted: written after udev's bdi event");
        else if (!sees)
                snprintf(b, n,
                         "udev runs in other namespaces than this mount (%s), where its "
                         "rule may not find it: written after udev's bdi event",
                         m->env->paths->udev_ns);
        else
                snprintf(b, n,
                         "nfs-tuned's udev rule %s %s%s%s%s: written after udev's bdi "
                         "event (nfs-utils' nfsrahead)",
                         NFS_TUNED_UDEV_RULE, udev_rule_state_to_string(st), path ? " (" : "",
                         path ? path : "", path ? ")" : "");
}

/*
 * Before mount.nfs: whether the new bdi's read-ahead waits for udev (DESIGN.md "After
 * mount.nfs succeeds").  A wait listens before the superblock exists: its event cannot be
 * missed.  -ENOMEM.
 */
static int read_ahead_udev_prepare(struct mount_ctx *m)
{
        const struct paths *p = m->env->paths;
        struct udev_rule_file *rules = NULL;
        const char *path = NULL;
        enum udev_rule_state st = UDEV_RULE_ABSENT;
        size_t n = 0;

        if (m->set.read_ahead.kind == READ_AHEAD_KEEP)
                return 0;
        bool running = paths_exists(p, p->udev_control);
        bool sees = running && bdi_udev_shares_namespaces(p);
        if (sees) {
                struct read_errors errs = { 0 };
                int r = load_udev_rules(p, NFS_TUNED_UDEV_RULE, &rules, &n, &errs);
                /* a rule directory it cannot read may hold a later writer: wait, as without */
                bool whole = errs.n == 0;
                read_errors_done(&errs);
                if (r == -ENOMEM)
                        return -ENOMEM;
                st = whole ? udev_rule_state(rules, n, &path) : UDEV_RULE_ABSENT;
        }
        m->ra_udev = read_ahead_udev_decide(running, st == UDEV_RULE_LAST, sees,
                                            m->set.read_ahead.kind == READ_AHEAD_AUTO);
        describe_udev(m, sees, st, path);
        udev_rules_free(rules, n);
        if (m->ra_udev != READ_AHEAD_UDEV_WAIT || m->env->cl->fake)
                return 0;
        int r = bdi_watch_start(p, &m->watch);
        if (r == -ENOMEM)
                return r;
        /* the package depends on libudev1: without it the install is broken, said as such */
        if (r == -ELIBACC)
                log_warning("cannot wait for udev's bdi event: %s cannot be loaded (install "
                            "libudev1 or systemd-libs); read_ahead_kb is written at once after the "
                            "mount, and udev's rules may overwrite it",
                            LIBUDEV_SONAME);
        else if (r < 0)
                log_info("read-ahead: cannot listen for udev's bdi events (%s): written at once "
                         "after the mount, and udev's rules may overwrite it",
                         strerror(-r));
        return 0;
}

/* The final options and argv; the real mount.nfs runs (not with -f). */
static enum stage_result mount_exec(struct mount_ctx *m)
{
        _cleanup_free_ char *opts = NULL;
        struct run_status st;
        int rc, r;

        if (plan_options(&m->merged, &m->verdict, &m->final) < 0 ||
            !(opts = optlist_to_string(&m->final)) || plan_argv(m->env->cl, opts, &m->argv) < 0)
                return oom(m);
        if (log_verbose() && report_exec(m) < 0)
                return oom(m);
        if (read_ahead_udev_prepare(m) < 0)
                return oom(m);
        if (m->set.read_ahead.kind != READ_AHEAD_KEEP)
                log_info("read-ahead: %s", m->ra_udev_why);
        if (m->env->cl->fake)
                return stop(m, MNT_EX_SUCCESS);
        if ((rc = check_program(&m->prog, m->env->paths->config)) != MNT_EX_SUCCESS)
                return stop(m, rc);
        mount_leave_record(m);
        r = program_run(&m->prog, m->argv, &st);
        /* the client exists now (its mountinfo line shows it), or it was not made */
        mount_claim_drop(m);
        rc = run_status_to_exit(&m->prog, r, &st);
        return rc == MNT_EX_SUCCESS ? STAGE_NEXT : stop(m, rc);
}

/*
 * A mount that asked for TLS and got less, under tls_policy = refuse: the real umount.nfs
 * unmounts it (mount.nfs by that name, as umount(8) would run it), so that no further request
 * goes in plain text, and the mount fails.  Its record goes with it.
 */
static enum stage_result unmount_lacking_tls(struct mount_ctx *m)
{
        char *argv[] = { m->newm.vers.major == 4 ? "umount.nfs4" : "umount.nfs", m->dir, NULL };
        struct run_status st;
        int r = program_run(&m->prog, argv, &st);
        int rc = run_status_to_exit(&m->prog, r, &st);

        if (rc != MNT_EX_SUCCESS)
                log_error("cannot unmount %s (%s %s exited %d): it stays mounted without the TLS "
                          "it asked for; unmount it: umount %s",
                          m->dir, program_name(&m->prog), argv[0], rc, m->dir);
        else
                log_error("unmounted %s: it did not get the TLS it asked for", m->dir);
        /* as mount_leave_record(): only root's run left one */
        if (!m->env->cl->fake && creds_caller_is_root())
                (void)record_remove(m->env->paths, m->dir);
        return stop(m, MNT_EX_FAIL);
}

/* What the kernel really did, against the plan: warnings, the mount stays, but for a TLS mount
 * that runs with less than it asked under tls_policy = refuse. */
static enum stage_result mount_verify(struct mount_ctx *m)
{
        struct findings f = { 0 };
        /* by what mount.nfs made, not by the path alone: a link swapped meanwhile may have
         * sent it elsewhere, and another new superblock be on this path */
        int r = find_mount(m->env->paths, m->dir, m->dir_parent, &m->newm);

        if (r < 0) {
                if (opt_bg(&m->final))
                        /* mount.nfs went on retrying in the background */
                        log_info(
                                "bg: the mount is not there yet; not verified, read-ahead not set");
                else
                        log_warning("mounted, but no NFS mount on %s shows in %s: not verified",
                                    m->dir, m->env->paths->mountinfo);
                return STAGE_STOP;
        }
        /* the survey read only the planned address; the kernel may have used another (NFSv4
         * trunking): then the clients of that one, less the new mount, are what it found */
        const struct clients *before = &m->clients;
        struct clients other = { 0 };
        struct nfsfs_status st;
        if (m->primary && !nfs_addr_equal(&m->newm.addr, m->primary) &&
            survey_clients(m->env->paths, &(struct scan_filter){ &m->newm.addr, 1, m->newm.id },
                           &other, NULL, NULL, &st) == 0)
                before = &other;
        struct verify_result v = verify_mount(&m->newm, &m->verdict, m->primary, before,
                                              m->set.tls_policy);
        r = verify_findings(&v, m->dir, &m->newm, m->primary, before, &f);
        print_findings(&f);
        findings_done(&f);
        clients_done(&other);
        if (r < 0)
                log_warning("out of memory while verifying %s", m->dir);
        if (v.unmount)
                return unmount_lacking_tls(m);
        mount_record_add_dev(m);
        return STAGE_NEXT;
}

/* read_ahead_kb = auto: the new mount's round trip so far (mountstats' per-op figures), in
 * microseconds; 0 when none is known (said why). */
static unsigned long mount_rtt_us(struct mount_ctx *m)
{
        struct rpc_rtt rtt = { 0 };
        unsigned long us = 0;
        int r = read_rpc_rtt(m->env->paths, m->dir, &rtt);

        if (r < 0 && r != -ESRCH)
                log_info("read-ahead: auto: cannot read %s (%s): no round trip known",
                         m->env->paths->mountstats, strerror(-r));
        else if (!rtt.ops)
                log_info("read-ahead: auto: %s shows no RPC of %s yet: no round trip known",
                         m->env->paths->mountstats, m->dir);
        else {
                us = read_ahead_rtt_us(rtt.ops, rtt.rtt_ms, rtt.kinds);
                log_info("read-ahead: auto: round trip %lu.%03lu ms (%llu RPCs, %llu ms in "
                         "all), bandwidth %lu MiB/s%s",
                         us / 1000, us % 1000, (unsigned long long)rtt.ops,
                         (unsigned long long)rtt.rtt_ms, m->set.read_ahead.bw,
                         merged_find(&m->merged, "read_ahead_bandwidth")
                                 ? " (read_ahead_bandwidth)"
                                 : " (the default; read_ahead_bandwidth sets it)");
        }
        return us;
}

/* Only a new superblock has a bdi of its own; a failure is a warning, the mount stays. */
static enum stage_result mount_read_ahead(struct mount_ctx *m)
{
        bool is_auto = m->set.read_ahead.kind == READ_AHEAD_AUTO;
        struct read_ahead_plan plan = read_ahead_plan(&m->set.read_ahead, m->newm.dev,
                                                      m->newm.rsize, m->newm.nconnect, 0, m->sbs,
                                                      m->nsbs);
        unsigned maj = major(m->newm.dev), min = minor(m->newm.dev);
        unsigned long old = 0, now = 0, page_kb = bdi_page_kb(), rtt = 0;
        long waited = 0;
        int r;

        if (plan.step == READ_AHEAD_LEAVE)
                return STAGE_NEXT;
        if (is_auto && plan.step == READ_AHEAD_WRITE) {
                rtt = mount_rtt_us(m);
                plan = read_ahead_plan(&m->set.read_ahead, m->newm.dev, m->newm.rsize,
                                       m->newm.nconnect, rtt, m->sbs, m->nsbs);
                if (rtt)
                        log_info("read-ahead: auto: %lu KiB (bandwidth x round trip + nconnect %u "
                                 "x rsize, to a power of two, between %lu and %lu KiB)",
                                 plan.kb, m->newm.nconnect ? m->newm.nconnect : 1,
                                 READ_AHEAD_AUTO_MIN, m->set.read_ahead.n);
                else
                        log_info("read-ahead: auto: %lu KiB, its largest window (auto:MAX), "
                                 "as no round trip is known",
                                 plan.kb);
                mount_record_add_rtt(m, rtt);
        }
        if (plan.step == READ_AHEAD_SHARED) {
                log_info("read-ahead: %s shares the superblock (bdi %u:%u) of an earlier mount; "
                         "its read-ahead is left alone",
                         m->dir, maj, min);
                return STAGE_NEXT;
        }
        /* after udev's own rules (nfs-utils' nfsrahead) for this bdi, so they cannot undo it;
         * or at once, when nfs-tuned's rule has the last word there */
        if (m->watch && (r = bdi_watch_wait(m->watch, m->newm.dev, UDEV_WAIT_MS, &waited)) < 0)
                log_warning(
                        "udev did not report bdi %u:%u within %d ms (%s); writing read_ahead_kb "
                        "now, a udev rule may still overwrite it",
                        maj, min, UDEV_WAIT_MS, strerror(-r));
        else if (m->watch)
                log_info("read-ahead: udev finished bdi %u:%u's event after %ld ms", maj, min,
                         waited);
        r = bdi_set_read_ahead(m->env->paths, m->newm.dev, plan.kb, &old, &now);
        /* udev's event for the bdi runs nfsrahead's one write and then nfs-tuned's rule: read
         * between the two, the value is nfsrahead's for a moment. Written once more, it reads
         * back unless something else writes it (then the warning below). */
        if (r == 0 && !read_ahead_readback_ok(plan.kb, now, page_kb)) {
                log_info("read-ahead: bdi %u:%u read_ahead_kb reads %lu right after writing %lu "
                         "(a udev rule wrote it meanwhile); writing it again",
                         maj, min, now, plan.kb);
                r = bdi_set_read_ahead(m->env->paths, m->newm.dev, plan.kb, NULL, &now);
        }
        if (r < 0)
                log_warning("mounted, but cannot set read_ahead_kb of bdi %u:%u to %lu: %s; the "
                            "mount keeps the kernel's value",
                            maj, min, plan.kb, strerror(-r));
        else if (!read_ahead_readback_ok(plan.kb, now, page_kb))
                log_warning("read_ahead_kb of bdi %u:%u reads %lu after writing %lu twice: "
                            "something else writes it (a udev rule, a tuning tool); `nfs-tuned "
                            "status` shows the value that stays",
                            maj, min, now, plan.kb);
        else
                log_info("read-ahead: bdi %u:%u read_ahead_kb %lu -> %lu", maj, min, old, now);
        return STAGE_NEXT;
}

static void mount_ctx_done(struct mount_ctx *m)
{
        mount_claim_drop(m);
        if (m->recordfd >= 0)
                close(m->recordfd);
        if (m->rundir >= 0)
                close(m->rundir);
        bdi_watch_free(m->watch);
        plan_argv_free(m->argv);
        free(m->sbs);
        nfs_mount_done(&m->newm);
        findings_done(&m->findings);
        client_match_done(&m->match);
        clients_done(&m->clients);
        merged_done(&m->merged);
        optlist_done(&m->final);
        optlist_done(&m->requested);
        optlist_done(&m->cmdopts);
        free(m->dir);
        free(m->fstab_options);
        nfs_spec_done(&m->spec);
        program_close(&m->prog);
        config_done(&m->conf);
}

int cmd_mount(const struct cmd_env *env)
{
        static enum stage_result (*const stages[])(struct mount_ctx *) = {
                mount_open, mount_prepare, mount_survey,     mount_decide,
                mount_exec, mount_verify,  mount_read_ahead,
        };
        struct mount_ctx m = { .env = env,
                               .rc = MNT_EX_SUCCESS,
                               .claimfd = -1,
                               .claimdir = -1,
                               .recordfd = -1,
                               .rundir = -1,
                               .dir_parent = -1,
                               .prog.fd = -1 };

        for (size_t i = 0; i < ELEMENTSOF(stages); i++)
                if (stages[i](&m) != STAGE_NEXT)
                        break;
        mount_ctx_done(&m);
        return m.rc;
}
