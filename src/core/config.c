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

#include "shared/array.h"
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
        strv_free(c->errors, c->nerrors);
        strv_free(c->sources, c->nsources);
        *c = (struct config){ 0 };
}

int config_add_error(struct config *c, const char *fmt, ...)
{
        va_list ap;

        if (c->nerrors >= CONFIG_ERRORS_MAX) {
                c->nerrors_more++;
                return 0;
        }
        va_start(ap, fmt);
        int r = strv_appendv(&c->errors, &c->nerrors, fmt, ap);
        va_end(ap);
        return r;
}

void config_drop_errors(struct config *c, size_t keep, size_t keep_more)
{
        while (c->nerrors > keep)
                free(c->errors[--c->nerrors]);
        c->nerrors_more = keep_more;
}

int config_add_source(struct config *c, const char *fmt, ...)
{
        va_list ap;
        va_start(ap, fmt);
        int r = strv_appendv(&c->sources, &c->nsources, fmt, ap);
        va_end(ap);
        return r;
}

const char *section_kind_to_string(enum section_kind k)
{
        switch (k) {
        case SECTION_GLOBAL: return "global";
        case SECTION_SERVER: return "server";
        case SECTION_MOUNTPOINT: return "mountpoint";
        case SECTION_PROFILE: return "profile";
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
        if (array_grow(&c->v, c->n) < 0)
                return -ENOMEM;
        struct conf_section *v = c->v;
        v[c->n] = (struct conf_section){ .kind = kind, .line = line };
        v[c->n].file = strdup(file);
        v[c->n].pattern = pattern ? strdup(pattern) : NULL;
        c->n++;
        if (!v[c->n - 1].file || (pattern && !v[c->n - 1].pattern))
                return -ENOMEM;
        return 0;
}

/* Parses `[kind "pattern"]` (quotes optional); returns a message on error. */
static const char *parse_header(char *s, enum section_kind *ret_kind, char **ret_pattern,
                                char err[static CONFIG_WHY_MAX])
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
        else if (strcasecmp(body, "profile") == 0)
                *ret_kind = SECTION_PROFILE;
        else
                return "unknown section (use [global], [server \"NAME\"], [mountpoint \"PATH\"] or "
                       "[profile \"NAME\"])";
        if (!*arg)
                return "section needs a pattern, e.g. [server \"nfs.example.com\"]";
        if (*ret_kind == SECTION_MOUNTPOINT && arg[0] != '/')
                return "a mount point pattern must be an absolute path";
        if (*ret_kind == SECTION_PROFILE && !profile_name_valid(arg))
                return "a profile name is letters, digits, '-', '_' and '.'";
        if (*ret_kind == SECTION_SERVER && strchr(arg, '/') && !strchr(arg, '*')) {
                const char *why = nfs_cidr_problem(arg);
                if (why) {
                        snprintf(err, CONFIG_WHY_MAX,
                                 "not a valid CIDR: %s (e.g. 10.0.0.0/8 or fd00::/8)", why);
                        return err;
                }
        }
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
        if (streq(key, "profile") && s->kind == SECTION_PROFILE)
                return "a profile cannot name another profile";
        if (d && (d->check || d->max)) {
                bad = optdef_check(d, value) < 0;
        } else if (value && !*value && !(d && optdef_decides_client(d))) {
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
        const char *hint = opt_hint(key);
        if (hint)
                snprintf(buf, bufsz, "%s must be %s", opt_group(key), hint);
        else
                snprintf(buf, bufsz, "not valid (see nfs(5))");
        return buf;
}

static int add_option(struct conf_section *s, const char *key, const char *value, unsigned line)
{
        if (s->opts.n >= CONFIG_OPTIONS_MAX)
                return -E2BIG;
        /* opt_lines grows with opts: one line number per option */
        if (array_grow(&s->opt_lines, s->opts.n) < 0)
                return -ENOMEM;
        s->opt_lines[s->opts.n] = line;
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

/* Where the parser is: the section options go to, or none after a bad header. */
struct parse_state {
        struct config *c;
        const char *file;
        unsigned line;
        struct conf_section *cur;
        bool skipping;
};

static int parse_header_line(struct parse_state *st, char *s)
{
        enum section_kind kind;
        char *pattern, why[CONFIG_WHY_MAX];
        const char *err = parse_header(s, &kind, &pattern, why);

        if (err) {
                /* options up to the next header belong to no section */
                st->skipping = true;
                return config_add_error(st->c, "%s:%u: %s; its options are ignored", st->file,
                                        st->line, err);
        }
        int r = new_section(st->c, kind, pattern, st->file, st->line);
        if (r == -E2BIG) {
                /* said once, not again for every later file */
                if (!st->c->sections_full &&
                    config_add_error(st->c, "%s:%u: more than %d sections, rest ignored", st->file,
                                     st->line, CONFIG_SECTIONS_MAX) < 0)
                        return -ENOMEM;
                st->c->sections_full = true;
                return -E2BIG;
        }
        if (r < 0)
                return r;
        st->cur = &st->c->v[st->c->n - 1];
        st->skipping = false;
        return 0;
}

/* "key = value" or "flag": splits in place; a message when the line cannot be used. */
static const char *split_option(char *s, char **ret_key, char **ret_value)
{
        char *eq = strchr(s, '='), *key = s, *value = NULL;

        if (eq) {
                *eq = '\0';
                key = strip(s);
                value = strip(eq + 1);
                size_t vlen = strlen(value), quotes = 0;
                for (const char *q = value; *q; q++)
                        quotes += *q == '"';
                if (quotes % 2) {
                        *ret_key = key;
                        return "unbalanced '\"' in the value";
                }
                if (vlen >= 2 && value[0] == '"' && value[vlen - 1] == '"') {
                        value[vlen - 1] = '\0';
                        value++;
                }
        }
        *ret_key = key;
        *ret_value = value;
        return NULL;
}

static int parse_option_line(struct parse_state *st, char *s)
{
        char *key, *value, why[256];
        const char *err;
        int r;

        if (!st->cur) {
                /* lines before any header are global */
                r = new_section(st->c, SECTION_GLOBAL, NULL, st->file, st->line);
                if (r < 0)
                        return r;
                st->cur = &st->c->v[st->c->n - 1];
        }
        if ((err = split_option(s, &key, &value)))
                return config_add_error(st->c, "%s:%u: %s: %s, skipped", st->file, st->line, key,
                                        err);
        if (!valid_key(key)) {
                /* a section header behind other bytes (a typo, an invisible character): its
                 * options must not land in the section before, or in [global], and apply to
                 * mounts they were not meant for */
                if (strpbrk(s, "[]")) {
                        st->skipping = true;
                        return config_add_error(st->c,
                                                "%s:%u: '%s' is neither an option nor a "
                                                "section header (something stands before '['?); "
                                                "the options after it, up to the next section "
                                                "header, are ignored",
                                                st->file, st->line, key);
                }
                return config_add_error(st->c, "%s:%u: '%s' is not an option name, skipped",
                                        st->file, st->line, key);
        }
        if (strchr(key, ',') || (value && strchr(value, ',')))
                return config_add_error(st->c, "%s:%u: one option per line, skipped", st->file,
                                        st->line);
        if ((err = check_value(st->cur, key, value, why, sizeof(why))))
                return config_add_error(st->c, "%s:%u: %s%s%s: %s, skipped", st->file, st->line,
                                        key, value ? "=" : "", value ? value : "", err);
        r = add_option(st->cur, key, value, st->line);
        if (r == -E2BIG)
                return config_add_error(st->c,
                                        "%s:%u: more than %d options in one section, skipped",
                                        st->file, st->line, CONFIG_OPTIONS_MAX);
        return r;
}

/* The next line of text into buf, comments cut and blanks stripped; NULL when it is to be
 * skipped (reported) or blank. */
static char *read_line(struct parse_state *st, const char **p, char buf[static CONFIG_LINE_MAX])
{
        const char *nl = strchr(*p, '\n');
        size_t len = nl ? (size_t)(nl - *p) : strlen(*p);
        const char *start = *p;

        *p += len + (nl ? 1 : 0);
        st->line++;
        if (len >= CONFIG_LINE_MAX) {
                config_add_error(st->c, "%s:%u: line of %d bytes or more, skipped", st->file,
                                 st->line, CONFIG_LINE_MAX);
                return NULL;
        }
        memcpy(buf, start, len);
        buf[len] = '\0';
        if (memchr(buf, '\0', len)) {
                config_add_error(st->c, "%s:%u: NUL byte in line, skipped", st->file, st->line);
                return NULL;
        }
        /* '#' starts a comment at the start of a line or after a blank */
        for (char *h = strchr(buf, '#'); h; h = strchr(h + 1, '#'))
                if (h == buf || isspace((unsigned char)h[-1])) {
                        *h = '\0';
                        break;
                }
        char *s = strip(buf);
        return *s ? s : NULL;
}

int config_parse(struct config *c, const char *file, const char *text)
{
        struct parse_state st = { .c = c, .file = file };
        char buf[CONFIG_LINE_MAX];
        const char *p = text;
        int r = 0;

        /* a UTF-8 byte-order mark, as some editors write: not part of the first line */
        if (strncmp(p, "\xEF\xBB\xBF", 3) == 0)
                p += 3;
        while (*p && r >= 0) {
                char *s = read_line(&st, &p, buf);
                if (!s)
                        continue;
                if (*s == '[')
                        r = parse_header_line(&st, s);
                else if (!st.skipping)
                        r = parse_option_line(&st, s);
        }
        /* too many sections: reported, the rest ignored */
        return r == -E2BIG ? 0 : r;
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

static bool profile_defined(const struct config *c, const char *name)
{
        for (size_t i = 0; i < c->n; i++)
                if (c->v[i].kind == SECTION_PROFILE && streq(c->v[i].pattern, name))
                        return true;
        return false;
}

int config_check_profiles(struct config *c, bool (*shown)(const char *file))
{
        int hidden = 0;

        for (size_t i = 0; i < c->n; i++) {
                const struct conf_section *s = &c->v[i];
                bool show = !shown || shown(s->file);
                for (size_t k = 0; k < s->opts.n; k++) {
                        if (!streq(s->opts.v[k].name, "profile") ||
                            profile_defined(c, s->opts.v[k].value))
                                continue;
                        if (!show)
                                hidden++;
                        else if (config_add_error(c,
                                                  "%s:%u: profile %s is not defined (no [profile "
                                                  "\"%s\"] section in any file read); it is not "
                                                  "used",
                                                  s->file, s->opt_lines[k], s->opts.v[k].value,
                                                  s->opts.v[k].value) < 0)
                                return -ENOMEM;
                }
        }
        return hidden;
}
