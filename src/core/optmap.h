/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "core/opts.h"

/*
 * One row per option the helper knows (libmount's optmap.c): the group it competes in, what
 * kind of key it is, how its value is checked and what a valid value looks like.  Every rule
 * about an option reads its row.
 */
/* The kernel's limit on nconnect (and max_connect). */
#define NCONNECT_MAX 16

/* The values of the *_policy keys. */
enum policy { POLICY_WARN, POLICY_REFUSE, POLICY_FOLLOW };
/* "warn", "refuse", "follow"; 0 or -EINVAL. */
int policy_parse(const char *s, enum policy *ret);

enum {
        OPTF_HELPER = 1 << 0,      /* the helper's own key: never passed to mount.nfs */
        OPTF_GLOBAL_ONLY = 1 << 1, /* only in [global] of the configuration */
        OPTF_NO_CMDLINE = 1 << 2, /* never from the command line (it names a program run as root) */
        OPTF_IGNORED = 1 << 4,    /* set by mount.nfs itself; a configured value is never used */
};

/*
 * The options that decide which NFS client a mount gets, one list: those of the kernel's key
 * besides the address (vers, proto, port, xprtsec) and those the client is made with
 * (nconnect, sec).  An option whose group is one of them is read by nfs_request_parse(),
 * which refuses a bad value (optdef_decides_client()); mountinfo's super options give them
 * back (core/mountinfo.c); nfsmount.conf's global section sets them behind the helper's back
 * (core/hostcheck.c).
 */
#define CLIENT_OPTIONS(X) X(nconnect) X(vers) X(proto) X(port) X(xprtsec) X(sec)

struct optdef {
        const char *name;
        const char *group; /* the choice it competes in; NULL: its own name */
        unsigned flags;
        /* 0 when the value is valid (NULL: any value, or the number rule below) */
        int (*check)(const char *value);
        /* what a valid value looks like, or (OPTF_IGNORED) why it is not used */
        const char *hint;
        /* max > 0: the value is a number from min to max, as the kernel parses it */
        unsigned long min, max;
};

/*
 * The row of an option, or NULL.  Names are compared exactly, as libmount's optmap and
 * mount.nfs (parse_opt.c: strcmp) and the kernel do: "V4.1" is not "v4.1", it is an option
 * none of them knows.
 */
/* The option's group is one of CLIENT_OPTIONS. */
bool optdef_decides_client(const struct optdef *d);
const struct optdef *optdef_find(const char *name);
/* The row's rule for a value: its number range or its check.  0 or -EINVAL. */
int optdef_check(const struct optdef *d, const char *value);
/* The value of a number option (nconnect, port, minorversion) by its row's range: 0 or
 * -EINVAL (not a number, out of range, or not a number option). */
int opt_number(const char *name, const char *value, unsigned long *ret);

/*
 * The key an option competes on, from its row: "soft" and "hard" are one choice, "vers",
 * "nfsvers", "v3", "v4.1" and "minorversion" are one, "noac" and "ac" are one (each opposite
 * is a row, as in libmount's optmap).  An option without a row competes on its own name.  A
 * lower-precedence source never adds an option whose group a higher one already set.
 */
const char *opt_group(const char *name);

/* Helper keys: configuration of nfs-tuned itself, never passed to mount.nfs. */
bool is_helper_key(const char *name);
/* What a valid value of an option looks like ("3, 4, 4.0, 4.1 or 4.2"); NULL when unknown. */
const char *opt_hint(const char *name);
/*
 * "vers=5<where> is not valid: it must be 3, 4, ...", "v4.99<where> is not valid: it must be
 * v3, ...", "x=1<where> is not valid: see nfs(5)"; returns as snprintf().
 */
int opt_describe_invalid(char *buf, size_t size, const char *name, const char *value,
                         const char *where);
/* A profile's name (the `profile` key's value, a [profile NAME] section): letters, digits,
 * '-', '_' and '.'. */
bool profile_name_valid(const char *s);
/* The last of fg/bg in the options wins, as in mount.nfs. */
bool opt_bg(const struct optlist *l);
