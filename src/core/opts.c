/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/opts.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared/array.h"
#include "shared/macro.h"

void optlist_done(struct optlist *l)
{
        for (size_t i = 0; i < l->n; i++) {
                free(l->v[i].name);
                free(l->v[i].value);
        }
        free(l->v);
        l->v = NULL;
        l->n = 0;
}

int optlist_add(struct optlist *l, const char *name, const char *value)
{
        if (array_grow(&l->v, l->n) < 0)
                return -ENOMEM;
        char *n = strdup(name);
        char *val = value ? strdup(value) : NULL;
        if (!n || (value && !val)) {
                free(n);
                free(val);
                return -ENOMEM;
        }
        l->v[l->n++] = (struct opt){ .name = n, .value = val };
        return 0;
}

int optstr_next(const char **p, struct optspan *ret)
{
        const char *s = *p, *sep = NULL;
        bool quoted = false;

        while (*s == ',')
                s++;
        if (!*s) {
                *p = s;
                return 0;
        }
        const char *start = s;
        for (; *s && (quoted || *s != ','); s++) {
                if (*s == '"')
                        quoted = !quoted;
                else if (!quoted && !sep && *s == '=')
                        sep = s;
        }
        /* an unclosed quote would swallow the rest of the string into one value */
        if (quoted || sep == start)
                return -EINVAL;
        *ret = (struct optspan){
                .name = start,
                .namelen = (size_t)((sep ? sep : s) - start),
                .value = sep ? sep + 1 : NULL,
                .valuelen = sep ? (size_t)(s - sep - 1) : 0,
        };
        *p = s;
        return 1;
}

const char *optspan_value(const struct optspan *o, char *buf, size_t size)
{
        if (!o->value || o->valuelen >= size)
                return NULL;
        memcpy(buf, o->value, o->valuelen);
        buf[o->valuelen] = '\0';
        return buf;
}

int optlist_parse(struct optlist *l, const char *optstr)
{
        struct optspan o;
        int r;

        if (!optstr)
                return 0;
        while ((r = optstr_next(&optstr, &o)) > 0) {
                _cleanup_free_ char *n = strndup(o.name, o.namelen);
                _cleanup_free_ char *v = o.value ? strndup(o.value, o.valuelen) : NULL;
                if (!n || (o.value && !v))
                        return -ENOMEM;
                if ((r = optlist_add(l, n, v)) < 0)
                        return r;
        }
        return r;
}

const struct opt *optlist_find(const struct optlist *l, const char *name)
{
        for (size_t i = l->n; i > 0; i--)
                if (streq(l->v[i - 1].name, name))
                        return &l->v[i - 1];
        return NULL;
}

char *optlist_to_string(const struct optlist *l)
{
        size_t len = 1;
        for (size_t i = 0; i < l->n; i++)
                len += strlen(l->v[i].name) + (l->v[i].value ? strlen(l->v[i].value) + 1 : 0) + 1;
        char *s = malloc(len), *p = s;
        if (!s)
                return NULL;
        *p = '\0';
        for (size_t i = 0; i < l->n; i++) {
                if (i)
                        *p++ = ',';
                p = stpcpy(p, l->v[i].name);
                if (l->v[i].value) {
                        *p++ = '=';
                        p = stpcpy(p, l->v[i].value);
                }
        }
        return s;
}

int parse_uint(const char *s, unsigned long min, unsigned long max, unsigned long *ret)
{
        if (!s || !*s || *s == '-' || *s == '+' || isspace((unsigned char)*s))
                return -EINVAL;
        char *end;
        errno = 0;
        unsigned long v = strtoul(s, &end, 10);
        if (*end)
                return -EINVAL;
        if (errno == ERANGE || v < min || v > max)
                return -ERANGE;
        *ret = v;
        return 0;
}

int parse_kernel_uint(const char *s, unsigned long max, unsigned long *ret)
{
        unsigned base = 10;
        unsigned long v = 0;
        const char *p;

        if (!s)
                return -EINVAL;
        /* kstrtouint(s, 0): an optional '+', then 0x.. hex, 0.. octal or decimal */
        if (*s == '+')
                s++;
        if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2])) {
                base = 16;
                s += 2;
        } else if (s[0] == '0')
                base = 8;
        for (p = s; *p && *p != '\n'; p++) {
                unsigned d = isdigit((unsigned char)*p)    ? (unsigned)(*p - '0')
                             : isxdigit((unsigned char)*p) ? (unsigned)(tolower(*p) - 'a' + 10)
                                                           : base;
                if (d >= base)
                        return -EINVAL;
                if (v > (UINT32_MAX - d) / base)
                        return -ERANGE;
                v = v * base + d;
        }
        /* digits, and at most the one newline the kernel allows at the end */
        if (p == s || (*p == '\n' && p[1]))
                return -EINVAL;
        if (v > max)
                return -ERANGE;
        *ret = v;
        return 0;
}
