/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>

/*
 * The helper's small files, a claim (core/claim.h) and a mount record (core/record.h): a
 * header line, then one "key=value" a line.  One parser for both; each file's reader says what
 * a key means through `set`.
 */
enum {
        KEYFILE_STRICT = 1 << 0, /* the header ends in a newline, and a line without '=' is
                                  * not the file (-EINVAL); else a header alone is a file and
                                  * such a line is skipped */
};

/*
 * Each "key=value" line after `header` to set(ctx, key, value), in order, until one returns
 * non-zero.  0, -EINVAL (not this file: no header, or a line refused by `flags`), -ENOMEM, or
 * what set returned.
 */
int keyfile_parse(const char *text, const char *header, int flags,
                  int (*set)(void *ctx, const char *key, const char *value), void *ctx);
