/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "run.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exitcodes.h"
#include "report.h"

int run_is_self(const char *path, bool *ret)
{
        struct stat a, b;

        if (stat(path, &a) < 0)
                return -errno;
        if (stat("/proc/self/exe", &b) < 0)
                return -errno;
        *ret = a.st_dev == b.st_dev && a.st_ino == b.st_ino;
        return 0;
}

int run_mount_nfs(const char *path, char *const argv[])
{
        pid_t pid;
        int status;

        fflush(NULL);
        pid = fork();
        if (pid < 0) {
                log_error("cannot start %s: %s", path, strerror(errno));
                return EX_SYSERR;
        }
        if (pid == 0) {
                execv(path, argv);
                fprintf(stderr, "mount.nfs-tuned: cannot run %s: %s\n", path, strerror(errno));
                _exit(EX_SYSERR);
        }
        while (waitpid(pid, &status, 0) < 0)
                if (errno != EINTR) {
                        log_error("waiting for %s: %s", path, strerror(errno));
                        return EX_SYSERR;
                }
        if (WIFEXITED(status))
                return WEXITSTATUS(status);
        log_error("%s was killed by signal %d (%s)", path, WTERMSIG(status),
                  strsignal(WTERMSIG(status)));
        return WTERMSIG(status) == SIGINT ? EX_USER : EX_SYSERR;
}
