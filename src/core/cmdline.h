/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/*
 * The helper's verbs, one row each: the mode (its index in the helper's command table), the
 * name that picks it and that -h lists (a name that starts with "--" is a long option), another
 * long option that picks it (NULL: none), whether its long option takes an argument.
 * cmdline_parse() reads the long options from the rows, and the helper's command table
 * (cmd/commands.h, COMMAND_NAME) takes its names from them.
 */
#define RUN_MODES(X)                                       \
        X(RUN_MOUNT, "", NULL, false)                      \
        X(RUN_UMOUNT, "umount", NULL, false)               \
        X(RUN_HELP, "-h", "--help", false)                 \
        X(RUN_VERSION, "-V", "--version", false)           \
        X(RUN_CHECK_CONFIG, "--check-config", NULL, false) \
        X(RUN_UDEV_BDI, "--udev-bdi", NULL, true)

#define RUN_MODE_ENUM(mode, name, alias, arg) mode,
enum run_mode { RUN_MODES(RUN_MODE_ENUM) };

/* The helper's command line, as mount(8) passes it. Strings point into argv or opts. */
struct cmdline {
        enum run_mode mode;
        const char *progname; /* basename of argv[0] */
        bool v4_by_name;      /* mount.nfs4 or -t nfs4 */
        const char *spec, *dir;
        bool sloppy, fake, nomtab, ro, rw;
        int verbose;
        char *opts;                /* the -o options joined; NULL when none. Owned. */
        size_t opts_len, opts_cap; /* so that many -o join in linear time */
        const char *type;
        const char *ns;
        const char *bdi; /* --udev-bdi MAJ:MIN: the bdi of udev's event */
};

#define CMDLINE_ERR_MAX 256

/* 0, or -EINVAL with a message in err. */
int cmdline_parse(int argc, char *const *argv, struct cmdline *ret,
                  char err[static CMDLINE_ERR_MAX]);
void cmdline_done(struct cmdline *c);
