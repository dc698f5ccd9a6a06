/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/opts.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <libmount.h>
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

int optlist_parse(struct optlist *l, const char *optstr)
{
        if (!optstr)
                return 0;
        /* libmount stops at an unclosed quote and would drop the rest silently */
        size_t quotes = 0;
        for (const char *q = optstr; *q; q++)
                quotes += *q == '"';
        if (quotes % 2)
                return -EINVAL;
        _cleanup_free_ char *copy = strdup(optstr);
        if (!copy)
                return -ENOMEM;
        char *p = copy, *name, *value;
        size_t namesz, valuesz;
        int r;
        while ((r = mnt_optstr_next_option(&p, &name, &namesz, &value, &valuesz)) == 0) {
                if (namesz == 0 || *name == '=')
                        return -EINVAL; /* "=x" */
                _cleanup_free_ char *n = strndup(name, namesz);
                _cleanup_free_ char *v = value ? strndup(value, valuesz) : NULL;
                if (!n || (value && !v))
                        return -ENOMEM;
                r = optlist_add(l, n, v);
                if (r < 0)
                        return r;
        }
        return r < 0 ? -EINVAL : 0;
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
