/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>

#include "core/clients.h"
#include "core/status.h"
#include "sys/paths.h"

/* Exit status of `nfs-tuned status`: for cron, Ansible and monitoring. */
#define STATUS_EX_CLEAN 0
#define STATUS_EX_FINDINGS 1
#define STATUS_EX_ERROR 2

struct status_opts {
        const char *columns;     /* -o: a comma-separated list; NULL: the default */
        bool noheadings;         /* -n */
        bool raw;                /* -r */
        bool json;               /* -J */
        const char *prometheus;  /* --prometheus FILE ("-": stdout) */
};

/* `nfs-tuned status`: a STATUS_EX_* code. */
int cmd_status(const struct status_opts *o, const struct paths *p);

/* The output (cmd/status-print.c): 0, -EINVAL (an unknown column, said), -errno. */
int status_print(const struct status_opts *o, const struct status_report *rep,
                 const struct clients *c);
/* rep NULL: status could not decide; the file says so (status_success 0). */
int status_write_prometheus(const char *file, const struct status_report *rep,
                            const struct clients *c);
/* -h: the columns and what they show. */
void status_print_columns_help(void);
