/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>

/* An ordered list of mount options, "name" or "name=value". */
struct opt {
        char *name;
        char *value; /* NULL for a flag */
};

struct optlist {
        struct opt *v;
        size_t n;
};

void optlist_done(struct optlist *l);
/* Appends the options of a mount option string (libmount syntax, quotes kept). */
int optlist_parse(struct optlist *l, const char *optstr);
int optlist_add(struct optlist *l, const char *name, const char *value);
/* The last occurrence wins, as in the kernel's parser. */
const struct opt *optlist_find(const struct optlist *l, const char *name);
/* "a,b=c"; "" for an empty list. Caller frees. */
char *optlist_to_string(const struct optlist *l);

/* Parses a decimal unsigned value in [min,max]; 0 or -EINVAL/-ERANGE. */
int parse_uint(const char *s, unsigned long min, unsigned long max, unsigned long *ret);
/*
 * Parses an unsigned value as the kernel parses a u32 mount option (kstrtouint with base 0:
 * "+4", "0x4" and "04" are 4, "010" is 8, "08" is invalid), at most `max`; 0, -EINVAL or -ERANGE.
 */
int parse_kernel_uint(const char *s, unsigned long max, unsigned long *ret);
