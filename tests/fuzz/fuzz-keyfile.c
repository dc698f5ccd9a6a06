/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The helper's "header + key=value lines" files (core/keyfile.c), through both readers: a
 * claim and a mount record.  What either reads is written and read back the same.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/claim.h"
#include "core/keyfile.h"
#include "core/record.h"
#include "core/xprtsec.h"
#include "fuzz.h"

/* Every line the parser hands out: a key without '=' and a value without a newline. */
static int check_line(void *ctx, const char *key, const char *value)
{
        (void)ctx;
        if (strchr(key, '=') || strchr(key, '\n') || strchr(value, '\n'))
                abort();
        return 0;
}

static void claim_roundtrip(const char *text)
{
        struct claim c, c2;
        char *again = NULL;

        if (claim_parse(text, &c) != 0)
                return;
        if (claim_format(&c, &again) == 0) {
                if (claim_parse(again, &c2) != 0 || c.pid != c2.pid || c.nconnect != c2.nconnect ||
                    strcmp(c.xprtsec, c2.xprtsec) || strcmp(c.target, c2.target) ||
                    strcmp(c.spec, c2.spec))
                        abort();
                claim_done(&c2);
        }
        free(again);
        claim_done(&c);
}

static void record_roundtrip(const char *text)
{
        struct mount_record r, r2;
        char *again = NULL;

        if (mount_record_parse(text, &r) != 0)
                return;
        if (mount_record_format(&r, &again) == 0) {
                if (mount_record_parse(again, &r2) != 0 || strcmp(r.spec, r2.spec) ||
                    strcmp(r.target, r2.target) ||
                    tls_level_of(r.xprtsec) != tls_level_of(r2.xprtsec))
                        abort();
                mount_record_done(&r2);
        }
        free(again);
        mount_record_done(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        char *text = fuzz_string(data, size);

        if (!text)
                return 0;
        (void)keyfile_parse(text, CLAIM_HEADER, KEYFILE_STRICT, check_line, NULL);
        (void)keyfile_parse(text, MOUNT_RECORD_HEADER, 0, check_line, NULL);
        claim_roundtrip(text);
        record_roundtrip(text);
        free(text);
        return 0;
}
