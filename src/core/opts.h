/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* An ordered list of mount options, "name" or "name=value". */
struct opt {
        char *name;
        char *value; /* NULL for a flag */
};

struct optlist {
        struct opt *v;
        size_t n;
};

/*
 * One option of a mount option string, as spans into it: the name, and the value after the
 * first '=' (NULL for a flag).
 */
struct optspan {
        const char *name;
        size_t namelen;
        const char *value;
        size_t valuelen;
};

/*
 * The next option of the mount option string at *p, split as mount.nfs and libmount split it:
 * at commas outside double quotes (the quotes stay in the value), empty items skipped, no
 * backslash escape.  1 and *ret with *p moved past it; 0 at the end; -EINVAL for an unclosed
 * quote or an empty name ("=x").  Nothing is copied: the mount path reads mountinfo with it.
 */
int optstr_next(const char **p, struct optspan *ret);
/* Whether the option's name is exactly `name` (inline: a literal's length is known). */
static inline bool optspan_is(const struct optspan *o, const char *name)
{
        return strlen(name) == o->namelen && memcmp(o->name, name, o->namelen) == 0;
}

/* The option's value as a string in `buf`, or NULL for a flag or a value `buf` cannot hold. */
const char *optspan_value(const struct optspan *o, char *buf, size_t size);

void optlist_done(struct optlist *l);
/* Appends the options of a mount option string (optstr_next(): quotes kept); -EINVAL. */
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
