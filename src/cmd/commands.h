/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>

struct cmd_env;

/*
 * A command of either program (kmod's struct kmod_cmd): how it is asked for, the function
 * that runs it, its arguments as the usage shows them and one line of help.  Each program's
 * help and version are made from its rows (COMMANDS in cmd/commands.h), so a command cannot
 * exist without its line in -h.
 */
struct command {
        const char *name; /* the verb or option that picks it; "" the program's default */
        int (*run)(const struct cmd_env *env);
        const char *args; /* after the program and the name; "\n" starts another usage line */
        const char *help; /* NULL: not listed (umount, reached through umount.nfs) */
};

/* A program (a tool, in kmod's words): its commands, what it is, and what its help says after
 * the commands. */
struct tool {
        const char *name;
        const struct command *commands;
        size_t n;
        const char *about;       /* a paragraph after the usage */
        const char *details;     /* options and references, after the commands */
        void (*help_tail)(void); /* more, printed last (nfs-tuned: the columns), or NULL */
};

/* The command named `name` ("" the default), or NULL. */
const struct command *tool_command(const struct tool *t, const char *name);
/* Usage lines, about, one line per listed command, details; on standard output. */
void tool_help(const struct tool *t);
/* "<program> <version>" on standard output. */
void tool_version(const struct tool *t);

/*
 * Every command of both programs, one row each: the program (HELPER: mount.nfs-tuned, ADMIN:
 * nfs-tuned), the index it is kept at, the name (the helper's: its row of RUN_MODES in
 * core/cmdline.h, which also picks it from argv), the function, the arguments, the help.  Each
 * entry point expands the rows of its own program into its table and skips the other's, so
 * neither links the other's code.
 */
#define COMMANDS(HELPER, ADMIN)                                                                \
        HELPER(RUN_MOUNT, cmd_mount,                                                           \
               "remotetarget dir [-s] [-f] [-n] [-v] [-r] [-w] [-o options]\n"                 \
               "[-t nfs|nfs4] [-N namespace]",                                                 \
               "mount with the configured defaults, after checking that nconnect, sec=krb5*\n" \
               "and xprtsec can take effect on the NFS client the mount will share; set the\n" \
               "new mount's read-ahead")                                                       \
        HELPER(RUN_UMOUNT, cmd_umount, NULL, NULL)                                             \
        HELPER(RUN_CHECK_CONFIG, cmd_check_config, "",                                         \
               "check the configuration and show what each mount would get")                   \
        HELPER(RUN_UDEV_BDI, cmd_udev_bdi, "MAJ:MIN [-v]",                                     \
               "set a new NFS superblock's read-ahead (run by udev's rule)")                   \
        HELPER(RUN_HELP, cmd_help, "", "this help")                                            \
        HELPER(RUN_VERSION, cmd_version, "", "the version")                                    \
        ADMIN(ADMIN_STATUS, "status", cmd_status_verb, "[options] [MOUNTPOINT | SOURCE]",      \
              "what every NFS mount of this host really got")                                  \
        ADMIN(ADMIN_HELP, "-h", cmd_help, "", "this help (--help)")                            \
        ADMIN(ADMIN_VERSION, "-V", cmd_version, "", "the version (--version)")

/* The commands of nfs-tuned, in COMMANDS' order. */
enum { ADMIN_STATUS, ADMIN_HELP, ADMIN_VERSION };

/* Expanders for COMMANDS: a row of this program's table, or nothing.  The helper's rows are
 * named by RUN_MODES (core/cmdline.h): its table is RUN_MODES(COMMAND_NAME) and
 * COMMANDS(HELPER_ROW, COMMAND_SKIP). */
#define COMMAND_ROW(idx, name, fn, args, help) [idx] = { name, fn, args, help },
#define HELPER_ROW(idx, fn, args_, help_) [idx].run = fn, [idx].args = args_, [idx].help = help_,
#define COMMAND_NAME(idx, name_, alias, arg) [idx].name = name_,
#define COMMAND_SKIP(...)

/* -h and -V of whichever program runs (env->tool); both exit 0. */
int cmd_help(const struct cmd_env *env);
int cmd_version(const struct cmd_env *env);
