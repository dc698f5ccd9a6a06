/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/optmap.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>

#include "core/opts.h"
#include "core/readahead.h"
#include "core/version.h"
#include "core/xprtsec.h"
#include "shared/macro.h"

int policy_parse(const char *s, enum policy *ret)
{
        if (!s)
                return -EINVAL;
        if (streq(s, "warn"))
                *ret = POLICY_WARN;
        else if (streq(s, "refuse"))
                *ret = POLICY_REFUSE;
        else if (streq(s, "follow"))
                *ret = POLICY_FOLLOW;
        else
                return -EINVAL;
        return 0;
}

static int check_read_ahead(const char *v)
{
        struct read_ahead ra;
        return read_ahead_parse(v, &ra);
}

static int check_nconnect_policy(const char *v)
{
        enum policy p;
        return policy_parse(v, &p);
}

static int check_krb5_policy(const char *v)
{
        enum policy p;
        /* following a krb5 conflict would mean dropping sec=: never done for the user */
        return policy_parse(v, &p) < 0 || p == POLICY_FOLLOW ? -EINVAL : 0;
}

static int check_tls_policy(const char *v)
{
        enum policy p;
        /* following would mean dropping xprtsec=, i.e. mounting in plain text: never */
        return policy_parse(v, &p) < 0 || p == POLICY_FOLLOW ? -EINVAL : 0;
}

bool profile_name_valid(const char *s)
{
        if (!s || !*s)
                return false;
        for (const char *p = s; *p; p++)
                if (!isalnum((unsigned char)*p) && !strchr("-_.", *p))
                        return false;
        return true;
}

static int check_profile(const char *v)
{
        return profile_name_valid(v) ? 0 : -EINVAL;
}

static int check_names_policy(const char *v)
{
        return v && (streq(v, "warn") || streq(v, "ignore")) ? 0 : -EINVAL;
}

static int check_absolute_path(const char *v)
{
        return v && v[0] == '/' ? 0 : -EINVAL;
}

static int check_version(const char *v)
{
        struct nfs_version nv;
        return nfs_version_parse(v, &nv);
}

static int check_xprtsec(const char *v)
{
        return xprtsec_word(v) ? 0 : -EINVAL;
}

static int check_not_empty(const char *v)
{
        return v && *v ? 0 : -EINVAL;
}

#define VERS_HINT "3, 4, 4.0, 4.1 or 4.2"

/* A row: name, group, flags, check, hint; a number option's row adds its range. */
#define ROW(name, group, flags, check, hint)          \
        {                                             \
                name, group, flags, check, hint, 0, 0 \
        }
#define NUMBER(name, group, flags, check, hint, min, max) \
        {                                                 \
                name, group, flags, check, hint, min, max \
        }
/* "noX" and "X" are one choice, each a row (libmount's optmap lists each opposite). */
#define OPPOSITE(x) ROW("no" #x, #x, 0, NULL, NULL), ROW(#x, #x, 0, NULL, NULL)

