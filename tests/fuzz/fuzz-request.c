/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The command line's options: the request, the helper settings, the options planned. */
#include <stdint.h>
#include <stdlib.h>

#include "core/merge.h"
#include "core/optmap.h"
#include "core/plan.h"
#include "core/request.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct optlist l = { 0 }, fstab = { 0 }, dropped = { 0 }, planned = { 0 };
        struct config none = { 0 };
        struct merged m = { 0 };
        struct nfs_request req;
        struct settings set;
        const struct opt *bad = NULL;
        const struct merged_opt *badm = NULL;
        char why[512];
        char *text = fuzz_string(data, size);

        if (!text)
                return 0;
        if (optlist_parse(&l, text) == 0) {
                for (int v4 = 0; v4 < 2; v4++)
                        if (nfs_request_parse(&l, v4, &req, &bad) < 0)
                                opt_describe_invalid(why, sizeof(why), bad->name, bad->value, "");
                struct match_input in = { "filer", NULL, 0, "/mnt" };
                if (config_merge(&none, &l, &in, false, &m) == 0) {
                        if (plan_settings(&m, &set, &badm) < 0)
                                opt_describe_invalid(why, sizeof(why), badm->opt.name,
                                                     badm->opt.value, "");
                        if (plan_options(&m, NULL, &planned) == 0)
                                free(optlist_to_string(&planned));
                        merged_done(&m);
                }
                (void)optlist_parse(&fstab, "rw,user,nconnect_policy=follow");
                (void)plan_drop_untrusted(&l, &fstab, &dropped);
        }
        optlist_done(&planned);
        optlist_done(&dropped);
        optlist_done(&fstab);
        optlist_done(&l);
        free(text);
        return 0;
}
