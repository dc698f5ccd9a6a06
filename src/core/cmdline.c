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
}

static int append_opts(struct cmdline *c, const char *o)
{
        if (!*o)
                return 0;
        if (!c->opts) {
                c->opts = strdup(o);
                return c->opts ? 0 : -ENOMEM;
        }
        char *n;
        if (asprintf(&n, "%s,%s", c->opts, o) < 0)
                return -ENOMEM;
        free(c->opts);
        c->opts = n;
        return 0;
}

static const char *base_name(const char *s)
{
        const char *b = strrchr(s, '/');
        return b ? b + 1 : s;
}

int cmdline_parse(int argc, char *const *argv, struct cmdline *ret, char err[static CMDLINE_ERR_MAX])
{
        struct cmdline c = { .mode = RUN_MOUNT };
        const char *pos[2];
        int npos = 0, r;
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

        for (int i = 1; i < argc; i++) {
                const char *a = argv[i];
                if (dashdash || a[0] != '-' || a[1] == '\0') {
                        if (npos == 2) {
                                snprintf(err, CMDLINE_ERR_MAX, "unexpected argument '%s'", a);
                                goto fail;
                        }
                        pos[npos++] = a;
                        continue;
                }
                if (streq(a, "--")) {
                        dashdash = true;
                        continue;
                }
                if (streq(a, "--version")) {
                        c.mode = RUN_VERSION;
                        continue;
                }
                if (streq(a, "--help")) {
                        c.mode = RUN_HELP;
                        continue;
                }
                if (streq(a, "--check-config")) {
                        c.mode = RUN_CHECK_CONFIG;
                        continue;
                }
                if (a[1] == '-') {
                        snprintf(err, CMDLINE_ERR_MAX, "unknown option '%s'", a);
                        goto fail;
                }
                for (const char *p = a + 1; *p; p++) {
                        const char *arg;
                        switch (*p) {
                        case 's': c.sloppy = true; continue;
                        case 'f': c.fake = true; continue;
                        case 'n': c.nomtab = true; continue;
                        case 'v': c.verbose++; continue;
                        case 'r': c.ro = true; c.rw = false; continue;
                        case 'w': c.rw = true; c.ro = false; continue;
                        case 'h': c.mode = RUN_HELP; continue;
                        case 'V': c.mode = RUN_VERSION; continue;
                        case 'o': case 't': case 'N':
                                break;
                        default:
                                snprintf(err, CMDLINE_ERR_MAX, "unknown option '-%c'", *p);
                                goto fail;
                        }
                        /* an option with an argument: the rest of this word, or the next */
                        if (p[1])
                                arg = p + 1;
                        else if (i + 1 < argc)
                                arg = argv[++i];
                        else {
                                snprintf(err, CMDLINE_ERR_MAX, "option '-%c' needs an argument", *p);
                                goto fail;
                        }
                        if (*p == 'o') {
                                if ((r = append_opts(&c, arg)) < 0) {
                                        snprintf(err, CMDLINE_ERR_MAX, "out of memory");
                                        cmdline_done(&c);
                                        return r;
                                }
                        } else if (*p == 't')
                                c.type = arg;
                        else
                                c.ns = arg;
                        break;
                }
        }

        if (c.mode != RUN_MOUNT) {
                *ret = c;
                return 0;
        }
        if (npos < 2) {
                snprintf(err, CMDLINE_ERR_MAX, "%s", npos ? "missing mount point" : "missing remote file system and mount point");
                goto fail;
        }
        if (c.type) {
                if (streq(c.type, "nfs4"))
                        c.v4_by_name = true;
                else if (!streq(c.type, "nfs") && !streq(c.type, "nfs-tuned")) {
                        snprintf(err, CMDLINE_ERR_MAX,
                                 "file system type '%s' is not nfs, nfs4 or nfs-tuned", c.type);
                        goto fail;
                }
        }
        if (c.ns && !*c.ns) {
                snprintf(err, CMDLINE_ERR_MAX, "option -N needs a PID or a namespace file");
                goto fail;
        }
        c.spec = pos[0];
        c.dir = pos[1];
        *ret = c;
        return 0;
fail:
        cmdline_done(&c);
        return -EINVAL;
}
