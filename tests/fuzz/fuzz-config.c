/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The config parser and the merge over whatever it parsed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "core/merge.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct config c = { 0 };
        struct merged m = { 0 };
        struct optlist cmd = { 0 };
        struct nfs_addr a;
        char *text = fuzz_string(data, size);

        if (!text)
                return 0;
        (void)nfs_addr_parse("10.0.0.1", &a);
        (void)config_parse(&c, "fuzz.conf", text);
        (void)optlist_parse(&cmd, "vers=3,hard");
        struct match_input in = { "filer.example.com", &a, 1, "/mnt/data" };
        if (config_merge(&c, &cmd, &in, false, &m) == 0)
                merged_done(&m);
        optlist_done(&cmd);
        config_done(&c);
        free(text);
        return 0;
}
