/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/config.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "shared/macro.h"
#include "core/optmap.h"
#include "core/request.h"

static void section_done(struct conf_section *s)
{
        free(s->pattern);
        free(s->file);
        optlist_done(&s->opts);
        free(s->opt_lines);
}

void config_done(struct config *c)
{
        for (size_t i = 0; i < c->n; i++)
                section_done(&c->v[i]);
        free(c->v);
        for (size_t i = 0; i < c->nerrors; i++)
                free(c->errors[i]);
        free(c->errors);
        *c = (struct config){ 0 };
}

/* Appends a formatted line to a string array. */
_printf_(3, 0) static int strv_append(char ***v, size_t *n, const char *fmt, va_list ap)
{
        char *s, **nv;

        if (vasprintf(&s, fmt, ap) < 0)
                return -ENOMEM;
        nv = realloc(*v, (*n + 1) * sizeof(*nv));
        if (!nv) {
                free(s);
                return -ENOMEM;
        }
        *v = nv;
        nv[(*n)++] = s;
        return 0;
}

int config_add_error(struct config *c, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        int r = strv_append(&c->errors, &c->nerrors, fmt, ap);
        va_end(ap);
        return r;
}

const char *section_kind_to_string(enum section_kind k)
{
        switch (k) {
        case SECTION_GLOBAL:
                return "global";
        case SECTION_SERVER:
                return "server";
        case SECTION_MOUNTPOINT:
                return "mountpoint";
        }
        return "?";
}

static char *strip(char *s)
{
        while (isspace((unsigned char)*s))
                s++;
        char *e = s + strlen(s);
        while (e > s && isspace((unsigned char)e[-1]))
                *--e = '\0';
        return s;
}

static int new_section(struct config *c, enum section_kind kind, const char *pattern,
                       const char *file, unsigned line)
{
        if (c->n >= CONFIG_SECTIONS_MAX)
                return -E2BIG;
        struct conf_section *v = realloc(c->v, (c->n + 1) * sizeof(*v));
        if (!v)
                return -ENOMEM;
        c->v = v;
        v[c->n] = (struct conf_section){ .kind = kind, .line = line };
        v[c->n].file = strdup(file);
        v[c->n].pattern = pattern ? strdup(pattern) : NULL;
        c->n++;
        if (!v[c->n - 1].file || (pattern && !v[c->n - 1].pattern))
                return -ENOMEM;
        return 0;
}

/* Parses `[kind "pattern"]` (quotes optional); returns a message on error. */
static const char *parse_header(char *s, enum section_kind *ret_kind, char **ret_pattern)
{
        size_t len = strlen(s);
        if (s[len - 1] != ']')
                return "section header without closing ']'";
        s[len - 1] = '\0';
        char *body = strip(s + 1);
        char *sp = body + strcspn(body, " \t");
        char *arg = *sp ? sp + 1 : sp;
        *sp = '\0';
        arg = strip(arg);
        size_t alen = strlen(arg);
        if (alen >= 2 && arg[0] == '"' && arg[alen - 1] == '"') {
                arg[alen - 1] = '\0';
                arg++;
        } else if (strchr(arg, '"'))
                return "unbalanced '\"' in section header";

        if (strcasecmp(body, "global") == 0) {
                if (*arg)
                        return "[global] takes no argument";
                *ret_kind = SECTION_GLOBAL;
                *ret_pattern = NULL;
                return NULL;
        }
        if (strcasecmp(body, "server") == 0)
                *ret_kind = SECTION_SERVER;
        else if (strcasecmp(body, "mountpoint") == 0)
                *ret_kind = SECTION_MOUNTPOINT;
        else
                return "unknown section (use [global], [server \"NAME\"] or [mountpoint \"PATH\"])";
        if (!*arg)
                return "section needs a pattern, e.g. [server \"nfs.example.com\"]";
        if (*ret_kind == SECTION_MOUNTPOINT && arg[0] != '/')
                return "a mount point pattern must be an absolute path";
        if (*ret_kind == SECTION_SERVER && strchr(arg, '/') && !strchr(arg, '*') &&
            nfs_addr_in_cidr(&(struct nfs_addr){ 0 }, arg) < 0)
                return "not a valid CIDR (e.g. 10.0.0.0/8 or fd00::/8)";
        *ret_pattern = arg;
        return NULL;
}

/*
 * Checks a key's value against its row of the option table; returns a message when it cannot
 * be used (written to `buf` when composed).
 */
