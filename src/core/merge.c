/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/merge.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/optmap.h"
#include "core/request.h"
#include "shared/array.h"
#include "shared/macro.h"

static bool has_glob(const char *s)
{
        return strpbrk(s, "*?[") != NULL;
}

bool section_matches(const struct conf_section *s, const struct match_input *in)
{
        switch (s->kind) {
        case SECTION_GLOBAL: return true;
        case SECTION_PROFILE: return false; /* applies only when named (config_merge()) */
        case SECTION_MOUNTPOINT: {
                if (!in->dir)
                        return false;
                if (has_glob(s->pattern))
                        return fnmatch(s->pattern, in->dir, FNM_PATHNAME) == 0;
                size_t pl = strlen(s->pattern), dl = strlen(in->dir);
                while (pl > 1 && s->pattern[pl - 1] == '/')
                        pl--;
                while (dl > 1 && in->dir[dl - 1] == '/')
                        dl--;
                return pl == dl && strncmp(s->pattern, in->dir, pl) == 0;
        }
        case SECTION_SERVER: {
                if (has_glob(s->pattern))
                        return in->host && fnmatch(s->pattern, in->host, FNM_CASEFOLD) == 0;
                if (in->host && strcasecmp(s->pattern, in->host) == 0)
                        return true;
                /* an address or CIDR: compared with every resolved address */
                for (size_t i = 0; i < in->naddrs; i++)
                        if (nfs_addr_in_cidr(&in->addrs[i], s->pattern) > 0)
                                return true;
                return false;
        }
        }
        return false;
}

void merged_done(struct merged *m)
{
        for (size_t i = 0; i < m->n; i++) {
                free(m->v[i].opt.name);
                free(m->v[i].opt.value);
        }
        free(m->v);
        free(m->applied);
        strv_free(m->notes, m->nnotes);
        hindex_done(&m->groups);
        *m = (struct merged){ 0 };
}

static int merged_push(struct merged *m, const struct opt *o, const struct conf_section *from,
                       unsigned line)
{
        if (array_grow(&m->v, m->n) < 0)
                return -ENOMEM;
        struct merged_opt *v = m->v;
        char *n = strdup(o->name), *val = o->value ? strdup(o->value) : NULL;
        if (!n || (o->value && !val)) {
                free(n);
                free(val);
                return -ENOMEM;
        }
        v[m->n] = (struct merged_opt){ .opt = { n, val }, .from = from, .line = line };
        const char *g = opt_group(n);
        if (hindex_add(&m->groups, hash_bytes(HASH_INIT, g, strlen(g)), m->n) < 0) {
                free(n);
                free(val);
                return -ENOMEM;
        }
        m->n++;
        return 0;
}

_printf_(2, 3) static int merged_note(struct merged *m, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        int r = strv_appendv(&m->notes, &m->nnotes, fmt, ap);
        va_end(ap);
        return r;
}

static bool merged_has_group(const struct merged *m, const char *group)
{
        size_t pos = 0, id;
        while (hindex_next(&m->groups, hash_bytes(HASH_INIT, group, strlen(group)), &pos, &id))
                if (streq(opt_group(m->v[id].opt.name), group))
                        return true;
        return false;
}

const struct merged_opt *merged_find(const struct merged *m, const char *name)
{
        for (size_t i = m->n; i > 0; i--)
                if (streq(m->v[i - 1].opt.name, name))
                        return &m->v[i - 1];
        return NULL;
}

/* A matched section's options, its later lines first, each unless a higher level set its group. */
static int merge_section(struct merged *m, const struct conf_section *s, bool v4_only)
{
        int r;

        m->applied[m->napplied++] = s;
        for (size_t oi = s->opts.n; oi > 0; oi--) {
                const struct opt *o = &s->opts.v[oi - 1];
                unsigned line = s->opt_lines[oi - 1];
                int major = nfs_request_opt_major(o);
                if (merged_has_group(m, opt_group(o->name)))
                        r = merged_note(
                                m, "%s:%u: %s not used: set at a higher level or by a later line",
                                s->file, line, o->name);
                else if (v4_only && major && major != 4)
                        r = merged_note(m, "%s:%u: %s%s%s not used: this is an NFSv4 mount",
                                        s->file, line, o->name, o->value ? "=" : "",
                                        o->value ? o->value : "");
                else
                        r = merged_push(m, o, s, line);
                if (r < 0)
                        return r;
        }
        return 0;
}

/*
 * The profile level, between the server sections and [global]: the profile that the highest
 * level names (the command line, a mount point, a server section, else [global]), its later
 * sections first.
 */
static int merge_profile(struct merged *m, const struct config *c, bool v4_only)
{
        const struct merged_opt *named = merged_find(m, "profile");
        const char *name = named ? named->opt.value : config_global_value(c, "profile", NULL);
        int r;

        if (!name)
                return 0;
        for (size_t si = c->n; si > 0; si--) {
                const struct conf_section *s = &c->v[si - 1];
                if (s->kind == SECTION_PROFILE && streq(s->pattern, name) &&
                    (r = merge_section(m, s, v4_only)) < 0)
                        return r;
        }
        return 0;
}

int config_merge(const struct config *c, const struct optlist *cmdline,
                 const struct match_input *in, bool v4_only, struct merged *ret)
{
        static const enum section_kind levels[] = { SECTION_MOUNTPOINT, SECTION_SERVER,
                                                    SECTION_GLOBAL };
        struct merged m = { 0 };
        size_t ncmd;
        int r;

        for (size_t i = 0; i < cmdline->n; i++)
                if ((r = merged_push(&m, &cmdline->v[i], NULL, 0)) < 0)
                        goto fail;
        ncmd = m.n;

        m.applied = calloc(c->n ? c->n : 1, sizeof(*m.applied));
        if (!m.applied) {
                r = -ENOMEM;
                goto fail;
        }
        /* the later section, and the later line, wins within a level */
        for (size_t l = 0; l < ELEMENTSOF(levels); l++) {
                if (levels[l] == SECTION_GLOBAL && (r = merge_profile(&m, c, v4_only)) < 0)
                        goto fail;
                for (size_t si = c->n; si > 0; si--)
                        if (c->v[si - 1].kind == levels[l] && section_matches(&c->v[si - 1], in) &&
                            (r = merge_section(&m, &c->v[si - 1], v4_only)) < 0)
                                goto fail;
        }

        /* config options (global first) before the command line's */
        struct merged_opt *v = malloc((m.n ? m.n : 1) * sizeof(*v));
        if (!v) {
                r = -ENOMEM;
                goto fail;
        }
        size_t k = 0;
        for (size_t i = m.n; i > ncmd; i--)
                v[k++] = m.v[i - 1];
        for (size_t i = 0; i < ncmd; i++)
                v[k++] = m.v[i];
        free(m.v);
        m.v = v;
        /* it indexes the old order */
        hindex_done(&m.groups);
        *ret = m;
        return 0;
fail:
        merged_done(&m);
        return r;
}

enum setting_origin merged_origin(const struct merged *m, const char *name,
                                  const struct merged_opt **ret)
{
        const struct merged_opt *o = merged_find(m, name);

        if (ret)
                *ret = o;
        return !o ? ORIGIN_NONE : o->from ? ORIGIN_CONFIG : ORIGIN_CMDLINE;
}
