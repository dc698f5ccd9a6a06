/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "core/cmdline.h"
#include "core/merge.h"
#include "core/policy.h"
#include "core/readahead.h"

/* The helper's own settings, from the merged options (helper keys). */
struct settings {
        struct read_ahead read_ahead;
        enum policy nconnect_policy;
        enum policy krb5_policy;
        enum policy tls_policy; /* refuse (default) or warn */
        bool warn_shared_names; /* shared_client_names = warn */
};

/*
 * Bad helper-key values from the command line (the config's are checked when parsed), and
 * mount_nfs there at all: it names the program run as root, so it comes from [global] only
 * (config_global_value()).
 */
int plan_settings(const struct merged *m, struct settings *ret, const struct merged_opt **ret_bad);

/*
 * A user other than root runs the setuid helper: a helper key on the command line counts only
 * when the fstab entry of the mount point (root's file) has it with the same value; the others
 * are removed from `cmd` and listed in `ret_dropped`.  0 or -ENOMEM.
 */
int plan_drop_untrusted(struct optlist *cmd, const struct optlist *fstab,
                        struct optlist *ret_dropped);

/*
 * The options a user's mount is checked on: those of its fstab entry, which mount.nfs takes
 * for a user instead of -o (so the kernel gets them), and the options of `cmd` that may never
 * come from the command line (mount_nfs: refused outright, plan_settings()).  0 or -ENOMEM.
 */
int plan_user_options(const struct optlist *cmd, const struct optlist *fstab, struct optlist *ret);

/* The options for mount.nfs: helper keys removed, nconnect dropped when following. */
int plan_options(const struct merged *m, const struct verdict *v, struct optlist *ret);

/*
 * argv for the real mount.nfs: argv[0] as called (mount.nfs or mount.nfs4), spec, dir, the
 * flags mount.nfs knows (-s -n -v -r -w), -o options.  -f, -t and -N are never passed.
 * NULL-terminated; free with plan_argv_free().
 */
int plan_argv(const struct cmdline *c, const char *opts, char ***ret);
void plan_argv_free(char **argv);
