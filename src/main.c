/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mount.nfs-tuned: a mount helper in front of nfs-utils' mount.nfs that knows the kernel
 * shares one NFS client (and its nconnect) between every mount of a server endpoint.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sys/bdi.h"
#include "core/clients.h"
#include "core/cmdline.h"
#include "config-build.h"
#include "core/config.h"
#include <libmount.h>
#include "sys/lock.h"
#include "shared/macro.h"
#include "sys/paths.h"
#include "core/optmap.h"
#include "core/plan.h"
#include "core/policy.h"
#include "shared/log.h"
#include "core/request.h"
#include "sys/resolve.h"
#include "sys/program.h"
#include "core/spec.h"
#include "sys/mounttable.h"

/* How long to wait for udev to finish the new bdi's add event before writing anyway. */
#define UDEV_WAIT_MS 5000

static void usage(FILE *f)
{
        fprintf(f,
                "Usage: mount.nfs-tuned remotetarget dir [-s] [-f] [-n] [-v] [-r] [-w] [-o options]\n"
                "                       [-t nfs|nfs4] [-N namespace]\n"
                "       mount.nfs-tuned --check-config | -h | -V\n"
                "\n"
                "Runs the real mount.nfs with defaults from %s, after checking\n"
                "that the requested nconnect and sec=krb5* can take effect on the NFS client the\n"
                "mount will share, and sets the new mount's read-ahead.\n"
                "\n"
                "  -f   dry run: decide everything, print the plan with -v, do not mount\n"
                "  -v   verbose: the endpoint, the clients found, the verdict, the exec line\n"
                "  -s -n -r -w   passed to mount.nfs\n"
                "See mount.nfs-tuned(8) and nfs-tuned.conf(5).\n",
                CONFIG_PATH);
}

static int enter_namespace(const char *ns)
{
        char path[PATH_MAX];
        const char *p = ns;
        unsigned long pid;

        if (parse_uint(ns, 1, INT_MAX, &pid) == 0) {
                snprintf(path, sizeof(path), "/proc/%lu/ns/mnt", pid);
                p = path;
        }
        _cleanup_(closep) int fd = open(p, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || setns(fd, CLONE_NEWNS) < 0) {
                int r = -errno;
                log_error("cannot enter the mount namespace %s: %s", p, strerror(-r));
                return r;
        }
        return 0;
}

static void report_config_errors(const struct config *c)
{
        for (size_t i = 0; i < c->nerrors; i++)
                log_warning("%s", c->errors[i]);
}

static int check_program(const struct program *prog, const char *config)
{
        int r = program_check(prog);

        if (r == -ELOOP) {
                log_error("refusing to run %s: it is this helper itself, a divert loop (installed "
                          "in place of mount.nfs without the real one moved aside?); set mount_nfs in [global] "
                          "of %s to the real binary, e.g. /sbin/mount.nfs.distrib", prog->path, config);
                return MNT_EX_SYSERR;
        }
        if (r == -ENOEXEC) {
                log_error("cannot run the real mount.nfs %s: not a regular file; set mount_nfs in "
                          "[global] of %s to the real binary", prog->path, config);
                return MNT_EX_SYSERR;
        }
        if (r < 0) {
                log_error("cannot run the real mount.nfs %s: %s; install nfs-common (nfs-utils) "
                          "or set mount_nfs in [global] of %s", prog->path, strerror(-r), config);
                return MNT_EX_SYSERR;
        }
        return MNT_EX_SUCCESS;
}

static int do_umount(char **argv, const struct paths *p, const struct program *prog)
{
        int r = check_program(prog, p->config);
        if (r != MNT_EX_SUCCESS)
                return r;
        /* unchanged, argv[0] included: mount.nfs acts on its name */
        r = program_exec(prog, argv);
        log_error("cannot run %s: %s", prog->path, strerror(-r));
        return MNT_EX_SYSERR;
}

