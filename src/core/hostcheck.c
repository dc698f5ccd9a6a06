/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/hostcheck.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/merge.h"
#include "core/opts.h"
#include "core/optmap.h"
#include "core/plan.h"
#include "core/policy.h"
#include "core/request.h"
#include "core/spec.h"
#include "shared/macro.h"

/* What one fstab entry will ask of the kernel, with the helper's defaults. */
struct fstab_plan {
        bool ok;        /* understood: spec and options parse */
        char host[256]; /* the address, or the name when unresolved */
        unsigned port;
        char transport[8];
        char xprtsec[8];
        struct nfs_version vers; /* a negotiated version as the 4.2 mount.nfs tries first */
        unsigned nconnect;       /* 1 when not asked */
        bool asked;              /* nconnect from the entry or the config */
        bool krb5;
        bool is_auto;
        enum policy nconnect_policy;
        char sec[32];
};

static void plan_key(struct fstab_plan *fp, const struct fstab_nfs *e, const struct nfs_spec *s,
                     const struct nfs_request *req)
{
        if (e->addr)
                nfs_addr_to_string(e->addr, fp->host);
        else
                snprintf(fp->host, sizeof(fp->host), "%s", s->host);
        fp->port = req->port;
        snprintf(fp->transport, sizeof(fp->transport), "%s", req->transport);
        snprintf(fp->xprtsec, sizeof(fp->xprtsec), "%s", req->xprtsec);
        fp->vers = req->vers;
        if (fp->vers.major == 0 || (fp->vers.major == 4 && fp->vers.minor < 0))
                fp->vers = (struct nfs_version){ 4, NFS4_MINOR_MAX };
        fp->nconnect = req->nconnect ? req->nconnect : 1;
        fp->asked = req->nconnect != 0;
        fp->krb5 = sec_is_krb5(req->sec);
        snprintf(fp->sec, sizeof(fp->sec), "%s", req->sec ? req->sec : "sys");
}

/* An option the helper refuses (nconnect=999): that entry will not mount. */
static int fstab_invalid(struct status_report *rep, const struct fstab_nfs *e,
                         const struct opt *bad)
{
        char why[1024];

        opt_describe_invalid(why, sizeof(why), bad->name, bad->value, "");
        return status_add_finding(rep, SEV_WARNING, F_FSTAB_INVALID, e->target,
                                  "fstab: %s (entry %u): %s; the helper refuses to mount it (and "
                                  "mount.nfs or the kernel would too)",
                                  e->target, e->pos, why);
}

/* The entry through the helper's own steps: config merge, settings, request. */
static int plan_entry(const struct fstab_nfs *e, const struct config *conf, struct fstab_plan *fp,
                      struct status_report *rep)
{
        struct nfs_spec spec = { 0 };
        struct optlist opts = { 0 }, requested = { 0 };
        struct merged merged = { 0 };
        struct settings set;
        struct nfs_request req;
        const struct opt *bad;
        bool v4 = streq(e->fstype, "nfs4");
        int r = nfs_spec_parse(e->spec, &spec);

        *fp = (struct fstab_plan){ 0 };
        if (r < 0 || (r = optlist_parse(&opts, e->options)) < 0)
                goto out;
        struct match_input in = { spec.host, e->addr, e->addr ? 1 : 0, e->target };
        if ((r = config_merge(conf, &opts, &in, v4, &merged)) < 0 ||
            plan_settings(&merged, &set, NULL) < 0 ||
            (r = plan_options(&merged, NULL, &requested)) < 0)
                goto out;
        if (nfs_request_parse(&requested, v4, &req, &bad) < 0) {
                r = bad ? fstab_invalid(rep, e, bad) : 0;
                goto out;
        }
        plan_key(fp, e, &spec, &req);
        fp->is_auto = !optlist_find(&opts, "noauto");
        fp->nconnect_policy = set.nconnect_policy;
        fp->ok = true;
out:
        optlist_done(&requested);
        merged_done(&merged);
        optlist_done(&opts);
        nfs_spec_done(&spec);
        return r == -ENOMEM ? r : 0;
}

