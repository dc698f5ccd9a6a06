/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "shared/macro.h"

/*
 * A growing text in memory: the core formats a file (the Prometheus textfile) into one and
 * hands it to the front, which writes it (sys/fileio.c) or prints it.  Out of memory is
 * sticky: the appends after it do nothing and strbuf_steal() returns NULL, so a caller checks
 * once at the end.  Zero-initialised is empty.
 */
struct strbuf {
        char *s; /* NUL-terminated once anything was added */
        size_t len, cap;
        bool oom;
};

void strbuf_add(struct strbuf *b, const char *s, size_t n);
void strbuf_puts(struct strbuf *b, const char *s);
void strbuf_printf(struct strbuf *b, const char *fmt, ...) _printf_(2, 3);
/* The text ("" when nothing was added), the buffer emptied; NULL when out of memory (freed). */
char *strbuf_steal(struct strbuf *b, size_t *ret_len);
void strbuf_done(struct strbuf *b);
