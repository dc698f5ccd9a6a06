/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The mount path's plan, left for the udev mode and for tools that report on mounts. */
#include <string.h>
#include <unistd.h>

#include "cmd/mount.h"
#include "core/record.h"
#include "core/verify.h"
#include "shared/log.h"
#include "sys/clock.h"
#include "sys/creds.h"
#include "sys/record.h"

void mount_leave_record(struct mount_ctx *m)
{
        char abuf[NFS_ADDR_STRLEN] = "";
        const struct paths *p = m->env->paths;
        int r;

        /* as the lock: a user running the setuid helper leaves nothing in root's /run */
        if (m->env->cl->fake || !creds_caller_is_root())
                return;
        if (m->primary)
                nfs_addr_to_string(m->primary, abuf);
        struct mount_record rec = {
                .spec = (char *)m->env->cl->spec,
                .target = m->dir,
                .server = abuf,
                .nconnect = verify_expected_nconnect(&m->verdict),
                .read_ahead = m->set.read_ahead,
                .bg = opt_bg(&m->final),
                .nconnect_requested = m->req.nconnect,
                .nconnect_from = merged_origin(&m->merged, "nconnect", NULL),
                .read_ahead_from = merged_origin(&m->merged, "read_ahead_kb", NULL),
        };
        memcpy(rec.xprtsec, m->req.xprtsec, sizeof(rec.xprtsec));
        /* the boot its times are of: a run directory kept across a reboot holds no mount */
        (void)clock_boot_id(p, rec.boot_id);
        /* nothing depends on it but a later check: the mount goes on */
        if ((r = record_write(mount_rundir(m), &rec)) >= 0) {
                m->recordfd = r;
                return;
        }
        log_info("cannot leave the plan in %s/%s: %s; a bg mount that lands later is not checked",
                 p->rundir, RECORD_SUBDIR, strerror(-r));
        /* an earlier mount's record on this mount point would stand for this one (a full run
         * directory still lets it go; a read-only one does not) */
        if ((r = record_remove(p, m->dir)) < 0)
                log_info("cannot remove the earlier plan of %s either: %s", m->dir, strerror(-r));
}

void mount_record_add_dev(struct mount_ctx *m)
{
        int r;

        if (m->recordfd < 0)
                return;
        /* the superblock, so a reader can tell a later mount on the same mount point that the
         * helper did not make */
        if ((r = record_add_dev(m->recordfd, m->newm.dev)) < 0)
                log_info("cannot add the superblock to the plan in %s/%s: %s; nfs-tuned status "
                         "matches it by source and mount point only",
                         m->env->paths->rundir, RECORD_SUBDIR, strerror(-r));
}

void mount_record_add_rtt(struct mount_ctx *m, unsigned long rtt_us)
{
        char line[MOUNT_RECORD_LINE_STRLEN];
        int r;

        if (m->recordfd < 0 || !rtt_us)
                return;
        /* so the udev rule and status size auto's window from the same round trip */
        mount_record_format_rtt(rtt_us, line);
        if ((r = record_add_line(m->recordfd, line)) < 0)
                log_info("cannot add the round trip to the plan in %s/%s: %s; nfs-tuned status "
                         "expects auto's largest window on this mount",
                         m->env->paths->rundir, RECORD_SUBDIR, strerror(-r));
}
