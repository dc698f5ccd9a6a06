/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/optmap.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <strings.h>

#include "core/policy.h"
#include "core/readahead.h"
#include "core/request.h"
#include "shared/macro.h"

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

#define VERS_HINT "3, 4, 4.0, 4.1 or 4.2"

static const struct optdef optmap[] = {
        /* the helper's own keys */
        { "read_ahead_kb", NULL, OPTF_HELPER, check_read_ahead,
          "a size in KiB (15360), a multiple of rsize (15x) or keep" },
        { "nconnect_policy", NULL, OPTF_HELPER, check_nconnect_policy, "warn, refuse or follow" },
        { "krb5_policy", NULL, OPTF_HELPER, check_krb5_policy, "warn or refuse" },
        { "tls_policy", NULL, OPTF_HELPER, check_tls_policy, "refuse or warn" },
        { "mount_nfs", NULL, OPTF_HELPER | OPTF_GLOBAL_ONLY | OPTF_NO_CMDLINE, check_absolute_path,
          "an absolute path" },
        { "profile", NULL, OPTF_HELPER, check_profile, "the name of a [profile] section" },
        { "shared_client_names", NULL, OPTF_HELPER, check_names_policy, "warn or ignore" },
        /* what the request reads (the client key, nconnect, sec) */
        { "nconnect", NULL, OPTF_REQUEST, NULL, "a number from 1 to " STRINGIFY(NCONNECT_MAX) },
        { "vers", NULL, OPTF_REQUEST, NULL, VERS_HINT },
        { "nfsvers", "vers", OPTF_REQUEST, NULL, VERS_HINT },
        { "minorversion", "vers", OPTF_REQUEST, NULL, "0, 1 or 2" },
        { "v2", "vers", OPTF_REQUEST, NULL, NULL },
        { "v3", "vers", OPTF_REQUEST, NULL, NULL },
        { "v4", "vers", OPTF_REQUEST, NULL, NULL },
        { "v4.0", "vers", OPTF_REQUEST, NULL, NULL },
        { "v4.1", "vers", OPTF_REQUEST, NULL, NULL },
        { "v4.2", "vers", OPTF_REQUEST, NULL, NULL },
        { "proto", NULL, OPTF_REQUEST, NULL, "tcp, tcp6, udp, udp6, rdma or rdma6" },
        { "tcp", "proto", OPTF_REQUEST, NULL, NULL },
        { "udp", "proto", OPTF_REQUEST, NULL, NULL },
        { "rdma", "proto", OPTF_REQUEST, NULL, NULL },
        { "port", NULL, OPTF_REQUEST, NULL, "a port number from 0 to 65535" },
        { "xprtsec", NULL, OPTF_REQUEST, NULL, "none, tls or mtls" },
        { "sec", NULL, OPTF_REQUEST, NULL, "a flavour such as sys, krb5, krb5i or krb5p" },
        { "addr", NULL, OPTF_IGNORED, NULL,
          "addr= is set by mount.nfs from the resolved server name and ignored" },
        /* synonyms and opposites (nfs(5)) */
        { "soft", "hard", 0, NULL, NULL },
        { "softerr", "hard", 0, NULL, NULL },
        { "softreval", "softreval", 0, NULL, NULL },
        { "ro", "rw", 0, NULL, NULL },
        { "actimeo", "actimeo", 0, NULL, NULL },
        { "retry", "retry", 0, NULL, NULL },
        { "bg", "fg", 0, NULL, NULL },
        { "lookupcache", "lookupcache", 0, NULL, NULL },
        { "async", "sync", 0, NULL, NULL },
        /* a separate word, not the negation of "sharetransport" */
        { "nosharetransport", "nosharetransport", 0, NULL, NULL },
};

const struct optdef *optdef_find(const char *name)
{
        for (size_t i = 0; i < ELEMENTSOF(optmap); i++)
                if (streq(optmap[i].name, name))
                        return &optmap[i];
        return NULL;
}

const char *opt_group(const char *name)
{
        /* mount.nfs reads option names case-insensitively ("V4.1") */
        for (size_t i = 0; i < ELEMENTSOF(optmap); i++)
                if (optmap[i].group && strcasecmp(name, optmap[i].name) == 0)
                        return optmap[i].group;
        /* "noac" competes with "ac", "nocto" with "cto". */
        if (strncmp(name, "no", 2) == 0 && name[2])
                return name + 2;
        return name;
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
