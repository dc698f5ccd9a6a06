/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/record.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/optmap.h"
#include "core/request.h"
#include "shared/macro.h"

void mount_record_done(struct mount_record *r)
{
        free(r->spec);
        free(r->target);
        free(r->server);
        *r = (struct mount_record){ 0 };
}

static bool escape_keeps(char c, bool first)
{
        if (first && c == '.')
                return false;
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == ':' || c == '_' || c == '.';
}

int mount_record_name(const char *target, char **ret)
{
        size_t len = strlen(target);
        char *out = malloc(len * 4 + 2), *t = out;

        if (!out)
                return -ENOMEM;
        while (*target == '/')
                target++;
        for (const char *s = target; *s; s++) {
                if (*s == '/') {
                        /* "a//b" and a trailing '/' name the same directory */
                        if (s[1] && s[1] != '/' && t > out)
                                *t++ = '-';
                        continue;
                }
                if (escape_keeps(*s, t == out))
                        *t++ = *s;
                else
                        t += sprintf(t, "\\x%02x", (unsigned char)*s);
        }
        if (t == out)
                *t++ = '-';
        *t = '\0';
        if (t - out > NAME_MAX) {
                free(out);
                return -ENAMETOOLONG;
        }
        *ret = out;
        return 0;
}

int mount_record_format(const struct mount_record *r, char **ret)
{
        char ra[READ_AHEAD_STRLEN];

        if (strchr(r->spec, '\n') || strchr(r->target, '\n') || strchr(r->server, '\n'))
                return -EINVAL;
        read_ahead_to_string(&r->read_ahead, ra);
        if (asprintf(ret,
                     MOUNT_RECORD_HEADER "\nspec=%s\ntarget=%s\nserver=%s\nnconnect=%u\n"
                                         "read_ahead_kb=%s\nbg=%s\n",
                     r->spec, r->target, r->server, r->nconnect, ra, r->bg ? "yes" : "no") < 0)
                return -ENOMEM;
        return 0;
}

/* One line "key=value": the value of a string key replaces the field. */
static int record_set(struct mount_record *r, const char *key, const char *value)
{
        char **field = streq(key, "spec")   ? &r->spec :
                       streq(key, "target") ? &r->target :
                       streq(key, "server") ? &r->server :
                                              NULL;
        unsigned long u;

        if (field) {
                free(*field);
                return (*field = strdup(value)) ? 0 : -ENOMEM;
        }
        if (streq(key, "nconnect") && parse_uint(value, 0, NCONNECT_MAX, &u) == 0)
                r->nconnect = (unsigned)u;
        else if (streq(key, "read_ahead_kb"))
                (void)read_ahead_parse(value, &r->read_ahead);
        else if (streq(key, "bg"))
                r->bg = streq(value, "yes");
        return 0;
}

int mount_record_parse(const char *text, struct mount_record *ret)
{
        struct mount_record r = { .read_ahead = { READ_AHEAD_KEEP, 0 } };
        size_t hl = strlen(MOUNT_RECORD_HEADER);
        int rc = 0;

        if (strncmp(text, MOUNT_RECORD_HEADER, hl) != 0 || (text[hl] != '\n' && text[hl]))
                return -EINVAL;
        for (const char *p = text + hl; *p && rc == 0;) {
                p += *p == '\n';
                size_t n = strcspn(p, "\n");
                _cleanup_free_ char *line = strndup(p, n);
                if (!line)
                        rc = -ENOMEM;
                char *eq = line ? strchr(line, '=') : NULL;
                if (eq) {
                        *eq = '\0';
                        rc = record_set(&r, line, eq + 1);
                }
                p += n;
        }
        if (rc == 0 && (!r.spec || !r.target))
                rc = -EINVAL;
        if (rc == 0 && !r.server && !(r.server = strdup("")))
                rc = -ENOMEM;
        if (rc < 0) {
                mount_record_done(&r);
                return rc;
        }
        *ret = r;
        return 0;
}

bool options_bg(const struct optlist *l)
{
        const struct opt *last = NULL;

        for (size_t i = 0; i < l->n; i++)
                if (streq(opt_group(l->v[i].name), "fg"))
                        last = &l->v[i];
        return last && streq(last->name, "bg");
}
