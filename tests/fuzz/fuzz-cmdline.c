/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* argv (NUL-separated words), the spec, the options and the plan built from them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/cmdline.h"
#include "fuzz.h"
#include "core/plan.h"
#include "core/request.h"
#include "core/spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        char *buf = malloc(size + 1), *argv[64];
        int argc = 0;

        if (!buf)
                return 0;
        memcpy(buf, data, size);
        buf[size] = '\0';
        for (size_t i = 0; i <= size && argc < 63;) {
                argv[argc++] = buf + i;
                i += strlen(buf + i) + 1;
        }
        argv[argc] = NULL;

        struct cmdline cl;
        char err[CMDLINE_ERR_MAX];
        if (cmdline_parse(argc, argv, &cl, err) == 0) {
                struct nfs_spec spec;
                if (cl.spec && nfs_spec_parse(cl.spec, &spec) == 0)
                        nfs_spec_done(&spec);
                struct optlist l = { 0 };
                struct nfs_request req;
                if (optlist_parse(&l, cl.opts) == 0) {
                        (void)nfs_request_parse(&l, cl.v4_by_name, &req, NULL);
                        char *s = optlist_to_string(&l);
                        char **a = NULL;
                        if (s && cl.mode == RUN_MOUNT && plan_argv(&cl, s, &a) == 0)
                                plan_argv_free(a);
                        free(s);
                }
                optlist_done(&l);
                cmdline_done(&cl);
        }
        free(buf);
        return 0;
}
