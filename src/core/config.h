/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "core/addr.h"
#include "core/opts.h"

#define CONFIG_LINE_MAX 4096
#define CONFIG_SECTIONS_MAX 4096
#define CONFIG_OPTIONS_MAX 256
/* Problems kept; the rest are counted (a file of bad lines must not cost a line each). */
#define CONFIG_ERRORS_MAX 50
/* Room for one composed reason. */
#define CONFIG_WHY_MAX 256

enum section_kind { SECTION_GLOBAL, SECTION_SERVER, SECTION_MOUNTPOINT, SECTION_PROFILE };

struct conf_section {
        enum section_kind kind;
        char *pattern; /* NULL for global */
        char *file;
        unsigned line;
        struct optlist opts;
        unsigned *opt_lines; /* line of each option */
};

struct config {
        struct conf_section *v;
        size_t n;
        char **errors; /* "file:line: what, why", the first CONFIG_ERRORS_MAX */
        size_t nerrors;
        size_t nerrors_more; /* problems found beyond those */
        bool sections_full;  /* CONFIG_SECTIONS_MAX reached (and said) */
        char **sources;      /* the files read, in order, and those masked */
        size_t nsources;
        size_t nunread; /* files or directories that exist but could not be read (their
                             * error is in errors): what they say is not known */
};

void config_done(struct config *c);
/* Parses one file's text; bad lines are recorded in c->errors and skipped. */
int config_parse(struct config *c, const char *file, const char *text);
/* Records a problem, or only counts it once CONFIG_ERRORS_MAX are kept. */
int config_add_error(struct config *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Forgets the problems recorded after the first `keep` (and the count beyond them). */
void config_drop_errors(struct config *c, size_t keep, size_t keep_more);
int config_add_source(struct config *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Each `profile = NAME` that names no [profile "NAME"] section becomes an error entry; one in
 * a file `shown` says no to (a user's setuid run: a file they cannot read) is only counted.
 * `shown` NULL: every file.  The count, or -ENOMEM.
 */
int config_check_profiles(struct config *c, bool (*shown)(const char *file));

/* The last value of `key` in the [global] sections, or `def`. */
const char *config_global_value(const struct config *c, const char *key, const char *def);
const char *section_kind_to_string(enum section_kind k);
