/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <limits.h>
#include <stdbool.h>

/*
 * The real mount.nfs, opened (O_PATH) before -N switches namespaces, so the program run is
 * the one of the caller's file system, never one a container's namespace supplies.
 */
struct program {
        const char *path; /* the candidate opened, or the whole list when none exists */
        char buf[PATH_MAX];
        int fd;           /* -1 when it could not be opened */
        int error;        /* what program_check() reports, found when opened */
        bool from_config; /* named by the configuration's mount_nfs, not the build */
};

/*
 * Opens and checks the program, before -N: /proc/self/exe may not resolve after it.
 * `candidates` is one absolute path or several separated by ':'; the first that exists and is
 * not this helper is used (this helper only when no other exists: a divert loop, refused).
 */
void program_open(struct program *p, const char *candidates);
void program_close(struct program *p);
/*
 * 0 when it can be run; -errno, -ELOOP when it is this very helper (a divert loop), -EPERM
 * when root would run it and it, or a directory or link on its path, is not root's or is
 * writable by others.
 */
int program_check(const struct program *p);
struct run_status {
        int exit_status; /* -1 when killed */
        int signal;      /* the signal that killed it, or 0 */
};

/* fork + exec + wait.  0 and what became of the child, or -errno when it could not be run. */
int program_run(const struct program *p, char *const argv[], struct run_status *ret);
/* Set for the real mount.nfs: a copy of this helper run as mount.nfs sees it and refuses. */
#define PROGRAM_CALLER_ENV "NFS_TUNED_CALLER"
/* This process was run by the helper as the real mount.nfs: it is a copy of the helper. */
bool program_called_by_helper(void);
/* Replaces this process (umount pass-through); returns only on failure (-errno). */
int program_exec(const struct program *p, char *const argv[]);
