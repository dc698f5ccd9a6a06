/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shared/escape.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts unless s[0..n) is valid UTF-8 without control bytes (newlines allowed or not). */
static inline void fuzz_check_utf8(const char *s, size_t n, bool newlines)
{
        for (size_t i = 0; i < n;) {
                const unsigned char *p = (const unsigned char *)s + i;
                size_t k = utf8_sequence_length(p);
                if (*p == '\n' && newlines) {
                        i++;
                        continue;
                }
                if (k == 0 || *p < 0x20 || *p == 0x7f)
                        abort();
                i += k;
        }
}

/* The input as a C string (up to its first NUL, as a file read would be used). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
        char *s = malloc(size + 1);
        if (s) {
                memcpy(s, data, size);
                s[size] = '\0';
        }
        return s;
}
