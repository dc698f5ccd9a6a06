/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/program.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libmount.h>
#include "shared/log.h"

extern char **environ;

static int check_fd(int fd)
{
        struct stat a, b;

        if (fstat(fd, &a) < 0)
                return -errno;
        if (!S_ISREG(a.st_mode))
                return -ENOEXEC;
        if (stat("/proc/self/exe", &b) < 0)
                return -errno;
        if (a.st_dev == b.st_dev && a.st_ino == b.st_ino)
                return -ELOOP;
        return 0;
}

void program_open(struct program *p, const char *candidates)
{
        *p = (struct program){ .path = candidates, .fd = -1, .error = -ENOENT };
        /* the first candidate that exists: a package diverts the real binary to one of several
         * names, depending on which name nfs-utils ships (/sbin or /usr/sbin) */
        for (const char *c = candidates; *c;) {
                size_t n = strcspn(c, ":");
                if (n > 0 && n < sizeof(p->buf)) {
                        memcpy(p->buf, c, n);
                        p->buf[n] = '\0';
                        /* no O_CLOEXEC: a script run through fexecve() needs its /dev/fd entry */
                        int fd = open(p->buf, O_PATH);
                        if (fd >= 0 || errno != ENOENT) {
                                p->path = p->buf;
                                p->fd = fd;
                                p->error = fd < 0 ? -errno : check_fd(fd);
                                return;
                        }
                }
                c += n + (c[n] == ':');
        }
}

void program_close(struct program *p)
{
        if (p->fd >= 0)
                close(p->fd);
        p->fd = -1;
}

int program_check(const struct program *p)
{
        return p->error;
}

int program_exec(const struct program *p, char *const argv[])
{
        fexecve(p->fd, argv, environ);
        return -errno;
}

int program_run(const struct program *p, char *const argv[])
{
        pid_t pid;
        int status;

        fflush(NULL);
        pid = fork();
        if (pid < 0) {
                log_error("cannot start %s: %s", p->path, strerror(errno));
                return MNT_EX_SYSERR;
        }
        if (pid == 0) {
                fexecve(p->fd, argv, environ);
                fprintf(stderr, "mount.nfs-tuned: cannot run %s: %s\n", p->path, strerror(errno));
                _exit(MNT_EX_SYSERR);
        }
        /* ^C reaches mount.nfs, which stops; its status is what counts */
        void (*old_int)(int) = signal(SIGINT, SIG_IGN);
        while (waitpid(pid, &status, 0) < 0)
                if (errno != EINTR) {
                        log_error("waiting for %s: %s", p->path, strerror(errno));
                        signal(SIGINT, old_int);
                        return MNT_EX_SYSERR;
                }
        signal(SIGINT, old_int);
        if (WIFEXITED(status))
                return WEXITSTATUS(status);
        log_error("%s was killed by signal %d (%s)", p->path, WTERMSIG(status),
                  strsignal(WTERMSIG(status)));
        return WTERMSIG(status) == SIGINT ? MNT_EX_USER : MNT_EX_SYSERR;
}
