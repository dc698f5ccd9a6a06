/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <libmount.h>
#include <string.h>

#include "cmd/cmd.h"
#include "shared/log.h"

/* umount.nfs, umount.nfs4: everything, argv[0] included, goes to the real binary unchanged. */
int cmd_umount(const struct cmd_env *env)
{
        struct config conf = { 0 };
        struct program prog = { .fd = -1 };
        int rc = open_config_and_program(env, &conf, &prog);

        if (rc == MNT_EX_SUCCESS)
                rc = check_program(&prog, env->paths->config);
        if (rc == MNT_EX_SUCCESS) {
                /* mount.nfs acts on its name */
                int r = program_exec(&prog, env->argv);
                log_error("cannot run %s: %s", program_name(&prog), strerror(-r));
                rc = MNT_EX_SYSERR;
        }
        program_close(&prog);
        config_done(&conf);
        return rc;
}
