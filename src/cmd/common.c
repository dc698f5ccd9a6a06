/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdio.h>
#include <libmount.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "shared/log.h"
#include "sys/conffile.h"
#include "sys/creds.h"

int open_config_and_program(const struct cmd_env *env, struct config *conf, struct program *prog)
{
        /* before any lock: the helper that ran this one holds the server's lock */
        if (program_called_by_helper()) {
                log_error("refusing to run: this helper was run as the real mount.nfs by itself, "
                          "a divert loop (is the real mount.nfs a copy of this helper?); set "
                          "mount_nfs in [global] of %s to the real binary",
                          env->paths->config);
                return MNT_EX_SYSERR;
        }
        /* a root or setuid run trusts only root's files */
        if (load_config(env->paths->vendor_config, env->paths->config,
                        creds_effective_root() || creds_privileged_exec(), conf) < 0) {
                log_error("out of memory");
                return MNT_EX_SYSERR;
        }
        const char *named = config_global_value(conf, "mount_nfs", NULL);
        program_open(prog, named ? named : env->paths->mount_nfs);
        prog->from_config = named != NULL;
        return MNT_EX_SUCCESS;
}

/* The real binary's path for messages: a user's run names none that the configuration set (a
 * file of root's the user may not read); the build's candidates are no one's secret. */
const char *program_name(const struct program *prog)
{
        return creds_untrusted_caller() && prog->from_config
                       ? "[path not shown: root's configuration]"
                       : prog->path;
}

int check_program(const struct program *prog, const char *config)
{
        int r = program_check(prog);
        const char *name = program_name(prog);

        if (r == -ELOOP)
                log_error("refusing to run %s: it is this helper itself, a divert loop (installed "
                          "in place of mount.nfs without the real one moved aside?); set mount_nfs "
                          "in [global] of %s to the real binary, e.g. /sbin/mount.nfs.distrib",
                          name, config);
        else if (r == -ENOEXEC)
                log_error("cannot run the real mount.nfs %s: not a regular file; set mount_nfs in "
                          "[global] of %s to the real binary",
                          name, config);
        else if (r == -EPERM)
                log_error(
                        "refusing to run %s: it, or a directory or link on its path, is not "
                        "root's or is writable by others, who could put another program there; set "
                        "mount_nfs in [global] of %s to a path of root's",
                        name, config);
        else if (r < 0)
                log_error("cannot run the real mount.nfs %s: %s; install nfs-common (nfs-utils) "
                          "or set mount_nfs in [global] of %s",
                          name, strerror(-r), config);
        return r < 0 ? MNT_EX_SYSERR : MNT_EX_SUCCESS;
}

void print_findings(const struct findings *f)
{
        for (size_t i = 0; i < f->n; i++)
                log_at(f->v[i].sev, "%s", f->v[i].text);
}

void print_config_errors(const struct config *conf, const char *how)
{
        for (size_t i = 0; i < conf->nerrors; i++)
                if (how)
                        log_warning("%s", conf->errors[i]);
                else
                        fprintf(stderr, "%s\n", conf->errors[i]);
        if (!conf->nerrors_more)
                return;
        if (how)
                log_warning("%zu more configuration problems not shown; %s", conf->nerrors_more,
                            how);
        else
                fprintf(stderr, "%zu more problems not shown (the first %d are)\n",
                        conf->nerrors_more, CONFIG_ERRORS_MAX);
}
