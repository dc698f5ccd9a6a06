/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for `n` more bytes and the NUL; false (and sticky) when out of memory. */
static bool reserve(struct strbuf *b, size_t n)
{
        if (b->oom)
                return false;
        if (b->len + n + 1 <= b->cap)
                return true;
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
                cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) {
                b->oom = true;
                return false;
        }
        b->s = s;
        b->cap = cap;
        return true;
}

void strbuf_add(struct strbuf *b, const char *s, size_t n)
{
        if (!reserve(b, n))
                return;
        memcpy(b->s + b->len, s, n);
        b->len += n;
        b->s[b->len] = '\0';
}

void strbuf_puts(struct strbuf *b, const char *s)
{
        strbuf_add(b, s, strlen(s));
}

void strbuf_printf(struct strbuf *b, const char *fmt, ...)
{
        va_list ap;
        char small[128];

        va_start(ap, fmt);
        int n = vsnprintf(small, sizeof(small), fmt, ap);
        va_end(ap);
        if (n < 0) {
                b->oom = true;
                return;
        }
        if ((size_t)n < sizeof(small)) {
                strbuf_add(b, small, (size_t)n);
                return;
        }
        if (!reserve(b, (size_t)n))
                return;
        va_start(ap, fmt);
        vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
        va_end(ap);
        b->len += (size_t)n;
}

char *strbuf_steal(struct strbuf *b, size_t *ret_len)
{
        if (!b->oom && !b->s)
                reserve(b, 0);
        if (b->oom) {
                strbuf_done(b);
                return NULL;
        }
        b->s[b->len] = '\0';
        if (ret_len)
                *ret_len = b->len;
        char *s = b->s;
        *b = (struct strbuf){ 0 };
        return s;
}

void strbuf_done(struct strbuf *b)
{
        free(b->s);
        *b = (struct strbuf){ 0 };
}