static const char *check_value(const struct conf_section *s, const char *key, const char *value,
                               char *buf, size_t bufsz)
{
        const struct optdef *d = optdef_find(key);
        bool bad;

        if (d && (d->flags & OPTF_GLOBAL_ONLY) && s->kind != SECTION_GLOBAL) {
                snprintf(buf, bufsz, "%s belongs in [global]", key);
                return buf;
        }
        if (d && (d->flags & OPTF_IGNORED))
                return d->hint;
        if (d && d->check) {
                bad = d->check(value) < 0;
        } else if (value && !*value && !(d && (d->flags & OPTF_REQUEST))) {
                return "empty value";
        } else {
                /* what the request parser would refuse at mount time (v4.3, proto=sctp ...),
                 * refused here, where the line is */
                struct opt o = { (char *)key, (char *)value };
                struct optlist one = { &o, 1 };
                struct nfs_request req;
                bad = nfs_request_parse(&one, false, &req, NULL) < 0;
        }
        if (!bad)
                return NULL;
        snprintf(buf, bufsz, "%s must be %s", opt_group(key), opt_hint(key));
        return buf;
}

static int add_option(struct conf_section *s, const char *key, const char *value, unsigned line)
{
        if (s->opts.n >= CONFIG_OPTIONS_MAX)
                return -E2BIG;
        unsigned *l = realloc(s->opt_lines, (s->opts.n + 1) * sizeof(*l));
        if (!l)
                return -ENOMEM;
        s->opt_lines = l;
        l[s->opts.n] = line;
        return optlist_add(&s->opts, key, value);
}

static bool valid_key(const char *k)
{
        if (!*k)
                return false;
        for (const char *p = k; *p; p++)
                if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-' && *p != '.')
                        return false;
        return true;
}

int config_parse(struct config *c, const char *file, const char *text)
{
        unsigned lineno = 0;
        int r;
        struct conf_section *cur = NULL;
        bool skipping = false;
        const char *p = text;

        while (*p) {
                const char *nl = strchr(p, '\n');
                size_t len = nl ? (size_t)(nl - p) : strlen(p);
                lineno++;
                if (len >= CONFIG_LINE_MAX) {
                        config_add_error(c, "%s:%u: line of %d bytes or more, skipped", file,
                                         lineno, CONFIG_LINE_MAX);
                        p += len + (nl ? 1 : 0);
                        continue;
                }
                char buf[CONFIG_LINE_MAX];
                memcpy(buf, p, len);
                buf[len] = '\0';
                p += len + (nl ? 1 : 0);

                if (memchr(buf, '\0', len)) {
                        config_add_error(c, "%s:%u: NUL byte in line, skipped", file, lineno);
                        continue;
                }
                /* '#' starts a comment at the start of a line or after a blank */
                for (char *h = strchr(buf, '#'); h; h = strchr(h + 1, '#'))
                        if (h == buf || isspace((unsigned char)h[-1])) {
                                *h = '\0';
                                break;
                        }
                char *s = strip(buf);
                if (!*s)
                        continue;

                if (*s == '[') {
                        enum section_kind kind;
                        char *pattern;
                        const char *err = parse_header(s, &kind, &pattern);
                        if (err) {
                                config_add_error(c, "%s:%u: %s; its options are ignored", file,
                                                 lineno, err);
                                /* options up to the next header belong to no section */
                                skipping = true;
                                continue;
                        }
                        r = new_section(c, kind, pattern, file, lineno);
                        if (r == -E2BIG) {
                                config_add_error(c, "%s:%u: more than %d sections, rest ignored",
                                                 file, lineno, CONFIG_SECTIONS_MAX);
                                return 0;
                        }
                        if (r < 0)
                                return r;
                        cur = &c->v[c->n - 1];
                        skipping = false;
                        continue;
                }
                if (skipping)
                        continue;
                if (!cur) {
                        /* lines before any header are global */
                        r = new_section(c, SECTION_GLOBAL, NULL, file, lineno);
                        if (r < 0)
                                return r == -E2BIG ? 0 : r;
                        cur = &c->v[c->n - 1];
                }

                char *eq = strchr(s, '='), *key = s, *value = NULL;
                if (eq) {
                        *eq = '\0';
                        key = strip(s);
                        value = strip(eq + 1);
                        size_t vlen = strlen(value), quotes = 0;
                        for (const char *q = value; *q; q++)
                                quotes += *q == '"';
                        if (quotes % 2) {
                                config_add_error(c, "%s:%u: %s: unbalanced '\"' in the value, "
                                                 "skipped", file, lineno, key);
                                continue;
                        }
                        if (vlen >= 2 && value[0] == '"' && value[vlen - 1] == '"') {
                                value[vlen - 1] = '\0';
                                value++;
                        }
                }
                if (!valid_key(key)) {
                        config_add_error(c, "%s:%u: '%s' is not an option name, skipped", file,
                                         lineno, key);
                        continue;
                }
                if (strchr(key, ',') || (value && strchr(value, ','))) {
                        config_add_error(c, "%s:%u: one option per line, skipped", file, lineno);
                        continue;
                }
                char why[256];
                const char *err = check_value(cur, key, value, why, sizeof(why));
                if (err) {
                        config_add_error(c, "%s:%u: %s%s%s: %s, skipped", file, lineno, key,
                                         value ? "=" : "", value ? value : "", err);
                        continue;
                }
                r = add_option(cur, key, value, lineno);
                if (r == -E2BIG) {
                        config_add_error(c, "%s:%u: more than %d options in one section, skipped",
                                         file, lineno, CONFIG_OPTIONS_MAX);
                        continue;
                }
                if (r < 0)
                        return r;
        }
        return 0;
}

