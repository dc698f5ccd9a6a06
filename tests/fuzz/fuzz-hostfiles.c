/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What nfs-tuned status reads as text: mountstats, nfsmount.conf, udev rule files. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/hostcheck.h"
#include "core/mountstats.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        char *text = fuzz_string(data, size);
        struct mountstats ms = { 0 };
        struct status_report rep = { 0 };

        if (!text)
                return 0;
        for (char *save = NULL, *l = strtok_r(text, "\n", &save); l;
             l = strtok_r(NULL, "\n", &save))
                if (mountstats_feed(&ms, l) < 0)
                        break;
        /* every entry taken once, then none */
        for (size_t i = 0; i < ms.n; i++)
                if (!mountstats_take(&ms, ms.v[i].target) && !ms.v[i].taken)
                        abort();
        mountstats_done(&ms);
        free(text);
        if (!(text = fuzz_string(data, size)))
                return 0;
        (void)udev_rule_writes_read_ahead(text);
        if (hostcheck_nfsmount_conf("fuzz.conf", text, &rep) == 0)
                for (size_t i = 0; i < rep.nfindings; i++)
                        if (!rep.findings[i].text || !strstr(rep.findings[i].text, "fuzz.conf"))
                                abort();
        status_report_done(&rep);
        free(text);
        return 0;
}
