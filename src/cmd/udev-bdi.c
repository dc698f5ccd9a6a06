/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --udev-bdi MAJ:MIN: run by udev for a bdi add event (the project's rule, which sorts after
 * nfs-utils' 99-nfs.rules).  Prints the read_ahead_kb for udev to write (ATTR{}="%c") and
 * exits 0, or prints nothing and exits 1: not an NFS superblock, or nothing to set.
 * Messages go to syslog (and stderr): one line per change, none for a device left alone.
 */
#include <errno.h>
#include <libmount.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/bdievent.h"
#include "core/opts.h"
#include "core/verdict.h"
#include "shared/log.h"
#include "sys/bdi.h"
#include "sys/clock.h"
#include "sys/conffile.h"
#include "sys/creds.h"
#include "sys/record.h"
#include "sys/rpcrtt.h"

/* How long an NFS volume's mountinfo line is waited for: in the lab it was there at the
 * first look for every one of 75 events (README, Benchmark); the bound is for a mount made in
 * another mount namespace, whose line never comes. */
#define UDEV_MOUNTINFO_WAIT_MS 1000
/* The exit status that makes udev's PROGRAM match fail, so nothing is written. */
#define UDEV_NO_CHANGE 1

/* What udev passes as %k: "0:53".  Only anonymous devices (major 0) are NFS superblocks. */
static int parse_bdi_name(const char *s, dev_t *ret)
{
        unsigned long maj, min;
        const char *colon = s ? strchr(s, ':') : NULL;
        char buf[16];

        if (!colon || (size_t)(colon - s) >= sizeof(buf))
                return -EINVAL;
        snprintf(buf, sizeof(buf), "%.*s", (int)(colon - s), s);
        if (parse_uint(buf, 0, 0, &maj) < 0 || parse_uint(colon + 1, 0, (1UL << 20) - 1, &min) < 0)
                return -EINVAL;
        *ret = makedev(maj, min);
        return 0;
}

static void describe_from(const struct bdi_decision *d, char *buf, size_t size)
{
        if (d->from_record)
                snprintf(buf, size, "the helper's plan for this mount");
        else if (d->from && d->from->pattern)
                snprintf(buf, size, "[%s \"%s\"] %s:%u", section_kind_to_string(d->from->kind),
                         d->from->pattern, d->from->file, d->line);
        else if (d->from)
                snprintf(buf, size, "[global] %s:%u", d->from->file, d->line);
        else
                snprintf(buf, size, "no setting");
}

/* The one line of a change: the bdi, its mount, old -> new, and what decided it. */
static void log_change(const struct bdi_owner *o, dev_t dev, unsigned long old,
                       const struct bdi_decision *d)
{
        char who[PATH_MAX * 2 + 64], from[PATH_MAX + 256], abuf[NFS_ADDR_STRLEN];

        if (o->kind == BDI_NFS_MOUNT)
                snprintf(who, sizeof(who), "%s (%s)", o->mount.target, o->mount.source);
        else
                snprintf(who, sizeof(who), "server %s, mounted in another mount namespace",
                         nfs_addr_to_string(&o->volume_addr, abuf));
        describe_from(d, from, sizeof(from));
        if (d->setting.kind == READ_AHEAD_AUTO && d->rtt_us)
                log_at(SEV_NOTICE,
                       "bdi %u:%u %s: read_ahead_kb %lu -> %lu (%s: auto, round trip %lu.%03lu "
                       "ms, bandwidth %lu MiB/s)",
                       major(dev), minor(dev), who, old, d->plan.kb, from, d->rtt_us / 1000,
                       d->rtt_us % 1000, d->setting.bw);
        else if (d->setting.kind == READ_AHEAD_AUTO)
                log_at(SEV_NOTICE,
                       "bdi %u:%u %s: read_ahead_kb %lu -> %lu (%s: auto, no round trip known: "
                       "its largest window)",
                       major(dev), minor(dev), who, old, d->plan.kb, from);
        else
                log_at(SEV_NOTICE, "bdi %u:%u %s: read_ahead_kb %lu -> %lu (%s)", major(dev),
                       minor(dev), who, old, d->plan.kb, from);
}

/* A bg mount that landed after the helper returned: the check the helper could not make. */
static void log_bg_mismatch(const struct nfs_mount *m, const struct mount_record *rec)
{
        log_warning("bg mount %s (%s) landed with nconnect=%u, not the %u the helper planned: it "
                    "joined an NFS client that another mount of server %s made meanwhile; "
                    "unmount every mount of that client to change it",
                    m->target, m->source, m->nconnect, rec->nconnect,
                    *rec->server ? rec->server : "(unresolved)");
}

static void log_bg_tls(const struct nfs_mount *m, const struct mount_record *rec)
{
        log_error("bg mount %s (%s) asked for xprtsec=%s but landed on an NFS client of server %s "
                  "with %s%s: NFSv4 folded it into an existing client of the same server; "
                  "lacking: %s; unmount it and the other mounts of that server, then mount the "
                  "TLS ones first, or use vers=3",
                  m->target, m->source, rec->xprtsec, *rec->server ? rec->server : "(unresolved)",
                  tls_level_of(m->xprtsec) == TLS_NONE ? "no TLS" : "xprtsec=",
                  tls_level_of(m->xprtsec) == TLS_NONE ? "" : m->xprtsec,
                  verdict_tls_lacking(tls_level_of(rec->xprtsec), tls_level_of(m->xprtsec)));
}

/* The decision for an NFS bdi; prints the value for udev.  0 (a value) or UDEV_NO_CHANGE. */
static int decide_and_print(const struct cmd_env *env, dev_t dev, const struct bdi_owner *o)
{
        const struct paths *p = env->paths;
        _cleanup_(config_done) struct config conf = { 0 };
        _cleanup_(mount_record_done) struct mount_record rec = { 0 };
        struct bdi_decision d;
        unsigned long old = 0;
        bool mounted = o->kind == BDI_NFS_MOUNT;

        /* as root, only root's config files, as for a mount */
        if (load_config(p->vendor_config, p->config, true, &conf) < 0)
                return -ENOMEM;
        bool have_rec = mounted && record_read(p, o->mount.target, &rec) == 0;
        /* a record of another boot (a run directory kept on disk) is no mount's now */
        struct mount_when now = { 0 };
        if (have_rec && rec.boot_id[0])
                (void)clock_boot_id(p, now.boot_id);
        struct bdi_event ev = {
                .dev = dev,
                .mount = mounted ? &o->mount : NULL,
                .volume_addr = mounted ? NULL : &o->volume_addr,
                .record = have_rec ? &rec : NULL,
                .when = &now,
        };
        if (bdi_event_decide(&conf, &ev, &d) < 0)
                return -ENOMEM;
        /* auto, and no round trip of the mount path's: the one the kernel measured so far */
        struct rpc_rtt rtt = { 0 };
        if (d.setting.kind == READ_AHEAD_AUTO && !d.rtt_from_record && mounted &&
            read_rpc_rtt(p, o->mount.target, &rtt) == 0 && rtt.ops) {
                ev.rtt_us = read_ahead_rtt_us(rtt.ops, rtt.rtt_ms, rtt.kinds);
                if (bdi_event_decide(&conf, &ev, &d) < 0)
                        return -ENOMEM;
        }
        if (d.nconnect_differs)
                log_bg_mismatch(&o->mount, &rec);
        if (d.tls_lacking)
                log_bg_tls(&o->mount, &rec);
        if (d.plan.step != READ_AHEAD_WRITE)
                return UDEV_NO_CHANGE;
        /* udev writes it (ATTR{read_ahead_kb}="%c"), after nfs-utils' rule */
        printf("%lu\n", d.plan.kb);
        if (bdi_get_read_ahead(p, dev, &old) < 0 || old != d.plan.kb)
                log_change(o, dev, old, &d);
        return 0;
}

int cmd_udev_bdi(const struct cmd_env *env)
{
        struct bdi_owner o;
        dev_t dev;
        int r;

        /* udev runs it as root; through the setuid binary anyone else could put lines that
         * say they are root's in syslog */
        if (!creds_caller_is_root()) {
                log_error("--udev-bdi is for udev (run as root), not uid %u", creds_caller_uid());
                return MNT_EX_USAGE;
        }
        log_open_syslog("nfs-tuned");
        /* not "0:N": not an anonymous superblock, so not NFS; no word, udev goes on */
        if (parse_bdi_name(env->cl->bdi, &dev) < 0 || major(dev) != 0)
                return UDEV_NO_CHANGE;
        if (bdi_find_owner(env->paths, dev, UDEV_MOUNTINFO_WAIT_MS, &o) < 0) {
                log_error("bdi %u:%u: out of memory", major(dev), minor(dev));
                return MNT_EX_SYSERR;
        }
        if (o.kind == BDI_NOT_NFS)
                return UDEV_NO_CHANGE;
        if (o.elsewhere)
                log_info("bdi %u:%u: mounted in another mount namespace (%u mount tables read): "
                         "no wait",
                         major(dev), minor(dev), o.looks);
        else if (!o.waited_ms)
                log_info("bdi %u:%u: mountinfo line there at once (lookup %ld ms)", major(dev),
                         minor(dev), o.lookup_ms);
        else
                log_info("bdi %u:%u: %s after waiting %ld ms (%u look%s at the mount table)",
                         major(dev), minor(dev),
                         o.kind == BDI_NFS_MOUNT ? "mountinfo line found"
                                                 : "no mountinfo line, only nfsfs volumes lists it",
                         o.waited_ms, o.looks, o.looks == 1 ? "" : "s");
        r = decide_and_print(env, dev, &o);
        nfs_mount_done(&o.mount);
        if (r == -ENOMEM) {
                log_error("bdi %u:%u: out of memory", major(dev), minor(dev));
                return MNT_EX_SYSERR;
        }
        return r;
}
