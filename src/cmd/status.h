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
        const char *columns;    /* -o: a comma-separated list ("+LIST": added to the default) */
        bool all_columns;       /* --output-all */
        bool noheadings;        /* -n */
        bool raw;               /* -r */
        bool json;              /* -J */
        bool pairs;             /* -P: NAME="value" pairs */
        bool notruncate;        /* -u: never cut a column to the terminal's width */
        const char *mountpoint; /* the argument: a mount point or a source (findmnt's) */
        const char *target;     /* -T: the mount that holds this path */
        const char *source;     /* -S: mounts of this source */
        const char *prometheus; /* --prometheus FILE ("-": stdout) */
        bool no_transports;     /* --no-transport-series: no per-transport counters in it */
};

/* What is shown of the report: the mounts the arguments select and their findings. */
struct status_view {
        bool *mount_shown;   /* per rep->mounts; NULL: all */
        bool *finding_shown; /* per rep->findings; NULL: all */
        size_t nfindings;    /* shown */
        bool nomatch;        /* the arguments select no NFS mount (said) */
};
void status_view_done(struct status_view *v);

struct cmd_env;

/* status' options, as -h lists them after the commands (the tool's details). */
extern const char status_options_help[];
/*
 * status' options from env->argv at optind: `leading`, those before the verb (up to the first
 * argument), else all of them.  -1 to go on, or an exit code (-h, -V, an unknown option).
 */
int status_read_options(const struct cmd_env *env, bool leading);
/* The verb: the options after it too (nfs-tuned status /data -J), one argument, then
 * cmd_status(); a STATUS_EX_* code. */
int cmd_status_verb(const struct cmd_env *env);

/* `nfs-tuned status`: a STATUS_EX_* code. */
int cmd_status(const struct status_opts *o, const struct paths *p);

/* The view of the report the options select (cmd/status-print.c); -ENOENT when none (said). */
int status_select(const struct status_opts *o, const struct status_report *rep,
                  struct status_view *ret);
/* The output (cmd/status-print.c): 0, -EINVAL (an unknown column, said), -errno (said).  JSON
 * names the inputs that failed (`in`) in its own array; the table leaves them to stderr. */
int status_print(const struct status_opts *o, const struct status_report *rep,
                 const struct status_view *v, const struct clients *c,
                 const struct status_inputs *in);
/* The textfile to o->prometheus; rep NULL: status could not decide; the file says so
 * (status_success 0). */
int status_write_prometheus(const struct status_opts *o, const struct status_report *rep,
                            const struct clients *c, const struct status_inputs *in);
/* -h: the columns and what they show. */
void status_print_columns_help(void);