const char *config_global_value(const struct config *c, const char *key, const char *def)
{
        const char *v = def;
        for (size_t i = 0; i < c->n; i++) {
                const struct opt *o;
                if (c->v[i].kind == SECTION_GLOBAL && (o = optlist_find(&c->v[i].opts, key)))
                        v = o->value;
        }
        return v;
}

static bool has_glob(const char *s)
{
        return strpbrk(s, "*?[") != NULL;
}

bool section_matches(const struct conf_section *s, const struct match_input *in)
{
        switch (s->kind) {
        case SECTION_GLOBAL:
                return true;
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
        for (size_t i = 0; i < m->nnotes; i++)
                free(m->notes[i]);
        free(m->notes);
        *m = (struct merged){ 0 };
}

static int merged_push(struct merged *m, const struct opt *o, const struct conf_section *from,
                       unsigned line)
{
        struct merged_opt *v = realloc(m->v, (m->n + 1) * sizeof(*v));
        if (!v)
                return -ENOMEM;
        m->v = v;
        char *n = strdup(o->name), *val = o->value ? strdup(o->value) : NULL;
        if (!n || (o->value && !val)) {
                free(n);
                free(val);
                return -ENOMEM;
        }
        v[m->n++] = (struct merged_opt){ .opt = { n, val }, .from = from, .line = line };
        return 0;
}

_printf_(2, 3) static int merged_note(struct merged *m, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        int r = strv_append(&m->notes, &m->nnotes, fmt, ap);
        va_end(ap);
        return r;
}

static bool merged_has_group(const struct merged *m, const char *group)
{
        for (size_t i = 0; i < m->n; i++)
                if (streq(opt_group(m->v[i].opt.name), group))
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

int config_merge(const struct config *c, const struct optlist *cmdline, const struct match_input *in,
                 bool v4_only, struct merged *ret)
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
        for (size_t l = 0; l < ELEMENTSOF(levels); l++) {
                /* the later section, and the later line, wins within a level */
                for (size_t si = c->n; si > 0; si--) {
                        const struct conf_section *s = &c->v[si - 1];
                        if (s->kind != levels[l] || !section_matches(s, in))
                                continue;
                        m.applied[m.napplied++] = s;
                        for (size_t oi = s->opts.n; oi > 0; oi--) {
                                const struct opt *o = &s->opts.v[oi - 1];
                                const char *g = opt_group(o->name);
                                int major = opt_vers_major(o);
                                if (merged_has_group(&m, g)) {
                                        r = merged_note(&m, "%s:%u: %s not used: set at a higher level or by a later line",
                                                        s->file, s->opt_lines[oi - 1], o->name);
                                } else if (v4_only && major && major != 4) {
                                        r = merged_note(&m, "%s:%u: %s%s%s not used: this is an NFSv4 mount",
                                                        s->file, s->opt_lines[oi - 1], o->name,
                                                        o->value ? "=" : "", o->value ? o->value : "");
                                } else
                                        r = merged_push(&m, o, s, s->opt_lines[oi - 1]);
                                if (r < 0)
                                        goto fail;
                        }
                }
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
        *ret = m;
        return 0;
fail:
        merged_done(&m);
        return r;
}