static int do_check_config(const struct paths *p)
{
        struct config conf = { 0 };
        /* owner checks always: report what a root mount would refuse */
        int r = load_config(p->config, true, &conf);

        for (size_t i = 0; i < conf.nerrors; i++)
                fprintf(stderr, "%s\n", conf.errors[i]);
        if (r == 0 && conf.nerrors == 0)
                printf("%s: %zu section%s, no problems\n", p->config, conf.n, conf.n == 1 ? "" : "s");
        r = r < 0 || conf.nerrors ? MNT_EX_USAGE : MNT_EX_SUCCESS;
        config_done(&conf);
        return r;
}

static void print_plan_clients(const struct clients *c, const struct nfs_addr *addr,
                               const struct nfs_request *req, const struct client_match *m)
{
        size_t shown = 0;
        for (size_t i = 0; i < c->n; i++) {
                const struct nfs_client *cl = &c->v[i];
                if (!nfs_addr_equal(&cl->key.addr, addr))
                        continue;
                _cleanup_free_ char *d = client_describe(cl), *ms = client_mounts_describe(cl, c);
                char nc[32];
                if (cl->hidden)
                        snprintf(nc, sizeof(nc), "nconnect unknown");
                else
                        snprintf(nc, sizeof(nc), "nconnect=%u", cl->nconnect);
                bool same_port = client_endpoint_equal(&cl->key, req, addr);
                log_info("client: %s: %s, %s%s", d ? d : "?", nc, ms ? ms : "?",
                         cl == m->client ? " <- this mount shares it" :
                         cl->other_netns ? " (made from another network namespace: separate)" :
                         !same_port ? " (other port, protocol or TLS policy: separate)" : "");
                shown++;
        }
        if (!shown)
                log_info("client: none to this address: the mount creates a new client");
}

static void print_plan(const struct cmdline *cl, int naddrs, const struct nfs_addr *addrs,
                       const struct nfs_addr *primary, const struct nfs_request *req,
                       const struct merged *merged, const struct clients *clients,
                       const struct client_match *match)
{
        char all[RESOLVE_MAX * (NFS_ADDR_STRLEN + 2)] = "", abuf[NFS_ADDR_STRLEN], vbuf[32];

        for (int i = 0; i < naddrs; i++) {
                strcat(all, i ? ", " : "");
                strcat(all, nfs_addr_to_string(&addrs[i], abuf));
        }
        log_info("endpoint: %s -> %s (mount.nfs uses %s), port %u, NFS%s%s over %s%s", cl->spec,
                 naddrs ? all : "unresolved", primary ? nfs_addr_to_string(primary, abuf) : "none",
                 req->port, req->vers.major ? "v" : " version ",
                 nfs_version_to_string(req->vers, vbuf, sizeof(vbuf)), req->transport,
                 streq(req->xprtsec, "none") ? "" : ", xprtsec");
        for (size_t i = 0; i < merged->napplied; i++) {
                const struct conf_section *s = merged->applied[i];
                log_info("config: %s:%u [%s%s%s%s] applies", s->file, s->line,
                         section_kind_to_string(s->kind), s->pattern ? " \"" : "",
                         s->pattern ? s->pattern : "", s->pattern ? "\"" : "");
        }
        for (size_t i = 0; i < merged->n; i++)
                if (merged->v[i].from)
                        log_info("config: %s%s%s from %s:%u", merged->v[i].opt.name,
                                 merged->v[i].opt.value ? "=" : "",
                                 merged->v[i].opt.value ? merged->v[i].opt.value : "",
                                 merged->v[i].from->file, merged->v[i].line);
        for (size_t i = 0; i < merged->nnotes; i++)
                log_info("config: %s", merged->notes[i]);
        if (primary)
                print_plan_clients(clients, primary, req, match);
}

