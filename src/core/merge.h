/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "core/addr.h"
#include "core/config.h"
#include "core/opts.h"
#include "shared/hash.h"

/* What a mount is matched on. */
struct match_input {
        const char *host;             /* as typed in the spec */
        const struct nfs_addr *addrs; /* resolved */
        size_t naddrs;
        const char *dir; /* the mount point */
};

bool section_matches(const struct conf_section *s, const struct match_input *in);

/* One option of the merged result and where it came from (NULL section: command line). */
struct merged_opt {
        struct opt opt;
        const struct conf_section *from;
        unsigned line;
};

struct merged {
        struct merged_opt *v;
        size_t n;
        /* matched sections, for -v */
        const struct conf_section **applied;
        size_t napplied;
        /* config options that lost to a higher level or were not applicable, for -v */
        char **notes;
        size_t nnotes;
        /* while merging: the options by group, so each competition is a lookup */
        struct hindex groups;
};

void merged_done(struct merged *m);
/*
 * command line > mountpoint > server > profile > global; within a level the later line wins.  An
 * option whose group (opt_group()) a higher level set is not added.  When `v4_only`, a config
 * `vers` of another major version is skipped (mount.nfs4 would reject it).
 * Result order: config options first, then the command line, so the kernel's
 * last-one-wins parsing agrees with the precedence.
 */
int config_merge(const struct config *c, const struct optlist *cmdline,
                 const struct match_input *in, bool v4_only, struct merged *ret);
const struct merged_opt *merged_find(const struct merged *m, const char *name);

/* Where a setting came from (ORIGIN_UNKNOWN: a record that does not say). */
enum setting_origin { ORIGIN_UNKNOWN, ORIGIN_NONE, ORIGIN_CMDLINE, ORIGIN_CONFIG };
/*
 * Where option `name` of the merge came from: ORIGIN_NONE (not set), ORIGIN_CMDLINE or
 * ORIGIN_CONFIG; its merged option in *ret (NULL when not set), when given.  The one lookup
 * of an option's origin: the policy, the record and status read it here.
 */
enum setting_origin merged_origin(const struct merged *m, const char *name,
                                  const struct merged_opt **ret);
