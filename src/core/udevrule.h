/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/*
 * udev's rule files as they bear on nfs-tuned's rule: whether it has the last word on a new
 * bdi's read_ahead_kb.  The mount path asks the state; `nfs-tuned status` turns the same
 * files into findings (core/hostcheck.h).
 */

/* nfs-tuned's udev rule and nfs-utils' (udev sorts rule files by name across directories). */
#define NFS_TUNED_UDEV_RULE "99-zz-nfs-tuned.rules"
#define NFS_UTILS_UDEV_RULE "99-nfs.rules"

/* One rule file udev uses (the first directory that has the name wins). */
struct udev_rule_file {
        const char *name;
        const char *path;
        const char *shadowed;   /* the file of the same name it hides; NULL: none */
        bool masked;            /* empty, or a link to /dev/null */
        bool writes_read_ahead; /* a rule line names read_ahead_kb */
};

/* Whether nfs-tuned's rule is the last word of udev on a new bdi's read_ahead_kb. */
enum udev_rule_state {
        UDEV_RULE_LAST,        /* udev runs it as installed, and no file after it writes
                                 * read_ahead_kb */
        UDEV_RULE_ABSENT,      /* no file of its name in udev's directories */
        UDEV_RULE_MASKED,      /* empty, or a link to /dev/null */
        UDEV_RULE_REPLACED,    /* a file of its name in an earlier directory runs instead */
        UDEV_RULE_INERT,       /* the file of its name writes no read_ahead_kb */
        UDEV_RULE_OVERWRITTEN, /* a rule file that sorts after it writes read_ahead_kb */
};

/*
 * The state of nfs-tuned's rule among the rule files udev uses (`v`, sorted by name; those
 * before it may be left out); *ret_path (when not NULL) is the file that decides it: the
 * rule, the file replacing it, or the later writer (NULL when absent).
 */
enum udev_rule_state udev_rule_state(const struct udev_rule_file *v, size_t n,
                                     const char **ret_path);
const char *udev_rule_state_to_string(enum udev_rule_state s);

/* The text has a line (not a comment) that names read_ahead_kb. */
bool udev_rule_writes_read_ahead(const char *text);

/* Another rule file than nfs-tuned's and nfs-utils' that udev runs after nfs-tuned's and that
 * writes read_ahead_kb. */
bool udev_rule_writes_after_ours(const struct udev_rule_file *f);
