/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * nfs-tuned: the administrator's command beside the mount helper (which keeps mount(8)'s
 * interface).  Not setuid: it reads only what any user may read.
 *
 *   nfs-tuned status [-o LIST] [-nrJPlu] [-T PATH] [-S SPEC] [--prometheus FILE] [MOUNTPOINT]
 */
#include <getopt.h>

#include "cmd/cmd.h"
#include "cmd/commands.h"
#include "cmd/status.h"
#include "shared/macro.h"
#include "shared/log.h"

static const struct command commands[] = { COMMANDS(COMMAND_SKIP, COMMAND_ROW) };

static const struct tool admin = {
        .name = "nfs-tuned",
        .commands = commands,
        .n = ELEMENTSOF(commands),
        .about = "What every NFS mount of this host really got (nconnect asked against the NFS\n"
                 "client's, live connections and their load, read-ahead against the configuration),\n"
                 "the NFS clients only /proc/fs/nfsfs shows, fstab entries that will fight at the\n"
                 "next boot, and host files that defeat the settings.  Standard output holds the\n"
                 "table (or the JSON, or the pairs) only; the findings, the hidden clients and\n"
                 "whatever could not be read go to standard error.",
        .details = status_options_help,
        .help_tail = status_print_columns_help,
};

int main(int argc, char **argv)
{
        struct status_opts o = { 0 };
        struct paths p;
        struct cmd_env env = {
                .tool = &admin, .paths = &p, .argc = argc, .argv = argv, .status = &o
        };
        const struct command *c;
        int rc;

        log_set_name("nfs-tuned");
        if ((rc = status_read_options(&env, true)) >= 0)
                return rc;
        /* the verbs are the table's rows whose name is a word */
        c = optind < argc && argv[optind][0] != '-' ? tool_command(&admin, argv[optind]) : NULL;
        if (!c) {
                if (optind >= argc)
                        log_error("no command given; the command is 'status' (nfs-tuned -h)");
                else
                        log_error("unknown command '%s'; the command is 'status' (nfs-tuned -h)",
                                  argv[optind]);
                return STATUS_EX_ERROR;
        }
        optind++;
        paths_init(&p);
        rc = c->run(&env);
        paths_done(&p);
        return rc;
}
