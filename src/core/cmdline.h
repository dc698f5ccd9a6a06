/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

enum run_mode { RUN_MOUNT, RUN_UMOUNT, RUN_HELP, RUN_VERSION, RUN_CHECK_CONFIG, RUN_UDEV_BDI };

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
