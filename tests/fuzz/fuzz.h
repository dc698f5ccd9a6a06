/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
