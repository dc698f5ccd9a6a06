/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mount.nfs-tuned: a mount helper in front of nfs-utils' mount.nfs that knows the kernel
 * shares one NFS client (and its nconnect) between every mount of a server endpoint.
 * This file only picks the command from the table both programs share (cmd/commands.h, as
 * kmod's tools/kmod.c): each lives in cmd/.
 */
#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <stdio.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/commands.h"
#include "config-build.h"
#include "shared/log.h"

static const struct command commands[] = { RUN_MODES(COMMAND_NAME)
                                                   COMMANDS(HELPER_ROW, COMMAND_SKIP) };

static const struct tool helper = {
        .name = "mount.nfs-tuned",
        .commands = commands,
        .n = ELEMENTSOF(commands),
        .about = "Runs the real mount.nfs with defaults from " CONFIG_PATH ", after checking\n"
                 "that the requested nconnect and sec=krb5* can take effect on the NFS client the\n"
                 "mount will share, and sets the new mount's read-ahead.",
        .details = "Options of a mount:\n"
                   "  -f   dry run: decide everything, print the plan with -v, do not mount\n"
                   "  -v   verbose: the endpoint, the clients found, the verdict, the exec line\n"
                   "  -s -n -r -w   passed to mount.nfs\n"
                   "See mount.nfs-tuned(8) and nfs-tuned.conf(5); 'nfs-tuned status' reports what\n"
                   "every NFS mount really got, later (nfs-tuned(8)).\n",
};

/* A setuid program started with stdin, stdout or stderr closed would hand that number to the
 * next file it opens, and a message could land in it: they are /dev/null instead. */
static void open_std_fds(void)
{
        for (int fd = 0; fd < 3; fd++)
                if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
                    open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) < 0)
                        _exit(MNT_EX_SYSERR);
}

int main(int argc, char **argv)
{
        struct cmdline cl;
        struct paths p;
        char err[CMDLINE_ERR_MAX];
        int rc;

        open_std_fds();
        rc = cmdline_parse(argc, argv, &cl, err);

        if (rc == -ENOMEM) {
                log_error("out of memory");
                return MNT_EX_SYSERR;
        }
        if (rc < 0) {
                log_error("%s; see 'mount.nfs-tuned -h'", err);
                return MNT_EX_USAGE;
        }
        log_set_verbose(cl.verbose);
        paths_init(&p);
        rc = commands[cl.mode].run(&(struct cmd_env){
                .tool = &helper, .cl = &cl, .paths = &p, .argc = argc, .argv = argv });
        paths_done(&p);
        cmdline_done(&cl);
        return rc;
}
