/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "shared/escape.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t utf8_sequence_length(const unsigned char *s)
{
        size_t n;
        unsigned cp;

        if (s[0] < 0x80)
                return 1;
        if (s[0] >= 0xc2 && s[0] <= 0xdf)
                n = 2, cp = s[0] & 0x1f;
        else if (s[0] >= 0xe0 && s[0] <= 0xef)
                n = 3, cp = s[0] & 0x0f;
        else if (s[0] >= 0xf0 && s[0] <= 0xf4)
                n = 4, cp = s[0] & 0x07;
        else
                return 0;
        for (size_t i = 1; i < n; i++) {
                if ((s[i] & 0xc0) != 0x80)
                        return 0; /* also stops at the NUL */
                cp = cp << 6 | (s[i] & 0x3f);
        }
        /* overlong forms, UTF-16 surrogates, beyond U+10FFFF */
        if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff))
                return 0;
        return n;
}

/*
 * A character a terminal or an editor acts on: C1 controls (U+0080-U+009F: 0x9b is a CSI, as
 * ESC [ is); the bidi marks, overrides and isolates (U+061C, U+200E-U+200F, U+202A-U+202E,
 * U+2066-U+2069), which show a line in another order than its bytes; the line and paragraph
 * separators (U+2028, U+2029), which break a line where its bytes do not.
 */
static bool utf8_is_control(const unsigned char *p, size_t n)
{
        if (n == 2)
                return (p[0] == 0xc2 && p[1] <= 0x9f) || (p[0] == 0xd8 && p[1] == 0x9c);
        if (n != 3 || p[0] != 0xe2)
                return false;
        return (p[1] == 0x80 && (p[2] == 0x8e || p[2] == 0x8f || (p[2] >= 0xa8 && p[2] <= 0xae))) ||
               (p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9);
}

size_t escape_keep(const unsigned char *p, int flags)
{
        if (*p < 0x20 || *p == 0x7f || (*p == '\\' && flags & ESCAPE_BACKSLASH))
                return 0;
        if (*p < 0x80)
                return 1;
        if (flags & ESCAPE_ASCII)
                return 0;
        size_t n = utf8_sequence_length(p);
        if (n > 0)
                return utf8_is_control(p, n) ? 0 : n;
        /* not UTF-8: kept as a byte only where a byte is allowed, never a raw C1 (0x9b: CSI) */
        return flags & ESCAPE_UTF8 || *p <= 0x9f ? 0 : 1;
}

char *escape_text(const char *text, int flags)
{
        char *buf = malloc(4 * strlen(text) + 1), *q = buf;

        if (!buf)
                return NULL;
        for (const unsigned char *p = (const unsigned char *)text; *p;) {
                size_t n = escape_keep(p, flags);
                if (n == 0) {
                        /* a control character: every byte of it, none left raw behind */
                        size_t c = utf8_sequence_length(p);
                        for (size_t i = 0; i < (c ? c : 1); i++)
                                q += sprintf(q, "\\x%02x", *p++);
                        continue;
                }
                memcpy(q, p, n);
                q += n;
                p += n;
        }
        *q = '\0';
        return buf;
}

int escape_kernel_octal(const char *s, size_t left)
{
        if (left < 4 || s[0] != '\\' || s[1] < '0' || s[1] > '3' || s[2] < '0' || s[2] > '7' ||
            s[3] < '0' || s[3] > '7')
                return -1;
        return (s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0');
}