static const struct optdef optmap[] = {
        /* the helper's own keys */
        ROW("read_ahead_kb", NULL, OPTF_HELPER, check_read_ahead,
            "a size in KiB (15360), a multiple of rsize (15x), auto, auto:MAX (KiB) or keep"),
        NUMBER("read_ahead_bandwidth", NULL, OPTF_HELPER, NULL,
               "the path's bandwidth in MiB/s, from 1 to " STRINGIFY(READ_AHEAD_BW_MAX_N), 1,
               READ_AHEAD_BW_MAX),
        ROW("nconnect_policy", NULL, OPTF_HELPER, check_nconnect_policy, "warn, refuse or follow"),
        ROW("krb5_policy", NULL, OPTF_HELPER, check_krb5_policy, "warn or refuse"),
        ROW("tls_policy", NULL, OPTF_HELPER, check_tls_policy, "refuse or warn"),
        ROW("mount_nfs", NULL, OPTF_HELPER | OPTF_GLOBAL_ONLY | OPTF_NO_CMDLINE,
            check_absolute_path, "an absolute path"),
        ROW("profile", NULL, OPTF_HELPER, check_profile, "the name of a [profile] section"),
        ROW("shared_client_names", NULL, OPTF_HELPER, check_names_policy, "warn or ignore"),
        /* what the request reads (the client key, nconnect, sec: CLIENT_OPTIONS) */
        NUMBER("nconnect", NULL, 0, NULL, "a number from 1 to " STRINGIFY(NCONNECT_MAX), 1,
               NCONNECT_MAX),
        ROW("vers", NULL, 0, check_version, VERS_HINT),
        ROW("nfsvers", "vers", 0, check_version, VERS_HINT),
        NUMBER("minorversion", "vers", 0, NULL, "0, 1 or 2", 0, NFS4_MINOR_MAX),
        ROW("v2", "vers", 0, NULL, NULL),
        ROW("v3", "vers", 0, NULL, NULL),
        ROW("v4", "vers", 0, NULL, NULL),
        ROW("v4.0", "vers", 0, NULL, NULL),
        ROW("v4.1", "vers", 0, NULL, NULL),
        ROW("v4.2", "vers", 0, NULL, NULL),
        ROW("proto", NULL, 0, NULL, "tcp, tcp6, udp, udp6, rdma or rdma6"),
        ROW("tcp", "proto", 0, NULL, NULL),
        ROW("udp", "proto", 0, NULL, NULL),
        ROW("rdma", "proto", 0, NULL, NULL),
        /* 0 included: "any port", which mount.nfs strips like 2049 */
        NUMBER("port", NULL, 0, NULL, "a port number from 0 to 65535", 0, 65535),
        ROW("xprtsec", NULL, 0, check_xprtsec, "none, tls or mtls"),
        ROW("sec", NULL, 0, check_not_empty, "a flavour such as sys, krb5, krb5i or krb5p"),
        ROW("addr", NULL, OPTF_IGNORED, NULL,
            "addr= is set by mount.nfs from the resolved server name and ignored"),
        /* synonyms (nfs(5)) */
        ROW("soft", "hard", 0, NULL, NULL),
        ROW("softerr", "hard", 0, NULL, NULL),
        ROW("ro", "rw", 0, NULL, NULL),
        ROW("bg", "fg", 0, NULL, NULL),
        ROW("async", "sync", 0, NULL, NULL),
        /* opposites: nfs(5)'s, then mount(8)'s for every file system */
        OPPOSITE(ac),
        OPPOSITE(acl),
        OPPOSITE(cto),
        OPPOSITE(fsc),
        OPPOSITE(intr),
        OPPOSITE(lock),
        OPPOSITE(posix),
        OPPOSITE(rdirplus),
        OPPOSITE(resvport),
        OPPOSITE(sharecache),
        OPPOSITE(softreval),
        OPPOSITE(trunkdiscovery),
        OPPOSITE(alignwrite),
        OPPOSITE(atime),
        OPPOSITE(auto),
        OPPOSITE(dev),
        OPPOSITE(diratime),
        OPPOSITE(exec),
        OPPOSITE(iversion),
        OPPOSITE(lazytime),
        OPPOSITE(mand),
        OPPOSITE(relatime),
        OPPOSITE(strictatime),
        OPPOSITE(suid),
        OPPOSITE(symfollow),
        OPPOSITE(user),
        OPPOSITE(users),
        OPPOSITE(owner),
        OPPOSITE(group),
        /* a separate word, not the negation of "sharetransport" */
        ROW("nosharetransport", "nosharetransport", 0, NULL, NULL),
};

const struct optdef *optdef_find(const char *name)
{
        for (size_t i = 0; i < ELEMENTSOF(optmap); i++)
                if (streq(optmap[i].name, name))
                        return &optmap[i];
        return NULL;
}

int optdef_check(const struct optdef *d, const char *value)
{
        unsigned long u;

        if (d->max)
                return parse_kernel_uint(value, d->max, &u) < 0 || u < d->min ? -EINVAL : 0;
        return d->check ? d->check(value) : 0;
}

int opt_number(const char *name, const char *value, unsigned long *ret)
{
        const struct optdef *d = optdef_find(name);
        unsigned long u;

        if (!d || !d->max || parse_kernel_uint(value, d->max, &u) < 0 || u < d->min)
                return -EINVAL;
        *ret = u;
        return 0;
}

const char *opt_group(const char *name)
{
        const struct optdef *d = optdef_find(name);
        return d && d->group ? d->group : name;
}

bool is_helper_key(const char *name)
{
        const struct optdef *d = optdef_find(name);
        return d && (d->flags & OPTF_HELPER);
}

const char *opt_hint(const char *name)
{
        const struct optdef *d = optdef_find(name);

        if (d && d->hint && !(d->flags & OPTF_IGNORED))
                return d->hint;
        /* a version flag the table has no row for ("v4.99"): the ones there are */
        if (name[0] == 'v' && name[1] >= '0' && name[1] <= '9')
                return "v3, v4, v4.0, v4.1 or v4.2";
        return NULL;
}

int opt_describe_invalid(char *buf, size_t size, const char *name, const char *value,
                         const char *where)
{
        const char *hint = opt_hint(name);
        return snprintf(buf, size, "%s%s%s%s is not valid: %s%s", name, value ? "=" : "",
                        value ? value : "", where, hint ? "it must be " : "see nfs(5)",
                        hint ? hint : "");
}

bool opt_bg(const struct optlist *l)
{
        const struct opt *last = NULL;

        for (size_t i = 0; i < l->n; i++)
                if (streq(opt_group(l->v[i].name), "fg"))
                        last = &l->v[i];
        return last && streq(last->name, "bg");
}

bool optdef_decides_client(const struct optdef *d)
{
#define CLIENT_OPTION_NAME(n) #n,
        static const char *const names[] = { CLIENT_OPTIONS(CLIENT_OPTION_NAME) };
        const char *g = d->group ? d->group : d->name;

        for (size_t i = 0; i < ELEMENTSOF(names); i++)
                if (streq(g, names[i]))
                        return true;
        return false;
}
