/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/mountinfo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/opts.h"
#include "shared/macro.h"

/* What a mountinfo line may show: the kernel prints what it holds, so read generously. */
#define NCONNECT_KERNEL_MAX 1024

void nfs_mount_done(struct nfs_mount *m)
{
        free(m->target);
        free(m->source);
        *m = (struct nfs_mount){ 0 };
}

int nfs_mount_from_entry(const char *fstype, const char *super_opts, const char *target,
                         const char *source, dev_t dev, struct nfs_mount *ret)
{
        struct optlist l = { 0 };
        struct nfs_mount m = {
                .dev = dev, .port = NFS_PORT, .transport = "tcp", .xprtsec = "none", .nconnect = 1
        };
        const struct opt *o;
        unsigned long u;
        int r = -ENOENT;

        if (!fstype || (!streq(fstype, "nfs") && !streq(fstype, "nfs4")))
                return -ENOENT;
        if (optlist_parse(&l, super_opts) < 0)
                goto out;
        /* no addr= (e.g. a local "nfs" over a unix socket): nothing the kernel keys on */
        if (!(o = optlist_find(&l, "addr")) || nfs_addr_parse(o->value, &m.addr) < 0)
                goto out;
        if (!(o = optlist_find(&l, "vers")) || nfs_version_parse(o->value, &m.vers) < 0) {
                m.vers = (struct nfs_version){ streq(fstype, "nfs4") ? 4 : 3, 0 };
                if (o)
                        m.unreadable = "vers";
        }
        if (m.vers.major == 4 && m.vers.minor < 0)
                m.vers.minor = 0;
        if ((o = optlist_find(&l, "proto")) && o->value) {
                size_t n = strcspn(o->value, "6");
                snprintf(m.transport, sizeof(m.transport), "%.*s", (int)n, o->value);
        }
        if ((o = optlist_find(&l, "port")) && parse_uint(o->value, 1, 65535, &u) == 0)
                m.port = (unsigned)u;
        else if (o)
                m.unreadable = "port";
        if ((o = optlist_find(&l, "xprtsec")) && o->value)
                snprintf(m.xprtsec, sizeof(m.xprtsec), "%s", o->value);
        if ((o = optlist_find(&l, "sec")) && o->value)
                snprintf(m.sec, sizeof(m.sec), "%s", o->value);
        if ((o = optlist_find(&l, "nconnect")) &&
            parse_uint(o->value, 1, NCONNECT_KERNEL_MAX, &u) == 0)
                m.nconnect = (unsigned)u;
        else if (o)
                m.unreadable = "nconnect";
        if ((o = optlist_find(&l, "rsize")))
                (void)parse_uint(o->value, 0, 1UL << 30, &m.rsize);
        m.target = strdup(target ? target : "");
        m.source = strdup(source ? source : "");
        if (!m.target || !m.source) {
                nfs_mount_done(&m);
                r = -ENOMEM;
                goto out;
        }
        *ret = m;
        r = 0;
out:
        optlist_done(&l);
        return r;
}

static bool is_octal(char c)
{
        return c >= '0' && c <= '7';
}

bool mountinfo_line_target_is(const char *line, size_t len, const char *target)
{
        const char *p = line, *end = line + len;

        /* ID, parent ID, major:minor, root */
        for (int field = 0; field < 4; field++) {
                const char *sp = memchr(p, ' ', (size_t)(end - p));
                if (!sp)
                        return false;
                p = sp + 1;
        }
        while (p < end && *p != ' ' && *p != '\n') {
                char c = *p++;
                if (c == '\\' && end - p >= 3 && is_octal(p[0]) && is_octal(p[1]) &&
                    is_octal(p[2])) {
                        c = (char)(((p[0] - '0') << 6) | ((p[1] - '0') << 3) | (p[2] - '0'));
                        p += 3;
                }
                if (*target == '\0' || *target++ != c)
                        return false;
        }
        return *target == '\0';
}
