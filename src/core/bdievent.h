/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

#include "core/config.h"
#include "core/mountinfo.h"
#include "core/readahead.h"
#include "core/record.h"

/* One bdi add event for an NFS superblock, as the udev mode found it. */
struct bdi_event {
        dev_t dev;
        const struct nfs_mount *mount;      /* its mountinfo line; NULL: none (another mount
                                              * namespace made it, only nfsfs volumes lists it) */
        const struct nfs_addr *volume_addr; /* the volume's server, used when mount is NULL */
        const struct mount_record *record;  /* the helper's plan for the mount point, or NULL */
        const struct mount_when *when;      /* this boot (the record's must be it); NULL */
        unsigned long rtt_us; /* the mount's round trip now (mountstats); 0: not known */
};

/* What to do with it, and why (for the one log line). */
struct bdi_decision {
        struct read_ahead_plan plan; /* READ_AHEAD_LEAVE or READ_AHEAD_WRITE */
        struct read_ahead setting;
        unsigned long rtt_us;            /* auto: the round trip it was sized from; 0: none */
        bool rtt_from_record;            /* auto: the mount path's (0: it knew none) */
        bool from_record;                /* the mount path's own setting (its -o counted) */
        const struct conf_section *from; /* else the section that set it; NULL: none */
        unsigned line;
        bool nconnect_differs; /* a bg mount landed with another nconnect */
        bool tls_lacking;      /* a mount that asked for TLS (its record) landed on a
                                            * client of a weaker TLS policy (the sharing model) */
};

/*
 * The read-ahead of a new NFS superblock, decided as the mount path decides it: the sections
 * matched (config_merge(): the server name as written in the mount's source, its addr=, the
 * mount point) and merged, the setting read (plan_settings()), the KiB worked out
 * (read_ahead_plan()).  A record of the helper for this mount point and source stands for its
 * command line, and for auto its round trip does (the window stays what the mount path made
 * it; none recorded: MAX, as it wrote), else the event's.  No name is resolved.  0 or -ENOMEM.
 */
int bdi_event_decide(const struct config *c, const struct bdi_event *ev, struct bdi_decision *ret);