static bool same_client(const struct fstab_plan *a, const struct fstab_plan *b)
{
        return a->ok && b->ok && streq(a->host, b->host) && a->port == b->port &&
               streq(a->transport, b->transport) && streq(a->xprtsec, b->xprtsec) &&
               a->vers.major == b->vers.major && a->vers.minor == b->vers.minor;
}

/* The entry that sets up the client at boot: the first one mounted automatically. */
static size_t winner_of(const struct fstab_plan *fp, const size_t *grp, size_t n, size_t g)
{
        size_t first = SIZE_MAX;

        for (size_t i = 0; i < n; i++) {
                if (grp[i] != g)
                        continue;
                if (fp[i].is_auto)
                        return i;
                if (first == SIZE_MAX)
                        first = i;
        }
        return first;
}

static int fstab_conflict(struct status_report *rep, const struct fstab_nfs *v,
                          const struct fstab_plan *fp, size_t i, size_t w)
{
        char vbuf[32];

        nfs_version_to_string(fp[i].vers, vbuf, sizeof(vbuf));
        return status_add_finding(
                rep, SEV_WARNING, F_FSTAB_NCONNECT, v[i].target,
                "fstab: %s (entry %u, nconnect=%u) and %s (entry %u, nconnect=%u) will share one NFS "
                "client (%s port %u, %s, NFSv%s): the first to mount sets nconnect for both; "
                "`mount -a` mounts in fstab order, so %s wins and %s gets %u, while systemd mounts "
                "them in parallel at boot, so either may win%s; give them the same nconnect, or "
                "separate clients (another server address, port or NFS version)",
                v[i].target, v[i].pos, fp[i].nconnect, v[w].target, v[w].pos, fp[w].nconnect,
                fp[i].host, fp[i].port, fp[i].transport, vbuf, v[w].target, v[i].target,
                fp[w].nconnect,
                fp[i].nconnect_policy == POLICY_REFUSE
                        ? " (nconnect_policy=refuse: the one that loses fails to mount)"
                        : "");
}

static int fstab_krb5(struct status_report *rep, const struct fstab_nfs *v,
                      const struct fstab_plan *fp, size_t i, size_t most)
{
        if (most == i)
                return status_add_finding(
                        rep, SEV_WARNING, F_FSTAB_KRB5, v[i].target,
                        "fstab: %s (entry %u) asks for sec=%s with nconnect=%u: all connections share "
                        "one GSS context and its sequence window; use nconnect=1 for krb5 mounts",
                        v[i].target, v[i].pos, fp[i].sec, fp[i].nconnect);
        return status_add_finding(
                rep, SEV_WARNING, F_FSTAB_KRB5, v[i].target,
                "fstab: %s (entry %u, sec=%s) will share one NFS client with %s (entry %u, "
                "nconnect=%u): when that one mounts first, %s runs krb5 over %u connections, which "
                "share one GSS context and its sequence window; give krb5 mounts an NFS client of "
                "their own (another server address or NFS version)",
                v[i].target, v[i].pos, fp[i].sec, v[most].target, v[most].pos, fp[most].nconnect,
                v[i].target, fp[most].nconnect);
}

/* The findings of one entry against its group. */
static int fstab_entry_findings(struct status_report *rep, const struct fstab_nfs *v,
                                const struct fstab_plan *fp, const size_t *grp, size_t n, size_t i)
{
        size_t w = winner_of(fp, grp, n, grp[i]), most = i;
        int r = 0;

        /* an entry that asks for nothing takes what it gets */
        if (i != w && fp[i].asked && fp[i].nconnect != fp[w].nconnect)
                r = fstab_conflict(rep, v, fp, i, w);
        if (r < 0 || !fp[i].krb5)
                return r;
        for (size_t j = 0; j < n; j++)
                if (grp[j] == grp[i] && fp[j].nconnect > fp[most].nconnect)
                        most = j;
        return fp[most].nconnect > 1 ? fstab_krb5(rep, v, fp, i, most) : 0;
}

