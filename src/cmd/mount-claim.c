/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Parallel mounts of one server (doc/DESIGN.md "Parallel mounts"): only a mount that would
 * create a kernel client can race another on its nconnect, so only such a mount takes a lock,
 * that of the client's key, and only for as long as it takes to see whether another helper
 * claimed the key, look at the mount table again and leave its own claim.  The mount itself
 * runs unlocked; a mount that finds the client, or its claim, joins it at once.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cmd/mount.h"
#include "core/version.h"
#include "shared/log.h"
#include "shared/macro.h"
#include "sys/claim.h"
#include "sys/creds.h"
#include "sys/lock.h"

static void say_unclaimed(const struct mount_ctx *m, int r)
{
        const char *run = m->env->paths->rundir, *key = m->claim_key;

        if (r == -EPERM)
                log_warning("not locking %s/" CLAIM_SUBDIR "/%s.lock: the run directory or the "
                            "lock file is not root's, or is writable by others; mounting without "
                            "a claim: a mount of the same client started now may create it with "
                            "another nconnect (the verification says so)",
                            run, key);
        else if (r == -ETIMEDOUT)
                log_warning("waited %d s for %s/" CLAIM_SUBDIR "/%s.lock, which a helper holds "
                            "only while it checks the mount table (milliseconds): one hangs; "
                            "mounting without a claim. `fuser -v %s/" CLAIM_SUBDIR "/%s.lock` "
                            "shows it: end it, and report what it was doing",
                            LOCK_WAIT_MS / 1000, run, key, run, key);
        else
                log_warning("cannot lock %s/" CLAIM_SUBDIR "/%s.lock: %s; mounting without a "
                            "claim: a mount of the same client started now may create it with "
                            "another nconnect (the verification says so)",
                            run, key, strerror(-r));
}

/*
 * The live claims of this endpoint's other NFSv4 minor versions.  nfsfs lists every NFSv4
 * client as "v4", from before its first mountinfo line: a v4.2 mount being made now reads,
 * to a v4.1 mount started beside it (fstab at boot), as a hidden client that may be its own.
 * Each such claim takes the place of one such line (clients_add_claimed()).  Read without
 * their keys' locks: a claim is put whole (renamed into place) and live while its holder has
 * it locked; one put or dropped meanwhile changes nothing that the key's own lock decides.
 */
static int add_other_minor_claims(struct mount_ctx *m, int dir, const struct client_key *k)
{
        if (k->vers.major != 4 || k->vers.minor < 0)
                return 0;
        unsigned long netns = netns_id(m->env->paths);
        for (int minor = 0; minor <= NFS4_MINOR_MAX; minor++) {
                struct client_key o = *k;
                char name[sizeof(m->claim_key)];
                struct claim c = { 0 };

                o.vers.minor = minor;
                if (minor == k->vers.minor || claim_key_name(netns, &o, name, sizeof(name)) < 0 ||
                    claim_read(dir, name, &c) <= 0)
                        continue;
                log_info("claim: %s is claimed by pid %ld (%s): the NFSv4 client only "
                         "/proc/fs/nfsfs shows may be the one it creates",
                         name, (long)c.pid, c.target);
                memcpy(o.xprtsec, c.xprtsec, sizeof(o.xprtsec));
                int r = clients_add_claimed(&m->clients, &o, c.nconnect, c.target, c.spec);
                claim_done(&c);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* Under the key's lock: someone's live claim, a client that appeared, or a claim of its own. */
static int claim_locked(struct mount_ctx *m, int dir, const struct client_key *k)
{
        struct claim c = { 0 };
        int r = claim_read(dir, m->claim_key, &c);

        if (r > 0) {
                log_info("claim: %s is claimed by pid %ld (%s): this mount joins the client it "
                         "creates",
                         m->claim_key, (long)c.pid, c.target);
                /* the key may leave the TLS policy out (core/claim.h): the claimant's counts */
                struct client_key ck = *k;
                memcpy(ck.xprtsec, c.xprtsec, sizeof(ck.xprtsec));
                r = clients_add_claimed(&m->clients, &ck, c.nconnect, c.target, c.spec);
                claim_done(&c);
                return r < 0 ? r : mount_decide_verdict(m);
        }
        if (r < 0)
                log_warning("cannot read the claim %s/" CLAIM_SUBDIR "/%s.claim: %s; taken as "
                            "none",
                            m->env->paths->rundir, m->claim_key, strerror(-r));
        /* read after the claim: a claimant's mountinfo line is there before its claim goes */
        if ((r = mount_scan(m)) < 0 || (r = mount_decide_verdict(m)) < 0)
                return r;
        if (m->verdict.sharing == SHARE_HIDDEN &&
            ((r = add_other_minor_claims(m, dir, k)) < 0 || (r = mount_decide_verdict(m)) < 0))
                return r;
        if (m->verdict.sharing == SHARE_HIDDEN) {
                log_info("claim: %s: no claim: the client only /proc/fs/nfsfs shows is another "
                         "mount namespace's; this mount joins it",
                         m->claim_key);
                return 0;
        }
        if (m->verdict.sharing != SHARE_NEW) {
                log_info("claim: %s: the client appeared meanwhile; this mount joins it",
                         m->claim_key);
                return 0;
        }
        struct claim mine = { .pid = getpid(),
                              .nconnect = m->verdict.effective,
                              .target = m->dir,
                              .spec = (char *)m->env->cl->spec };
        memcpy(mine.xprtsec, m->req.xprtsec, sizeof(mine.xprtsec));
        m->claimfd = claim_put(dir, m->claim_key, &mine);
        if (m->claimfd < 0)
                log_warning("cannot leave the claim %s/" CLAIM_SUBDIR "/%s.claim: %s; a mount of "
                            "the same client started now may create it with another nconnect "
                            "(the verification says so)",
                            m->env->paths->rundir, m->claim_key, strerror(-m->claimfd));
        else
                log_info("claim: %s: this mount creates the client (nconnect=%u)", m->claim_key,
                         mine.nconnect);
        return 0;
}

int mount_claim(struct mount_ctx *m)
{
        const struct paths *p = m->env->paths;
        struct serialise_input in = { &m->verdict, &m->req, m->primary != NULL, m->env->cl->fake,
                                      creds_caller_is_root() };

        m->serialise = serialise_decide(&in);
        if (!serialise_takes_key(m->serialise)) {
                log_info("claim: %s", serialise_to_string(m->serialise));
                return 0;
        }
        struct client_key k = client_key_of_request(&m->req, m->primary);
        if (claim_key_name(netns_id(p), &k, m->claim_key, sizeof(m->claim_key)) < 0)
                return 0;
        _cleanup_(closep) int dir = claims_dir_open(mount_rundir(m));
        _cleanup_(closep) int lock = dir < 0 ? dir : lock_key(dir, m->claim_key, LOCK_WAIT_MS);
        if (lock < 0) {
                say_unclaimed(m, lock);
                return 0;
        }
        int r = claim_locked(m, dir, &k);
        if (m->claimfd >= 0)
                m->claimdir = steal_fd(&dir);
        return r;
}

void mount_claim_drop(struct mount_ctx *m)
{
        if (m->claimfd < 0)
                return;
        claim_drop(m->claimdir, m->claim_key, m->claimfd);
        close(m->claimdir);
        m->claimfd = m->claimdir = -1;
}
