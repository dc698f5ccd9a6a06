/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

/*
 * Room for one more element at v[n] of an array that only ever grows through this macro: the
 * capacity is implied by n (4, 8, 16 ...), so no field holds it and appending is amortised
 * O(1).  0 or -ENOMEM; *v is unchanged on failure.
 */
#define array_grow(v, n) array_grow_((void **)(v), (n), sizeof(**(v)))

static inline int array_grow_(void **v, size_t n, size_t size)
{
        if (n != 0 && (n < 4 || (n & (n - 1)) != 0))
                return 0; /* below the implied capacity */
        size_t cap = n ? n * 2 : 4;
        if (cap > SIZE_MAX / size)
                return -ENOMEM;
        void *nv = realloc(*v, cap * size);
        if (!nv)
                return -ENOMEM;
        *v = nv;
        return 0;
}

/* Frees n strings and the array holding them. */
static inline void strv_free(char **v, size_t n)
{
        for (size_t i = 0; i < n; i++)
                free(v[i]);
        free(v);
}

/* Appends a formatted string to an array of n strings grown by array_grow(). */
__attribute__((format(printf, 3, 0))) static inline int strv_appendv(char ***v, size_t *n,
                                                                     const char *fmt, va_list ap)
{
        char *s;

        if (array_grow(v, *n) < 0 || vasprintf(&s, fmt, ap) < 0)
                return -ENOMEM;
        (*v)[(*n)++] = s;
        return 0;
}