static int print_exec(const struct program *prog, char **argv, const struct settings *set)
{
        size_t len = strlen(prog->path) + 1;
        for (char **a = argv + 1; *a; a++)
                len += strlen(*a) + 1;
        _cleanup_free_ char *line = malloc(len);
        if (!line)
                return -ENOMEM;
        char *q = stpcpy(line, prog->path);
        for (char **a = argv + 1; *a; a++)
                q += sprintf(q, " %s", *a);
        log_info("exec: %s (as %s)", line, argv[0]);
        if (set->read_ahead.kind == READ_AHEAD_KEEP)
                log_info("read-ahead: left alone (read_ahead_kb not set)");
        else if (set->read_ahead.kind == READ_AHEAD_KB)
                log_info("read-ahead: %lu KiB on the new superblock's bdi", set->read_ahead.n);
        else
                log_info("read-ahead: %lu x the effective rsize on the new superblock's bdi",
                         set->read_ahead.n);
        return 0;
}

/* What the kernel really did, against the plan: warnings only, the mount stays. */
static void verify_mount(const char *dir, const struct nfs_mount *newm, const struct verdict *v,
                         const struct nfs_addr *primary, const struct clients *clients)
{
        char abuf[NFS_ADDR_STRLEN], pbuf[NFS_ADDR_STRLEN], vbuf[32];
        /* a hidden client's nconnect is unknown, and following it drops the request */
        unsigned expect = v->effective                      ? v->effective :
                          v->sharing == SHARE_HIDDEN        ? 0 :
                                                              v->requested;
        const struct nfs_client *joined = NULL;
        struct client_key nk = client_key_of(newm);

        for (size_t i = 0; i < clients->n; i++)
                if (!clients->v[i].hidden && !clients->v[i].other_netns &&
                    client_key_equal(&clients->v[i].key, &nk))
                        joined = &clients->v[i];
        _cleanup_free_ char *ms = joined ? client_mounts_describe(joined, clients) : NULL;

        log_info("verified: %s is NFSv%s, server address %s, nconnect=%u, rsize=%lu, bdi %u:%u",
                 dir, nfs_version_to_string(newm->vers, vbuf, sizeof(vbuf)),
                 nfs_addr_to_string(&newm->addr, abuf), newm->nconnect, newm->rsize,
                 major(newm->dev), minor(newm->dev));
        if (expect && newm->nconnect != expect)
                log_warning("the kernel gave %s nconnect=%u, not the %u planned: %s%s%s", dir,
                            newm->nconnect, expect,
                            joined ? "it joined the existing client of " :
                                     "another mount of this server raced this one, or the "
                                     "negotiated version landed on an existing client",
                            ms ? ms : "", joined ? "; unmount those first to change it" : "");
        if (primary && !nfs_addr_equal(&newm->addr, primary))
                log_warning("the kernel uses server address %s for %s, not %s: %s%s",
                            nfs_addr_to_string(&newm->addr, abuf), dir,
                            nfs_addr_to_string(primary, pbuf),
                            joined ? "NFSv4 trunking found the same server and merged the mount "
                                     "into the existing client of " :
                                     "the server was reached through another address",
                            ms ? ms : "");
}

/* Only a new superblock has a bdi of its own; a failure is a warning, the mount stays. */
static void set_read_ahead(const struct paths *p, const char *dir, const struct nfs_mount *newm,
                           unsigned long kb, const dev_t *sbs, size_t nsbs,
                           struct bdi_watch *watch)
{
        unsigned maj = major(newm->dev), min = minor(newm->dev);
        unsigned long old = 0, now = 0, page_kb = (unsigned long)sysconf(_SC_PAGESIZE) / 1024;
        int r;

