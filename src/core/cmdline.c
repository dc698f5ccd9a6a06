/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/cmdline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared/macro.h"

void cmdline_done(struct cmdline *c)
{
        free(c->opts);
        c->opts = NULL;
        c->opts_len = c->opts_cap = 0;
}

static int append_opts(struct cmdline *c, const char *o)
{
        size_t add = strlen(o), need = c->opts_len + (c->opts_len ? 1 : 0) + add + 1;

        if (!add)
                return 0;
        if (need > c->opts_cap) {
                size_t cap = need < 64 ? 64 : need * 2;
                char *n = realloc(c->opts, cap);
                if (!n)
                        return -ENOMEM;
                c->opts = n;
                c->opts_cap = cap;
        }
        if (c->opts_len)
                c->opts[c->opts_len++] = ',';
        memcpy(c->opts + c->opts_len, o, add + 1);
        c->opts_len += add;
        return 0;
}

static const char *base_name(const char *s)
{
        const char *b = strrchr(s, '/');
        return b ? b + 1 : s;
}

/* The verbs of mount.nfs-tuned (RUN_MODES): a long option picks the mode of its row. */
#define RUN_MODE_ROW(mode, name, alias, arg) { name, alias, mode, arg },
static const struct {
        const char *name, *alias;
        enum run_mode mode;
        bool arg; /* takes one: "--name ARG" or "--name=ARG", kept in cmdline.bdi */
} modes[] = { RUN_MODES(RUN_MODE_ROW) };

/* Whether `a` (len bytes) is the row's long option: its name or its alias. */
static bool names_row(const char *a, size_t len, size_t k)
{
        const char *n = strncmp(modes[k].name, "--", 2) == 0 ? modes[k].name : NULL;
        return (n && strlen(n) == len && strncmp(a, n, len) == 0) ||
               (modes[k].alias && strlen(modes[k].alias) == len &&
                strncmp(a, modes[k].alias, len) == 0);
}

static int parse_long(struct cmdline *c, int argc, char *const *argv, int *i,
                      char err[static CMDLINE_ERR_MAX])
{
        const char *a = argv[*i], *eq = strchr(a, '=');
        size_t len = eq ? (size_t)(eq - a) : strlen(a);

        for (size_t k = 0; k < ELEMENTSOF(modes); k++) {
                if (!names_row(a, len, k))
                        continue;
                if (!modes[k].arg && eq)
                        break;
                c->mode = modes[k].mode;
                if (!modes[k].arg)
                        return 0;
                if (!eq && *i + 1 >= argc) {
                        snprintf(err, CMDLINE_ERR_MAX, "option '%s' needs an argument", a);
                        return -EINVAL;
                }
                c->bdi = eq ? eq + 1 : argv[++*i];
                return 0;
        }
        snprintf(err, CMDLINE_ERR_MAX, "unknown option '%s'", a);
        return -EINVAL;
}

/* One word of short options ("-fv", "-o opts", "-overs=3"); may take the next word. */
static int parse_short(struct cmdline *c, int argc, char *const *argv, int *i,
                       char err[static CMDLINE_ERR_MAX])
{
        for (const char *p = argv[*i] + 1; *p; p++) {
                const char *arg;
                switch (*p) {
                case 's': c->sloppy = true; continue;
                case 'f': c->fake = true; continue;
                case 'n': c->nomtab = true; continue;
                case 'v': c->verbose++; continue;
                case 'r':
                        c->ro = true;
                        c->rw = false;
                        continue;
                case 'w':
                        c->rw = true;
                        c->ro = false;
                        continue;
                case 'h': c->mode = RUN_HELP; continue;
                case 'V': c->mode = RUN_VERSION; continue;
                case 'o':
                case 't':
                case 'N': break;
                default: snprintf(err, CMDLINE_ERR_MAX, "unknown option '-%c'", *p); return -EINVAL;
                }
                /* an option with an argument: the rest of this word, or the next */
                if (p[1])
                        arg = p + 1;
                else if (*i + 1 < argc)
                        arg = argv[++*i];
                else {
                        snprintf(err, CMDLINE_ERR_MAX, "option '-%c' needs an argument", *p);
                        return -EINVAL;
                }
                if (*p == 'o') {
                        if (append_opts(c, arg) < 0) {
                                snprintf(err, CMDLINE_ERR_MAX, "out of memory");
                                return -ENOMEM;
                        }
                } else if (*p == 't')
                        c->type = arg;
                else
                        c->ns = arg;
                return 0;
        }
        return 0;
}

/* What a mount needs once every word is read. */
static int check_mount_args(struct cmdline *c, const char *const *pos, int npos,
                            char err[static CMDLINE_ERR_MAX])
{
        if (npos < 2) {
                snprintf(err, CMDLINE_ERR_MAX, "%s",
                         npos ? "missing mount point"
                              : "missing remote file system and mount point");
                return -EINVAL;
        }
        if (c->type) {
                if (streq(c->type, "nfs4"))
                        c->v4_by_name = true;
                else if (!streq(c->type, "nfs") && !streq(c->type, "nfs-tuned")) {
                        snprintf(err, CMDLINE_ERR_MAX,
                                 "file system type '%s' is not nfs, nfs4 or nfs-tuned", c->type);
                        return -EINVAL;
                }
        }
        if (c->ns && !*c->ns) {
                snprintf(err, CMDLINE_ERR_MAX, "option -N needs a PID or a namespace file");
                return -EINVAL;
        }
        c->spec = pos[0];
        c->dir = pos[1];
        return 0;
}

int cmdline_parse(int argc, char *const *argv, struct cmdline *ret,
                  char err[static CMDLINE_ERR_MAX])
{
        struct cmdline c = { .mode = RUN_MOUNT };
        const char *pos[2];
        int npos = 0, r = 0;
        bool dashdash = false;

        err[0] = '\0';
        c.progname = argc > 0 && argv[0] && *argv[0] ? base_name(argv[0]) : "mount.nfs-tuned";
        if (strncmp(c.progname, "umount", 6) == 0) {
                /* handed to the real binary unchanged */
                c.mode = RUN_UMOUNT;
                *ret = c;
                return 0;
        }
        c.v4_by_name = streq(c.progname, "mount.nfs4");

        for (int i = 1; i < argc && r == 0; i++) {
                const char *a = argv[i];
                if (dashdash || a[0] != '-' || a[1] == '\0') {
                        if (npos == 2) {
                                snprintf(err, CMDLINE_ERR_MAX, "unexpected argument '%s'", a);
                                r = -EINVAL;
                        } else
                                pos[npos++] = a;
                } else if (streq(a, "--"))
                        dashdash = true;
                else if (a[1] == '-')
                        r = parse_long(&c, argc, argv, &i, err);
                else
                        r = parse_short(&c, argc, argv, &i, err);
        }
        if (r == 0 && c.mode == RUN_MOUNT)
                r = check_mount_args(&c, pos, npos, err);
        else if (r == 0 && c.mode == RUN_UDEV_BDI && npos) {
                snprintf(err, CMDLINE_ERR_MAX, "--udev-bdi takes no other argument ('%s')", pos[0]);
                r = -EINVAL;
        }
        if (r < 0) {
                cmdline_done(&c);
                return r;
        }
        *ret = c;
        return 0;
}