int hostcheck_fstab(const struct fstab_nfs *v, size_t n, const struct config *conf,
                    struct status_report *rep)
{
        struct fstab_plan *fp = n ? calloc(n, sizeof(*fp)) : NULL;
        size_t *grp = n ? calloc(n, sizeof(*grp)) : NULL;
        int r = 0;

        if (n && (!fp || !grp))
                r = -ENOMEM;
        for (size_t i = 0; i < n && r == 0; i++) {
                r = plan_entry(&v[i], conf, &fp[i], rep);
                grp[i] = i;
                for (size_t j = 0; j < i; j++)
                        if (same_client(&fp[i], &fp[j])) {
                                grp[i] = grp[j];
                                break;
                        }
        }
        for (size_t i = 0; i < n && r == 0; i++)
                if (fp[i].ok)
                        r = fstab_entry_findings(rep, v, fp, grp, n, i);
        free(grp);
        free(fp);
        return r;
}

/* --- udev ------------------------------------------------------------------------------ */

static int udev_one(const struct udev_rule_file *f, struct status_report *rep)
{
        if (streq(f->name, NFS_TUNED_UDEV_RULE) && (f->masked || f->shadowed))
                return status_add_finding(
                        rep, SEV_WARNING, F_UDEV_SHADOW, NULL,
                        "%s %s nfs-tuned's rule %s: read-ahead of NFS mounts not made through the "
                        "helper (automounts, NFSv4 submounts, bg mounts, plain mount.nfs) %s",
                        f->path, f->masked ? "masks" : "replaces",
                        f->shadowed ? f->shadowed : f->name,
                        f->masked ? "is not set"
                                  : "is set by that copy, which package updates no "
                                    "longer reach");
        if (streq(f->name, NFS_UTILS_UDEV_RULE) && f->shadowed && !f->masked)
                return status_add_finding(
                        rep, SEV_WARNING, F_UDEV_SHADOW, NULL,
                        "%s shadows nfs-utils' %s: udev runs it instead, nfs-utils' updates no longer "
                        "reach it, and what it writes to read_ahead_kb stays on every mount whose "
                        "config sets no read_ahead_kb",
                        f->path, f->shadowed);
        if (udev_rule_writes_after_ours(f))
                return status_add_finding(
                        rep, SEV_WARNING, F_UDEV_WRITER, NULL,
                        "%s writes read_ahead_kb and sorts after nfs-tuned's %s: udev runs it later, "
                        "so on every bdi it matches its value replaces the one nfs-tuned set; make "
                        "it skip NFS superblocks (KERNEL==\"0:*\"), or give it a name that sorts "
                        "before %s",
                        f->path, NFS_TUNED_UDEV_RULE, NFS_TUNED_UDEV_RULE);
        return 0;
}

int hostcheck_udev(const struct udev_rule_file *v, size_t n, struct status_report *rep)
{
        int r = 0;

        for (size_t i = 0; i < n && r == 0; i++)
                r = udev_one(&v[i], rep);
        return r;
}

/* --- nfsmount.conf ----------------------------------------------------------------------- */

/* Options of nfsmount.conf's global section that decide which NFS client a mount gets. */
static bool decides_client(const char *key)
{
#define CLIENT_OPTION_NAME(n) #n,
        /* CLIENT_OPTIONS and nfsmount.conf's own names for them */
        static const char *const keys[] = { CLIENT_OPTIONS(CLIENT_OPTION_NAME) "nfsvers",
                                            "defaultvers", "defaultproto", "mountvers" };
        for (size_t i = 0; i < ELEMENTSOF(keys); i++)
                if (strcasecmp(key, keys[i]) == 0)
                        return true;
        return false;
}

