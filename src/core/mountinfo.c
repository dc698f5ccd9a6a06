/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/mountinfo.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "core/optmap.h"
#include "core/opts.h"
#include "shared/escape.h"
#include "shared/macro.h"

/* What a mountinfo line may show: the kernel prints what it holds, so read generously. */
#define NCONNECT_KERNEL_MAX 1024

void nfs_mount_done(struct nfs_mount *m)
{
        free(m->target);
        free(m->source);
        *m = (struct nfs_mount){ 0 };
}

bool boot_id_valid(const char *s)
{
        size_t n = strlen(s);

        return n == BOOT_ID_STRLEN - 1 && strspn(s, "0123456789abcdef-") == n;
}

/* A value into a short field: cut at its size, as the field is (no printf on the mount path). */
static void copy_cut(char *dst, size_t size, const struct optspan *o, size_t len)
{
        len = len < size - 1 ? len : size - 1;
        memcpy(dst, o->value, len);
        dst[len] = '\0';
}

/* The super options the kernel keys a client on or that the helper reads, the last of each
 * name: the kernel's own order wins. */
#define SUPER_OPT_SPAN(n) struct optspan n;
struct super_opts {
        struct optspan addr, rsize;
        CLIENT_OPTIONS(SUPER_OPT_SPAN)
};

