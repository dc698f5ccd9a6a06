/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <libmount.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "shared/macro.h"
#include "sys/conffile.h"

/*
 * A file read, as config_add_source() has it: "PATH", or "PATH: masked by PATH2"; shown on a
 * user's setuid run only when they may list the directories it names a file of.
 */
static bool source_shown(const char *source)
{
        const char *masked = strstr(source, MASKED_BY);
        _cleanup_free_ char *first = strndup(source,
                                             masked ? (size_t)(masked - source) : strlen(source));

        return first && paths_caller_may_list_dir_of(first) &&
               (!masked || paths_caller_may_list_dir_of(masked + strlen(MASKED_BY)));
}

/* -v: the files in the order read, then each section and where each value comes from; on a
 * user's setuid run, nothing of a file that user cannot read but how many sections it has. */
static void print_layers(const struct config *c)
{
        size_t hidden = 0, unlisted = 0;

        for (size_t i = 0; i < c->nsources; i++)
                if (source_shown(c->sources[i]))
                        printf("file: %s\n", c->sources[i]);
                else
                        unlisted++;
        for (size_t i = 0; i < c->n; i++) {
                const struct conf_section *s = &c->v[i];
                if (!paths_caller_may_read(s->file)) {
                        hidden++;
                        continue;
                }
                printf("[%s%s%s%s] %s:%u\n", section_kind_to_string(s->kind),
                       s->pattern ? " \"" : "", s->pattern ? s->pattern : "",
                       s->pattern ? "\"" : "", s->file, s->line);
                for (size_t k = 0; k < s->opts.n; k++)
                        printf("    %s%s%s  (%s:%u)\n", s->opts.v[k].name,
                               s->opts.v[k].value ? " = " : "",
                               s->opts.v[k].value ? s->opts.v[k].value : "", s->file,
                               s->opt_lines[k]);
        }
        if (hidden)
                printf("%zu section%s of files you cannot read; not shown\n", hidden,
                       hidden == 1 ? "" : "s");
        if (unlisted)
                printf("%zu file%s of directories you cannot list; not shown\n", unlisted,
                       unlisted == 1 ? "" : "s");
}

/* --check-config: every problem as file:line; exit 1 when there is one. */
int cmd_check_config(const struct cmd_env *env)
{
        const char *path = env->paths->config;
        struct config conf = { 0 };
        /* owner checks always: report what a root mount would refuse */
        int r = load_config(env->paths->vendor_config, path, true, &conf);

        if (env->cl->verbose)
                print_layers(&conf);
        print_config_errors(&conf, NULL);
        if (r == 0 && conf.nerrors == 0)
                printf("%s: %zu section%s, no problems\n", path, conf.n, conf.n == 1 ? "" : "s");
        r = r < 0 || conf.nerrors ? MNT_EX_USAGE : MNT_EX_SUCCESS;
        config_done(&conf);
        return r;
}