/* "[ Server "name" ]" -> kind "Server", arg "name"; false when not a header. */
static bool parse_section(char *line, char **kind, char **arg)
{
        char *s = line + strspn(line, " \t"), *e;

        if (*s != '[' || !(e = strrchr(s, ']')))
                return false;
        *e = '\0';
        s++;
        s += strspn(s, " \t");
        *kind = s;
        s += strcspn(s, " \t\"");
        char *q = strchr(s, '"');
        *s = '\0';
        *arg = NULL;
        if (q && strchr(q + 1, '"')) {
                *arg = q + 1;
                *strchr(q + 1, '"') = '\0';
        }
        return true;
}

struct nfsmount_section {
        char kind[32];
        char arg[256];
        unsigned line;
        char keys[512];
};

static int nfsmount_flush(const char *file, struct nfsmount_section *s, struct status_report *rep)
{
        int r = 0;

        if (!s->keys[0])
                return 0;
        if (strcasecmp(s->kind, "Server") == 0 || strcasecmp(s->kind, "MountPoint") == 0)
                r = status_add_finding(
                        rep, SEV_WARNING, F_NFSMOUNT_CONF, NULL,
                        "%s:%u: [ %s \"%s\" ] sets %s: mount.nfs adds them after the helper decided, "
                        "so its conflict checks and read-ahead plan do not see them; set them in "
                        "[%s \"%s\"] of nfs-tuned.conf instead",
                        file, s->line, s->kind, s->arg, s->keys,
                        strcasecmp(s->kind, "Server") == 0 ? "server" : "mountpoint", s->arg);
        else
                r = status_add_finding(
                        rep, SEV_WARNING, F_NFSMOUNT_CONF, NULL,
                        "%s: [ %s ] sets %s for every NFS mount: mount.nfs adds them after the helper "
                        "decided, so its conflict checks do not see them; set them in [global] of "
                        "nfs-tuned.conf instead",
                        file, s->kind, s->keys);
        s->keys[0] = '\0';
        return r;
}

static void nfsmount_key(struct nfsmount_section *s, const char *line)
{
        const char *k = line + strspn(line, " \t");
        size_t len = strcspn(k, " \t=");
        char key[64];

        if (!len || len >= sizeof(key))
                return;
        snprintf(key, sizeof(key), "%.*s", (int)len, k);
        bool global = strcasecmp(s->kind, "NFSMount_Global_Options") == 0;
        if (global && !decides_client(key))
                return;
        size_t used = strlen(s->keys);
        snprintf(s->keys + used, sizeof(s->keys) - used, "%s%.*s", used ? ", " : "",
                 (int)strcspn(k, "\n"), k);
}

int hostcheck_nfsmount_conf(const char *file, const char *text, struct status_report *rep)
{
        struct nfsmount_section s = { .kind = "NFSMount_Global_Options" };
        unsigned lineno = 0;
        int r = 0;

        for (const char *p = text; p && *p && r == 0; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
                size_t len = strcspn(p, "\n");
                char line[1024], *kind, *arg;
                lineno++;
                snprintf(line, sizeof(line), "%.*s", (int)len, p);
                const char *t = line + strspn(line, " \t");
                if (*t == '#' || *t == ';' || !*t)
                        continue;
                if (!parse_section(line, &kind, &arg)) {
                        nfsmount_key(&s, line);
                        continue;
                }
                if ((r = nfsmount_flush(file, &s, rep)) < 0)
                        break;
                snprintf(s.kind, sizeof(s.kind), "%s", kind);
                snprintf(s.arg, sizeof(s.arg), "%s", arg ? arg : "");
                s.line = lineno;
        }
        return r == 0 ? nfsmount_flush(file, &s, rep) : r;
}