/* The field an option goes to; NULL: one the helper does not read. */
#define SUPER_OPT_SLOT(n)      \
        if (optspan_is(o, #n)) \
                return &so->n;
static struct optspan *super_opt_slot(struct super_opts *so, const struct optspan *o)
{
        if (optspan_is(o, "addr"))
                return &so->addr;
        if (optspan_is(o, "rsize"))
                return &so->rsize;
        CLIENT_OPTIONS(SUPER_OPT_SLOT)
        return NULL;
}

static int super_opts_read(const char *super_opts, struct super_opts *ret)
{
        struct optspan o;
        int r = 0;

        while (super_opts && (r = optstr_next(&super_opts, &o)) > 0) {
                struct optspan *slot = super_opt_slot(ret, &o);
                if (slot)
                        *slot = o;
        }
        return super_opts && r < 0 ? -ENOENT : 0;
}

/* The client's key: address, version, transport, port; -ENOENT without an address. */
static int key_from_opts(const char *fstype, const struct super_opts *so, struct nfs_mount *m)
{
        char buf[64];
        const char *v;
        unsigned long u;

        /* no addr= (e.g. a local "nfs" over a unix socket): nothing the kernel keys on */
        if (!(v = optspan_value(&so->addr, buf, sizeof(buf))) || nfs_addr_parse(v, &m->addr) < 0)
                return -ENOENT;
        if (!(v = optspan_value(&so->vers, buf, sizeof(buf))) ||
            nfs_version_parse(v, &m->vers) < 0) {
                m->vers = (struct nfs_version){ streq(fstype, "nfs4") ? 4 : 3, 0 };
                if (so->vers.name)
                        m->unreadable = "vers";
        }
        if (m->vers.major == 4 && m->vers.minor < 0)
                m->vers.minor = 0;
        if ((v = optspan_value(&so->proto, buf, sizeof(buf))))
                copy_cut(m->transport, sizeof(m->transport), &so->proto, strcspn(v, "6"));
        if ((v = optspan_value(&so->port, buf, sizeof(buf))) && parse_uint(v, 1, 65535, &u) == 0)
                m->port = (unsigned)u;
        else if (so->port.name)
                m->unreadable = "port";
        return 0;
}

/* What the mount asked of its client: TLS, flavour, connections, rsize. */
static void settings_from_opts(const struct super_opts *so, struct nfs_mount *m)
{
        char buf[64];
        const char *v;
        unsigned long u;

        if (optspan_value(&so->xprtsec, buf, sizeof(buf)))
                copy_cut(m->xprtsec, sizeof(m->xprtsec), &so->xprtsec, so->xprtsec.valuelen);
        if (optspan_value(&so->sec, buf, sizeof(buf)))
                copy_cut(m->sec, sizeof(m->sec), &so->sec, so->sec.valuelen);
        if ((v = optspan_value(&so->nconnect, buf, sizeof(buf))) &&
            parse_uint(v, 1, NCONNECT_KERNEL_MAX, &u) == 0)
                m->nconnect = (unsigned)u;
        else if (so->nconnect.name)
                m->unreadable = "nconnect";
        if ((v = optspan_value(&so->rsize, buf, sizeof(buf))))
                (void)parse_uint(v, 0, 1UL << 30, &m->rsize);
}

int nfs_mount_from_entry(const char *fstype, const char *super_opts, const char *target,
                         const char *source, dev_t dev, struct nfs_mount *ret)
{
        struct nfs_mount m = {
                .dev = dev, .port = NFS_PORT, .transport = "tcp", .xprtsec = "none", .nconnect = 1
        };
        struct super_opts so = { 0 };

        if (!fstype || (!streq(fstype, "nfs") && !streq(fstype, "nfs4")))
                return -ENOENT;
        if (super_opts_read(super_opts, &so) < 0 || key_from_opts(fstype, &so, &m) < 0)
                return -ENOENT;
        settings_from_opts(&so, &m);
        m.target = strdup(target ? target : "");
        m.source = strdup(source ? source : "");
        if (!m.target || !m.source) {
                nfs_mount_done(&m);
                return -ENOMEM;
        }
        *ret = m;
        return 0;
}

static bool is_blank(char c)
{
        return c == ' ' || c == '\t';
}

static char *skip_blanks(char *p)
{
        while (is_blank(*p))
                p++;
        return p;
}

/* The field at *p up to a blank or the end, decoded in place and NUL-terminated; *p after it. */
static char *field(char **p)
{
        char *start = *p, *r = start + strcspn(start, " \t\\"), *w = r;

        /* up to the first blank or backslash nothing moves (most lines have none) */
        while (*r && !is_blank(*r)) {
                int c = escape_kernel_octal(r, SIZE_MAX);
                if (c >= 0) {
                        *w++ = (char)c;
                        r += 4;
                } else
                        *w++ = *r++;
        }
        *p = *r ? r + 1 : r;
        *w = '\0';
        return start;
}

/* A decimal number ending at a blank (or, for a major, at ':'). */
static int number(char **p, char end, unsigned long max, unsigned long *ret)
{
        char *s = *p;
        unsigned long v = 0;

        if (*s < '0' || *s > '9')
                return -EINVAL;
        for (; *s >= '0' && *s <= '9'; s++) {
                if (v > (max - (unsigned long)(*s - '0')) / 10)
                        return -EINVAL;
                v = v * 10 + (unsigned long)(*s - '0');
        }
        if (end ? *s != end : !is_blank(*s))
                return -EINVAL;
        *p = s + 1;
        *ret = v;
        return 0;
}

int mountinfo_split(char *line, struct mountinfo_entry *ret)
{
        unsigned long id, parent, major, minor;
        size_t len = strlen(line);
        char *p = line, *dash;

        if (len && line[len - 1] == '\n')
                line[--len] = '\0';
        if (number(&p, 0, INT_MAX, &id) < 0)
                return -EINVAL;
        p = skip_blanks(p);
        if (number(&p, 0, INT_MAX, &parent) < 0)
                return -EINVAL;
        p = skip_blanks(p);
        if (number(&p, ':', UINT_MAX, &major) < 0 || number(&p, 0, UINT_MAX, &minor) < 0)
                return -EINVAL;
        /* the optional fields end at " - ", which no field before it holds undecoded */
        if (!(dash = strstr(p, " - ")))
                return -EINVAL;
        *dash = '\0';
        struct mountinfo_entry e = { .id = (int)id,
                                     .parent = (int)parent,
                                     .dev = makedev(major, minor) };
        p = skip_blanks(p);
        e.root = field(&p);
        p = skip_blanks(p);
        e.target = field(&p);
        p = skip_blanks(p);
        e.vfs_opts = field(&p);
        if (!*e.root || !*e.target || !*e.vfs_opts)
                return -EINVAL;
        p = skip_blanks(dash + 3);
        e.fstype = field(&p);
        if (!*e.fstype || !*p)
                return -EINVAL;
        /* two blanks after the type: an empty source */
        e.source = is_blank(*p) ? "" : field(&p);
        p = skip_blanks(p);
        e.super_opts = field(&p);
        *ret = e;
        return 0;
}
