/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/*
 * One rule for text that came from outside (a mount point, a spec, a config line) on its way
 * to a terminal, the journal, JSON or a Prometheus label: a byte below 0x20, 0x7f, and (with
 * ESCAPE_UTF8) a byte that is not part of a valid UTF-8 sequence become the four characters
 * \xNN.  A newline cannot forge a second message or line, an ESC sequence cannot drive the
 * terminal, and the text stays valid UTF-8 (Prometheus rejects a whole file otherwise).
 * With ESCAPE_BACKSLASH a backslash is \x5c as well (mountinfo's own way is \134), so that
 * the escaped text reads back one way: a newline (\x0a) and the four characters \x0a differ.
 */
enum {
        ESCAPE_CONTROL = 0,        /* control bytes only (log messages) */
        ESCAPE_UTF8 = 1 << 0,      /* and bytes that are not valid UTF-8 */
        ESCAPE_BACKSLASH = 1 << 1, /* and a backslash (JSON: the escaping is undone by one rule) */
        ESCAPE_ASCII = 1 << 2,     /* and every byte above 0x7f (a terminal whose locale is not
                                      UTF-8) */
};

/* The escaped copy; NULL when out of memory. */
char *escape_text(const char *text, int flags);
/* The length of the valid UTF-8 sequence at s (1-4), or 0 when it is not one. */
size_t utf8_sequence_length(const unsigned char *s);
/* How many bytes of `p` stay as they are under `flags` (0: escape the first one). */
size_t escape_keep(const unsigned char *p, int flags);

/*
 * The kernel's escape of a path byte in mountinfo and mountstats (seq_escape: a backslash and
 * three octal digits, the first 0-3): the byte the four bytes at `s` stand for, or -1 when
 * they are not one.  At most `left` bytes are read, and none after a NUL.
 */
int escape_kernel_octal(const char *s, size_t left);
