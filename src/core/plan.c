/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/optmap.h"
#include "shared/macro.h"

int plan_settings(const struct merged *m, struct settings *ret, const struct merged_opt **ret_bad)
{
        struct settings s = { .read_ahead = { READ_AHEAD_KEEP, 0 },
                              .nconnect_policy = POLICY_WARN,
                              .krb5_policy = POLICY_WARN,
                              .tls_policy = POLICY_REFUSE };
        const struct merged_opt *o;

        for (size_t i = 0; i < m->n; i++) {
                const struct optdef *d = optdef_find(m->v[i].opt.name);
                if (!d || !(d->flags & OPTF_HELPER))
                        continue;
                o = &m->v[i];
                /* the value that counts is the last one */
                if ((!o->from && (d->flags & OPTF_NO_CMDLINE)) ||
                    (o == merged_find(m, d->name) && optdef_check(d, o->opt.value) < 0)) {
                        if (ret_bad)
                                *ret_bad = o;
                        return -EINVAL;
                }
        }
        /* checked above: these parse */
        if ((o = merged_find(m, "read_ahead_kb")))
                (void)read_ahead_parse(o->opt.value, &s.read_ahead);
        if (s.read_ahead.kind == READ_AHEAD_AUTO && (o = merged_find(m, "read_ahead_bandwidth")))
                (void)opt_number("read_ahead_bandwidth", o->opt.value, &s.read_ahead.bw);
        if ((o = merged_find(m, "nconnect_policy")))
                (void)policy_parse(o->opt.value, &s.nconnect_policy);
        if ((o = merged_find(m, "krb5_policy")))
                (void)policy_parse(o->opt.value, &s.krb5_policy);
        if ((o = merged_find(m, "tls_policy")))
                (void)policy_parse(o->opt.value, &s.tls_policy);
        if ((o = merged_find(m, "shared_client_names")))
                s.warn_shared_names = streq(o->opt.value, "warn");
        *ret = s;
        return 0;
}

int plan_drop_untrusted(struct optlist *cmd, const struct optlist *fstab,
                        struct optlist *ret_dropped)
{
        size_t j = 0;
        int r = 0;

        for (size_t i = 0; i < cmd->n; i++) {
                const struct opt *o = &cmd->v[i];
                const struct opt *f = fstab ? optlist_find(fstab, o->name) : NULL;
                const struct optdef *d = optdef_find(o->name);
                /* mount_nfs stays, to be refused outright (plan_settings()) */
                if (!d || !(d->flags & OPTF_HELPER) || (d->flags & OPTF_NO_CMDLINE) ||
                    (f && streq_ptr(f->value, o->value))) {
                        cmd->v[j++] = *o;
                        continue;
                }
                if (r == 0)
                        r = optlist_add(ret_dropped, o->name, o->value);
                free(o->name);
                free(o->value);
        }
        cmd->n = j;
        return r;
}

int plan_user_options(const struct optlist *cmd, const struct optlist *fstab, struct optlist *ret)
{
        int r = 0;

        for (size_t i = 0; r == 0 && i < cmd->n; i++) {
                const struct optdef *d = optdef_find(cmd->v[i].name);
                if (d && (d->flags & OPTF_NO_CMDLINE))
                        r = optlist_add(ret, cmd->v[i].name, cmd->v[i].value);
        }
        for (size_t i = 0; r == 0 && i < fstab->n; i++)
                r = optlist_add(ret, fstab->v[i].name, fstab->v[i].value);
        return r;
}

int plan_options(const struct merged *m, const struct verdict *v, struct optlist *ret)
{
        struct optlist l = { 0 };
        bool drop_nconnect = v && (v->pass_nconnect || v->nconnect == ACTION_FOLLOW ||
                                   v->nconnect == ACTION_FOLLOW_QUIET);
        char pass[16];
        int r = 0;

        for (size_t i = 0; i < m->n && r == 0; i++) {
                const struct opt *o = &m->v[i].opt;
                if (is_helper_key(o->name) || (drop_nconnect && streq(o->name, "nconnect")))
                        continue;
                r = optlist_add(&l, o->name, o->value);
        }
        if (r == 0 && v && v->pass_nconnect) {
                snprintf(pass, sizeof(pass), "%u", v->pass_nconnect);
                r = optlist_add(&l, "nconnect", pass);
        }
        if (r < 0) {
                optlist_done(&l);
                return r;
        }
        *ret = l;
        return 0;
}

void plan_argv_free(char **argv)
{
        if (!argv)
                return;
        for (char **p = argv; *p; p++)
                free(*p);
        free(argv);
}

int plan_argv(const struct cmdline *c, const char *opts, char ***ret)
{
        const char *v[16];
        size_t n = 0;

        v[n++] = c->v4_by_name ? "mount.nfs4" : "mount.nfs";
        v[n++] = c->spec;
        v[n++] = c->dir;
        if (c->sloppy)
                v[n++] = "-s";
        if (c->nomtab)
                v[n++] = "-n";
        for (int i = 0; i < c->verbose && i < 3; i++)
                v[n++] = "-v";
        if (c->ro)
                v[n++] = "-r";
        if (c->rw)
                v[n++] = "-w";
        if (opts && *opts) {
                v[n++] = "-o";
                v[n++] = opts;
        }
        char **a = calloc(n + 1, sizeof(*a));
        if (!a)
                return -ENOMEM;
        for (size_t i = 0; i < n; i++)
                if (!(a[i] = strdup(v[i]))) {
                        plan_argv_free(a);
                        return -ENOMEM;
                }
        *ret = a;
        return 0;
}
