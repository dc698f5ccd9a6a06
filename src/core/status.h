/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/clients.h"
#include "core/config.h"
#include "core/mountstats.h"
#include "core/record.h"
#include "shared/macro.h"
#include "shared/severity.h"

/*
 * `nfs-tuned status`: what every NFS mount of this mount namespace really got, decided from
 * facts the front fetched (doc/DESIGN.md, "Status").  No I/O here.
 */

/* What the front found for one mount (index as in clients.mounts). */
struct status_facts {
        const struct mount_record *record;    /* the helper's record for its mount point; NULL */
        const char *fstab_options;            /* its fstab entry's options; NULL: no entry */
        const struct mountstats_entry *stats; /* its mountstats entry; NULL: not known */
        int live, offline;                    /* its client's transports not offline, and
                                            * offline, in the sunrpc sysfs; -1: not known */
        long ra_now;                          /* read_ahead_kb of its bdi; -1: not known */
        struct mount_when when;               /* when its superblock was made (mountstats) */
};

enum req_source { REQ_NONE, REQ_RECORD, REQ_FSTAB };
enum record_state { RECORD_NONE, RECORD_CURRENT, RECORD_STALE };

/* One row: a mount, with what it asked, what it has and what the config says. */
struct status_mount {
        const struct nfs_mount *m;
        const struct nfs_client *client;
        const struct nfs_mount *set_by; /* the first mount of its client in the table */
        enum record_state record;
        unsigned req; /* nconnect asked; 0: not known or none */
        enum req_source req_from;
        unsigned nconnect_config; /* what the config gives it now; 0: nothing */
        const char *tls_req;      /* xprtsec asked (record, else fstab); NULL: not
                                            * known */
        enum req_source tls_from;
        bool nconnect_unknown;                /* mountinfo's nconnect= cannot be read */
        int xprts;                            /* well-formed xprt: lines; -1: not known */
        int live;                             /* transports not offline; -1: not known */
        int offline;                          /* transports offline; -1: not known */
        const struct mountstats_entry *stats; /* per transport; NULL: not known */
        long ra_now;                          /* -1: not known */
        unsigned long ra_want;                /* what it should have; 0: nothing to say */
        bool ra_auto;                         /* ra_want is read_ahead_kb = auto's window */
        bool ra_auto_now;                     /* ... sized from the round trip now (no
                                               * record of the mount path's) */
        unsigned long ra_rtt_us;              /* auto: that round trip; 0: none known */
        bool ra_shared;                       /* shares an earlier mount's superblock (bdi) */
        size_t first_finding; /* its findings: findings[first_finding..+nfindings] */
        size_t nfindings;
};

/* Finding codes: stable, for scripts (JSON, Prometheus labels). */
#define F_NCONNECT_INHERITED "nconnect-inherited"
#define F_NCONNECT_DIFFERS "nconnect-differs"
#define F_KRB5_MULTI "krb5-multi-connection"
#define F_RA_LOST "read-ahead-lost"
#define F_RA_OVERWRITTEN "read-ahead-overwritten"
#define F_CONFIG_MISMATCH "config-mismatch"
#define F_CONFIG_ERROR "config-error"
#define F_FSTAB_NCONNECT "fstab-nconnect-conflict"
#define F_FSTAB_KRB5 "fstab-krb5-nconnect"
#define F_UDEV_SHADOW "udev-rule-shadowed"
#define F_UDEV_WRITER "udev-rule-overrides"
#define F_NFSMOUNT_CONF "nfsmount-conf-server"
#define F_FSTAB_INVALID "fstab-invalid-option"
#define F_TRANSPORTS_DOWN "transports-down"
#define F_TRANSPORT_IMBALANCE "transport-imbalance"
#define F_TLS_NOT_APPLIED "tls-not-applied"

/* transport-imbalance: one transport carries at least this share of a client's RPC sends
 * (percent), once the client has sent at least LOAD_MIN_SENDS (fewer say nothing yet). */
#define LOAD_IMBALANCE_PERCENT 90
#define LOAD_MIN_SENDS 1000

struct status_finding {
        enum severity sev;
        const char *code; /* one of F_* */
        char *target;     /* the mount or fstab entry it is about; NULL: the host */
        char *text;
};

struct status_report {
        struct status_mount *mounts; /* one per clients.mounts, in table order */
        size_t nmounts;
        struct status_finding *findings;
        size_t nfindings;
};

/* The inputs status reads; each one that cannot be read or parsed is a problem. */
enum status_input {
        IN_MOUNTINFO,
        IN_MOUNTSTATS,
        IN_NFSFS,
        IN_SUNRPC,
        IN_BDI,
        IN_RECORDS,
        IN_FSTAB,
        IN_CONFIG,
        IN_UDEV_RULES,
        IN_NFSMOUNT_CONF,
        IN__MAX
};
/* Their names: the Prometheus label `input`, the words of the messages. */
extern const char *const status_input_names[IN__MAX];

/* What could not be read or parsed: the answer leaves it out (exit status 2). */
struct status_problem {
        enum status_input input;
        char *text; /* what, where, why, and what was not checked */
};
struct status_inputs {
        struct status_problem *v;
        size_t n;
        bool failed[IN__MAX];
};
void status_inputs_done(struct status_inputs *in);
/* 0 or -ENOMEM. */
int status_inputs_add(struct status_inputs *in, enum status_input which, const char *fmt, ...)
        _printf_(3, 4);

void status_report_done(struct status_report *r);
/*
 * One finding as printed: "warning: [code] text", every byte of the text that is a control
 * byte or not valid UTF-8 escaped (shared/escape.h).  NULL when out of memory.
 */
char *status_finding_line(const struct status_finding *f);
/* 0 or -ENOMEM. */
int status_add_finding(struct status_report *r, enum severity sev, const char *code,
                       const char *target, const char *fmt, ...) _printf_(5, 6);

/*
 * Every visible mount of `c` with its facts (`facts[i]` for c->mounts[i]) against the config:
 * the rows and the per-mount findings.  0 or -ENOMEM.
 */
int status_analyse_mounts(const struct clients *c, const struct status_facts *facts,
                          const struct config *conf, unsigned long page_kb,
                          struct status_report *ret);
/* The record is the plan of this mount: same mount point, source and superblock, and seen
 * mounted after that superblock was made (`w`, when known). */
bool status_record_current(const struct mount_record *r, const struct nfs_mount *m,
                           const struct mount_when *w);
