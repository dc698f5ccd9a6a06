/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The mount record as the udev mode reads it, and nfsfs volumes lines looked up by device. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "core/nfsfs.h"
#include "core/record.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        char *text = fuzz_string(data, size), *again = NULL, *name = NULL;
        struct mount_record r, r2;
        struct nfs_addr a;

        if (!text)
                return 0;
        (void)nfsfs_volume_find(text, makedev(0, 53), &a);
        if (mount_record_parse(text, &r) == 0) {
                /* what is read can be written and read back the same */
                if (mount_record_format(&r, &again) == 0) {
                        if (mount_record_parse(again, &r2) != 0 || strcmp(r.spec, r2.spec) ||
                            strcmp(r.target, r2.target) || r.nconnect != r2.nconnect)
                                abort();
                        mount_record_done(&r2);
                }
                if (mount_record_name(r.target, &name) == 0 && strchr(name, '/'))
                        abort();
                free(name);
                free(again);
                mount_record_done(&r);
        }
        free(text);
        return 0;
}
