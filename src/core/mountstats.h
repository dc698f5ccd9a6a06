/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "shared/hash.h"

/*
 * The live connections of each NFS mount, from /proc/self/mountstats: a `device SRC mounted on
 * DIR with fstype nfs4 ...` line, then one `xprt:` line per transport of its RPC client.
 */
struct mountstats_entry {
        char *target;   /* unescaped */
        unsigned xprts;
        bool taken;
};

struct mountstats {
        struct mountstats_entry *v;
        size_t n;
        struct hindex index;    /* by target */
        bool in_nfs;            /* the lines read belong to v[n - 1] */
};

void mountstats_done(struct mountstats *s);
/* Feeds one line (without its newline).  0 or -ENOMEM. */
int mountstats_feed(struct mountstats *s, const char *line);
/*
 * The transports of the next NFS mount on `target` in the file's order (mount points mounted
 * over count in the order of mountinfo); -1 when the file shows none.
 */
int mountstats_take(struct mountstats *s, const char *target);
