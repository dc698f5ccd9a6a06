/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cmd/commands.h"

#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "config-build.h"
#include "shared/macro.h"

const struct command *tool_command(const struct tool *t, const char *name)
{
        for (size_t i = 0; i < t->n; i++)
                if (t->commands[i].name && strcmp(t->commands[i].name, name) == 0)
                        return &t->commands[i];
        return NULL;
}

/* Each line of `text` after the first indented by `indent` columns. */
static void print_indented(const char *text, int indent)
{
        for (const char *s = text, *nl; s; s = nl ? nl + 1 : NULL) {
                nl = strchr(s, '\n');
                printf("%*s%.*s\n", s == text ? 0 : indent, "", nl ? (int)(nl - s) : (int)strlen(s),
                       s);
        }
}

/* "Usage: PROG ARGS" for each command with arguments; -h and -V share the last line. */
static void usage(const struct tool *t)
{
        const char *lead = "Usage: ";
        int indent = (int)(strlen("Usage: ") + strlen(t->name) + 1);

        for (size_t i = 0; i < t->n; i++) {
                const struct command *c = &t->commands[i];
                if (!c->help || streq(c->name, "-h") || streq(c->name, "-V"))
                        continue;
                printf("%s%s %s%s", lead, t->name, c->name, *c->name && *c->args ? " " : "");
                print_indented(c->args, indent);
                lead = "       ";
        }
        printf("%s%s -h | -V\n", lead, t->name);
}

void tool_help(const struct tool *t)
{
        usage(t);
        printf("\n%s\n\nCommands:\n", t->about);
        /* the program's own commands first, then -h and -V */
        for (int last = 0; last < 2; last++)
                for (size_t i = 0; i < t->n; i++) {
                        const struct command *c = &t->commands[i];
                        if (!c->help || (streq(c->name, "-h") || streq(c->name, "-V")) != last)
                                continue;
                        printf("  %-16s", *c->name ? c->name : "(a mount)");
                        print_indented(c->help, 18);
                }
        if (t->details)
                printf("\n%s", t->details);
        if (t->help_tail)
                t->help_tail();
}

void tool_version(const struct tool *t)
{
        printf("%s %s\n", t->name, VERSION);
}

int cmd_help(const struct cmd_env *env)
{
        tool_help(env->tool);
        return 0;
}

int cmd_version(const struct cmd_env *env)
{
        tool_version(env->tool);
        return 0;
}
