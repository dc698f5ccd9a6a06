/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* read_ahead_kb = 15360 | 15x | keep */
struct read_ahead {
        enum { READ_AHEAD_KEEP, READ_AHEAD_KB, READ_AHEAD_RSIZE_MULT } kind;
        unsigned long n;
};

/* The largest value accepted, in KiB (1 GiB); the kernel caps it lower in practice. */
#define READ_AHEAD_KB_MAX (1024UL * 1024)

int read_ahead_parse(const char *s, struct read_ahead *ret);
/* The KiB to write for a mount with `rsize` bytes; 0 when nothing is to be written. */
unsigned long read_ahead_kb(const struct read_ahead *ra, unsigned long rsize);