        for (size_t i = 0; i < nsbs; i++)
                if (sbs[i] == newm->dev) {
                        log_info("read-ahead: %s shares the superblock (bdi %u:%u) of an earlier "
                                 "mount; its read-ahead is left alone", dir, maj, min);
                        return;
                }
        /* after udev's own rules (nfs-utils' nfsrahead) for this bdi, so they cannot undo it */
        if (watch && (r = bdi_watch_wait(watch, newm->dev, UDEV_WAIT_MS)) < 0)
                log_warning("udev did not report bdi %u:%u within %d ms (%s); writing read_ahead_kb "
                            "now, a udev rule may still overwrite it", maj, min, UDEV_WAIT_MS,
                            strerror(-r));
        r = bdi_set_read_ahead(p, newm->dev, kb, &old, &now);
        if (r < 0)
                log_warning("mounted, but cannot set read_ahead_kb of bdi %u:%u to %lu: %s; the "
                            "mount keeps the kernel's value", maj, min, kb, strerror(-r));
        /* the kernel keeps whole pages */
        else if (now != kb && (page_kb == 0 || now != kb / page_kb * page_kb))
                log_warning("read_ahead_kb of bdi %u:%u reads %lu after writing %lu", maj, min,
                            now, kb);
        else
                log_info("read-ahead: bdi %u:%u read_ahead_kb %lu -> %lu", maj, min, old, now);
}

