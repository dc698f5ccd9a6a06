/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "core/cmdline.h"
#include "core/config.h"
#include "core/findings.h"
#include "sys/paths.h"
#include "sys/program.h"

struct tool;
struct status_opts;

/* What every command gets from main(): its program, the parsed command line (the helper's),
 * the paths, the raw argv. */
struct cmd_env {
        const struct tool *tool;
        const struct cmdline *cl; /* mount.nfs-tuned */
        struct paths *paths;
        int argc;
        char **argv;
        struct status_opts *status; /* nfs-tuned: the options read before the verb */
};

/* Each verb returns a mount(8) exit code (MNT_EX_*). */
int cmd_mount(const struct cmd_env *env);
int cmd_umount(const struct cmd_env *env);
int cmd_check_config(const struct cmd_env *env);
int cmd_udev_bdi(const struct cmd_env *env);

/*
 * The verbs that run the real mount.nfs: the configuration and the program (its mount_nfs, or
 * the build's candidates), read from the caller's file system.  A mount(8) code.
 */
int open_config_and_program(const struct cmd_env *env, struct config *conf, struct program *prog);
/* The real binary as messages name it: not a path the configuration set, on a user's run. */
const char *program_name(const struct program *prog);
/* MNT_EX_SUCCESS when the program can run; otherwise says why and returns MNT_EX_SYSERR. */
int check_program(const struct program *prog, const char *config);
/*
 * The configuration's problems (at most CONFIG_ERRORS_MAX, then a count): as warnings through
 * the log with `how` (what to do) after the count, or, `how` NULL, plainly on stderr.
 */
void print_config_errors(const struct config *conf, const char *how);
/* Prints every finding through the log (the one place the core's words are printed). */
void print_findings(const struct findings *f);
