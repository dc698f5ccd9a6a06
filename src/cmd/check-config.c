/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <libmount.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "sys/conffile.h"

/* --check-config: every problem as file:line; exit 1 when there is one. */
int cmd_check_config(const struct cmd_env *env)
{
        const char *path = env->paths->config;
        struct config conf = { 0 };
        /* owner checks always: report what a root mount would refuse */
        int r = load_config(path, true, &conf);

        for (size_t i = 0; i < conf.nerrors; i++)
                fprintf(stderr, "%s\n", conf.errors[i]);
        if (r == 0 && conf.nerrors == 0)
                printf("%s: %zu section%s, no problems\n", path, conf.n, conf.n == 1 ? "" : "s");
        r = r < 0 || conf.nerrors ? MNT_EX_USAGE : MNT_EX_SUCCESS;
        config_done(&conf);
        return r;
}