static int do_mount(const struct cmdline *cl, const struct paths *p, const struct config *conf,
                    const struct program *prog)
{
        struct nfs_spec spec = { 0 };
        struct optlist cmdopts = { 0 }, requested = { 0 }, final = { 0 };
        struct merged merged = { 0 };
        struct clients clients = { 0 };
        struct nfs_mount newm = { 0 };
        struct bdi_watch *watch = NULL;
        struct nfs_addr addrs[RESOLVE_MAX];
        const struct nfs_addr *primary = NULL;
        _cleanup_free_ char *dir = NULL, *opts = NULL, *ncmsg = NULL, *kmsg = NULL;
        _cleanup_(closep) int lockfd = -1;
        char **argv = NULL;
        dev_t *sbs = NULL;
        size_t nsbs = 0;
        char abuf[NFS_ADDR_STRLEN];
        int naddrs, rc = MNT_EX_SYSERR, r;

        if (nfs_spec_parse(cl->spec, &spec) < 0) {
                log_error("'%s' is not a remote file system: write host:/path or "
                          "[IPv6-address]:/path", cl->spec);
                rc = MNT_EX_USAGE;
                goto out;
        }
        /* mountinfo shows the canonical path; mount.nfs canonicalizes too */
        dir = realpath(cl->dir, NULL);
        if (!dir && !(dir = strdup(cl->dir)))
                goto oom;

        if ((r = optlist_parse(&cmdopts, cl->opts)) < 0) {
                if (r == -ENOMEM)
                        goto oom;
                log_error("cannot parse the options '%s': check quotes and commas", cl->opts);
                rc = MNT_EX_USAGE;
                goto out;
        }
        naddrs = resolve_host(spec.host, AF_UNSPEC, addrs);
        if (naddrs < 0) {
                log_warning("cannot resolve %s (%s): no client check; mount.nfs decides",
                            spec.host, resolve_strerror(naddrs));
                naddrs = 0;
        }

        struct match_input in = { spec.host, addrs, (size_t)naddrs, dir };
        if (config_merge(conf, &cmdopts, &in, cl->v4_by_name, &merged) < 0)
                goto oom;

        struct settings set;
        const struct merged_opt *bad = NULL;
        if (settings_from_merged(&merged, &set, &bad) < 0) {
                if (streq(bad->opt.name, "mount_nfs"))
                        log_error("mount_nfs cannot be given on the command line: it names the "
                                  "program run as root; set it in [global] of %s", p->config);
                else
                        log_error("%s=%s on the command line is not valid: it must be %s",
                                  bad->opt.name, bad->opt.value ? bad->opt.value : "",
                                  opt_hint(bad->opt.name));
                rc = MNT_EX_USAGE;
                goto out;
        }

        /* the request: options as they would reach mount.nfs before any policy */
        if ((r = plan_options(&merged, NULL, &requested)) < 0)
                goto oom;
        struct nfs_request req;
        const struct opt *badopt = NULL;
        if (nfs_request_parse(&requested, cl->v4_by_name, &req, &badopt) < 0) {
                const struct merged_opt *src = merged_find(&merged, badopt->name);
                char where[512] = "the command line";
                if (src && src->from)
                        snprintf(where, sizeof(where), "%s:%u", src->from->file, src->line);
                log_error("refusing to mount: %s=%s (from %s) is not valid: it must be %s",
                          badopt->name, badopt->value ? badopt->value : "", where,
                          opt_hint(badopt->name));
                rc = MNT_EX_FAIL;
                goto out;
        }

        for (int i = 0; i < naddrs && !primary; i++)
                if (req.family == AF_UNSPEC || addrs[i].family == req.family)
                        primary = &addrs[i];

        /* an unresolved name has nothing to serialise on: mount.nfs will fail or retry; a
         * user running the setuid helper must not hold root's lock */
        if (!cl->fake && primary && getuid() == 0) {
                r = lock_server(p, nfs_addr_to_string(primary, abuf), LOCK_WAIT_MS);
                if (r < 0)
                        log_warning("cannot lock %s/%s.lock: %s; going on without serialising "
                                    "with other mounts of this server", p->rundir, abuf,
                                    strerror(-r));
                lockfd = r;
        }

        r = load_clients(p, &clients);
        if (r == -ENOMEM)
                goto oom;
        if (r < 0)
                log_warning("cannot read the mount table %s: %s; no client check", p->mountinfo,
                            strerror(-r));
        if (load_superblocks(p, &clients, &sbs, &nsbs) < 0)
                goto oom;

        struct client_match match = { 0 };
        if (primary)
                clients_match(&clients, &req, primary, &match);
        const struct merged_opt *nc = merged_find(&merged, "nconnect");
        struct policy_input pin = {
                .req = &req,
                .nconnect_from_config = nc && nc->from,
                .match = &match,
                .nconnect_policy = set.nconnect_policy,
                .krb5_policy = set.krb5_policy,
        };
        struct verdict v = policy_decide(&pin);

        if (report_verbose())
                print_plan(cl, naddrs, addrs, primary, &req, &merged, &clients, &match);

        ncmsg = verdict_nconnect_message(&v, &clients);
        kmsg = verdict_krb5_message(&v, &clients, &req);
        if (ncmsg) {
                if (v.nconnect == ACTION_FOLLOW_QUIET)
                        log_info("%s", ncmsg);
                else
                        log_error("%s", ncmsg);
        }
        if (kmsg)
                log_error("%s", kmsg);
        if (v.sharing == SHARE_MAYBE)
                log_info("verdict: the NFS version is left to negotiation, so the client cannot "
                         "be known before the mount; it is checked after (pin vers= to decide "
                         "before)");
        char eff[16] = "unknown";
        if (v.effective)
                snprintf(eff, sizeof(eff), "%u", v.effective);
        log_info("verdict: %s; nconnect: %s; krb5: %s; connections: %s",
                 sharing_to_string(v.sharing), action_to_string(v.nconnect),
                 action_to_string(v.krb5), eff);
        if (v.nconnect == ACTION_REFUSE || v.krb5 == ACTION_REFUSE) {
                rc = MNT_EX_FAIL;
                goto out;
        }

        if ((r = plan_options(&merged, &v, &final)) < 0 || !(opts = optlist_to_string(&final)) ||
            plan_argv(cl, opts, &argv) < 0)
                goto oom;
        if (report_verbose() && print_exec(prog, argv, &set) < 0)
                goto oom;
        if (cl->fake) {
                rc = MNT_EX_SUCCESS;
                goto out;
        }

        if ((rc = check_program(prog, p->config)) != MNT_EX_SUCCESS)
                goto out;
        if (set.read_ahead.kind != READ_AHEAD_KEEP)
                watch = bdi_watch_start(p);
        rc = program_run(prog, argv);
        if (rc != MNT_EX_SUCCESS)
                goto out;

        r = find_mount(p, dir, &newm);
        if (r < 0) {
                const struct opt *last = NULL;
                for (size_t i = 0; i < final.n; i++)
                        if (streq(opt_group(final.v[i].name), "fg"))
                                last = &final.v[i];
                if (last && streq(last->name, "bg"))
                        /* mount.nfs went on retrying in the background */
                        log_info("bg: the mount is not there yet; not verified, read-ahead not set");
                else
                        log_warning("mounted, but no NFS mount on %s shows in %s: not verified",
                                    dir, p->mountinfo);
                goto out;
        }
        verify_mount(dir, &newm, &v, primary, &clients);

        /* the client is settled: other helpers for this server may go on */
        if (lockfd >= 0) {
                close(lockfd);
                lockfd = -1;
        }

        unsigned long kb = read_ahead_kb(&set.read_ahead, newm.rsize);
        if (kb)
                set_read_ahead(p, dir, &newm, kb, sbs, nsbs, watch);
        goto out;

oom:
        log_error("out of memory");
        rc = MNT_EX_SYSERR;
out:
        bdi_watch_free(watch);
        plan_argv_free(argv);
        free(sbs);
        nfs_mount_done(&newm);
        clients_done(&clients);
        merged_done(&merged);
        optlist_done(&final);
        optlist_done(&requested);
        optlist_done(&cmdopts);
        nfs_spec_done(&spec);
        return rc;
}

