/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define _cleanup_(f) __attribute__((cleanup(f)))
#define _cleanup_free_ _cleanup_(freep)
#define _unused_ __attribute__((unused))
#define _printf_(a, b) __attribute__((format(printf, a, b)))
#define ELEMENTSOF(x) (sizeof(x) / sizeof((x)[0]))
#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

static inline void freep(void *p)
{
        free(*(void **)p);
}

/* Hand ownership out of a _cleanup_ variable. */
#define steal_pointer(pp)                        \
        ({                                       \
                __typeof__(*(pp)) _tmp_ = *(pp); \
                *(pp) = NULL;                    \
                _tmp_;                           \
        })

static inline void closedirp(DIR **d)
{
        if (*d)
                closedir(*d);
}

static inline void fclosep(FILE **f)
{
        if (*f)
                fclose(*f);
}

/* The same for a file descriptor: the variable is left -1. */
static inline int steal_fd(int *fd)
{
        int r = *fd;
        *fd = -1;
        return r;
}

static inline void closep(int *fd)
{
        if (*fd >= 0)
                close(*fd);
}

static inline int streq(const char *a, const char *b)
{
        return strcmp(a, b) == 0;
}

static inline bool startswith(const char *s, const char *prefix)
{
        return strncmp(s, prefix, strlen(prefix)) == 0;
}

static inline int streq_ptr(const char *a, const char *b)
{
        if (!a || !b)
                return a == b;
        return strcmp(a, b) == 0;
}
