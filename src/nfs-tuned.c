/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * nfs-tuned: the administrator's command beside the mount helper (which keeps mount(8)'s
 * interface).  Not setuid: it reads only what any user may read.
 *
 *   nfs-tuned status [-o LIST] [-nrJPlu] [-T PATH] [-S SPEC] [--prometheus FILE] [MOUNTPOINT]
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/commands.h"
#include "cmd/status.h"
#include "shared/macro.h"
#include "shared/log.h"

static int cmd_status_verb(const struct cmd_env *env);

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
        .details = "Options of status:\n"
                   "  -T, --target PATH    the NFS mount that holds PATH\n"
                   "  -S, --source SPEC    the mounts of SPEC (server:/export)\n"
                   "  -o, --output LIST    the mounts table's columns (+LIST: added to the default)\n"
                   "      --output-all     every column\n"
                   "  -n, --noheadings     no header line\n"
                   "  -r, --raw            raw output: no alignment\n"
                   "  -l, --list           a list (the only form; findmnt's option, accepted)\n"
                   "  -P, --pairs          NAME=\"value\" pairs, one line a mount\n"
                   "  -J, --json           JSON: {\"mounts\":[...],\"clients\":[...],\"findings\":[...]}\n"
                   "  -u, --notruncate     never cut a column to the terminal's width\n"
                   "      --prometheus FILE  write node_exporter's textfile format to FILE\n"
                   "                       (atomically; \"-\": standard output) and print nothing\n"
                   "\n"
                   "Exit status: 0 nothing found, 1 findings, 2 an error or an input that could not\n"
                   "be read (the answer is not whole).  See nfs-tuned(8).\n",
        .help_tail = status_print_columns_help,
};

enum { OPT_PROMETHEUS = 0x100, OPT_OUTPUT_ALL };

static const struct option longopts[] = {
        { "output", required_argument, NULL, 'o' },
        { "output-all", no_argument, NULL, OPT_OUTPUT_ALL },
        { "noheadings", no_argument, NULL, 'n' },
        { "raw", no_argument, NULL, 'r' },
        { "json", no_argument, NULL, 'J' },
        { "pairs", no_argument, NULL, 'P' },
        { "list", no_argument, NULL, 'l' },
        { "notruncate", no_argument, NULL, 'u' },
        { "target", required_argument, NULL, 'T' },
        { "source", required_argument, NULL, 'S' },
        { "prometheus", required_argument, NULL, OPT_PROMETHEUS },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { 0 },
};

/* The options up to the first argument ("+") or all of them; -1 to go on, or an exit code. */
static int read_options(const struct cmd_env *env, const char *optstring)
{
        struct status_opts *o = env->status;
        int argc = env->argc;
        char **argv = env->argv;
        int c;

        while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
                switch (c) {
                case 'o': o->columns = optarg; break;
                case OPT_OUTPUT_ALL: o->all_columns = true; break;
                case 'n': o->noheadings = true; break;
                case 'r': o->raw = true; break;
                case 'J': o->json = true; break;
                case 'P': o->pairs = true; break;
                case 'l': break;
                case 'u': o->notruncate = true; break;
                case 'T': o->target = optarg; break;
                case 'S': o->source = optarg; break;
                case OPT_PROMETHEUS: o->prometheus = optarg; break;
                case 'h': return commands[ADMIN_HELP].run(env);
                case 'V': return commands[ADMIN_VERSION].run(env);
                default: fprintf(stderr, "Try 'nfs-tuned -h'.\n"); return STATUS_EX_ERROR;
                }
        }
        return -1;
}

#define OPTSTRING "o:nrJPluT:S:hV"

/* Options that exclude each other, said; 0 when none do. */
static int check_options(const struct status_opts *o)
{
        if (o->json + o->raw + o->pairs > 1) {
                log_error("--json, --raw and --pairs exclude each other");
                return -1;
        }
        if (o->prometheus && (o->mountpoint || o->target || o->source)) {
                log_error("--prometheus writes every mount; a mount point, -T or -S does not "
                          "apply to it");
                return -1;
        }
        return 0;
}

/* status: the options after the verb too (nfs-tuned status /data -J), one argument. */
static int cmd_status_verb(const struct cmd_env *env)
{
        struct status_opts *o = env->status;
        int rc;

        if ((rc = read_options(env, OPTSTRING)) >= 0)
                return rc;
        if (optind < env->argc)
                o->mountpoint = env->argv[optind++];
        if (optind < env->argc) {
                log_error("unexpected argument '%s': one mount point or source at most; see "
                          "'nfs-tuned -h'",
                          env->argv[optind]);
                return STATUS_EX_ERROR;
        }
        if (check_options(o) < 0)
                return STATUS_EX_ERROR;
        rc = cmd_status(o, env->paths);
        return rc;
}

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
        if ((rc = read_options(&env, "+" OPTSTRING)) >= 0)
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
