/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>

#include "core/fstab.h"
#include "core/udevrule.h"
#include "sys/paths.h"

/*
 * What could not be read, for the front to say: a file or directory, the errno, and a line
 * when it is one line of the file that could not be parsed.
 */
struct read_error {
        char *path;
        int error;     /* -errno; -EINVAL with a line: that line cannot be parsed */
        unsigned line; /* 1-based; 0: the whole file */
};
struct read_errors {
        struct read_error *v;
        size_t n;
};
int read_errors_add(struct read_errors *e, const char *path, int error, unsigned line);
void read_errors_done(struct read_errors *e);

/*
 * The NFS entries of p->fstab (libmount, loaded on first use), strings owned; addr NULL (the front resolves).  The
 * one fstab reader: `trusted` (the setuid mount path, where fstab is the admin's word on a
 * user's mount) reaches it as root must (sys/chase.c), and one that fails is as none.  A
 * missing fstab has none; one that cannot be read, a line that cannot be parsed, or a libmount that
 * cannot be loaded (-ELIBACC) is added to `errs`.  0 or -ENOMEM.
 */
#define LIBMOUNT_SONAME "libmount.so.1"
int load_fstab_nfs(const struct paths *p, bool trusted, struct fstab_nfs **ret, size_t *ret_n,
                   struct read_errors *errs);
void fstab_nfs_free(struct fstab_nfs *v, size_t n);

/*
 * The rule files udev uses, from the directories of p->udev_rules (the first that has a name
 * wins), sorted by name as udev runs them; each one's text looked at for read_ahead_kb.  Only
 * names that sort at or after `from` when it is not NULL (a mount asks about nfs-tuned's rule
 * and the ones udev runs after it, and opens no other file).
 */
int load_udev_rules(const struct paths *p, const char *from, struct udev_rule_file **ret,
                    size_t *ret_n, struct read_errors *errs);
void udev_rules_free(struct udev_rule_file *v, size_t n);

/* One file and its text: nfsmount.conf, then its drop-ins (<it>.d, *.conf) in name order. */
struct text_file {
        char *path;
        char *text;
};
int load_nfsmount_conf(const struct paths *p, struct text_file **ret, size_t *ret_n,
                       struct read_errors *errs);
void text_files_free(struct text_file *v, size_t n);