int main(int argc, char **argv)
{
        struct cmdline cl;
        struct config conf = { 0 };
        struct program prog = { .fd = -1 };
        struct paths p;
        char err[CMDLINE_ERR_MAX];
        int rc;

        if ((rc = cmdline_parse(argc, argv, &cl, err)) < 0) {
                if (rc == -ENOMEM) {
                        log_error("out of memory");
                        return MNT_EX_SYSERR;
                }
                log_error("%s; see 'mount.nfs-tuned -h'", err);
                return MNT_EX_USAGE;
        }
        report_set_verbose(cl.verbose);
        paths_init(&p);

        switch (cl.mode) {
        case RUN_HELP:
                usage(stdout);
                rc = MNT_EX_SUCCESS;
                break;
        case RUN_VERSION:
                printf("mount.nfs-tuned %s\n", VERSION);
                rc = MNT_EX_SUCCESS;
                break;
        case RUN_CHECK_CONFIG:
                rc = do_check_config(&p);
                break;
        case RUN_UMOUNT:
        case RUN_MOUNT:
        default:
                if (cl.ns && paths_privileged_exec()) {
                        /* a setuid helper must not enter namespaces for its caller */
                        log_error("-N is only for root: mount(8) passes it for root's mounts");
                        rc = MNT_EX_USAGE;
                        break;
                }
                /* the configuration and the program to run come from the caller's file
                 * system, read before -N switches to the target mount namespace */
                if (load_config(p.config, geteuid() == 0 || paths_privileged_exec(), &conf) < 0) {
                        log_error("out of memory");
                        rc = MNT_EX_SYSERR;
                        break;
                }
                program_open(&prog, config_global_value(&conf, "mount_nfs", p.mount_nfs));
                if (cl.mode == RUN_UMOUNT) {
                        rc = do_umount(argv, &p, &prog);
                        break;
                }
                report_config_errors(&conf);
                if (cl.ns) {
                        p.rootfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
                        if (p.rootfd < 0 || enter_namespace(cl.ns) < 0) {
                                if (p.rootfd < 0)
                                        log_error("cannot open /: %s", strerror(errno));
                                rc = MNT_EX_SYSERR;
                                break;
                        }
                }
                rc = do_mount(&cl, &p, &conf, &prog);
                break;
        }
        program_close(&prog);
        if (p.rootfd >= 0)
                close(p.rootfd);
        config_done(&conf);
        cmdline_done(&cl);
        return rc;
}
