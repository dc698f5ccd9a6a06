/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/program.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libmount.h>

#include "sys/chase.h"

extern char **environ;

/*
 * The program itself, once the chase has checked the way to it: for root (`trusted`) it is
 * root's and written by no one else, or whoever owns or may write it chooses what root runs.
 */
static int check_fd(int fd, bool trusted)
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
        if (trusted && (a.st_uid != 0 || (a.st_mode & (S_IWGRP | S_IWOTH))))
                return -EPERM;
        return 0;
}

/* The first candidate that exists, passing over this very helper when `skip_self`. */
static bool open_first(struct program *p, const char *candidates, bool skip_self)
{
        for (const char *c = candidates; *c;) {
                size_t n = strcspn(c, ":");
                if (n > 0 && n < sizeof(p->buf)) {
                        memcpy(p->buf, c, n);
                        p->buf[n] = '\0';
                        /* close-on-exec: mount.nfs must not inherit it (see exec_program()) */
                        /* the admin's name for a program root runs: along directories and
                         * links no other user controls (sys/chase.c) */
                        bool trusted = geteuid() == 0;
                        int fd = chase_at(AT_FDCWD, -1, p->buf, trusted ? CHASE_TRUSTED : 0, O_PATH,
                                          NULL);
                        int err = fd < 0 ? fd : check_fd(fd, trusted);
                        if (skip_self && err == -ELOOP)
                                close(fd);
                        else if (fd >= 0 || err != -ENOENT) {
                                p->path = p->buf;
                                p->fd = fd;
                                p->error = err;
                                return true;
                        }
                }
                c += n + (c[n] == ':');
        }
        return false;
}

void program_open(struct program *p, const char *candidates)
{
        *p = (struct program){ .path = candidates, .fd = -1, .error = -ENOENT };
        /* a package puts the real binary under one of several names: the one nfs-utils ships
         * (/sbin or /usr/sbin), or, while this helper has taken mount.nfs (the RPM's
         * nfs-tuned-front), the name it was put aside as; a name that is this helper is passed
         * over, and is the answer (a divert loop) only when no other exists */
        if (!open_first(p, candidates, true))
                open_first(p, candidates, false);
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

/*
 * Runs the program with the marker that tells a copy of this helper it was run as the real
 * mount.nfs (a divert loop).  The fd is close-on-exec so that mount.nfs does not inherit it; a
 * script run that way finds no /dev/fd entry for its interpreter (ENOENT), so for a script the
 * flag is cleared and the exec tried once more.
 */
static int exec_marked(const struct program *p, char *const argv[])
{
        fexecve(p->fd, argv, environ);
        if (errno == ENOENT && fcntl(p->fd, F_SETFD, 0) == 0)
                fexecve(p->fd, argv, environ);
        return -errno;
}

static int exec_program(const struct program *p, char *const argv[])
{
        if (setenv(PROGRAM_CALLER_ENV, "1", 1) < 0)
                return -errno;
        return exec_marked(p, argv);
}

int program_exec(const struct program *p, char *const argv[])
{
        return exec_program(p, argv);
}

bool program_called_by_helper(void)
{
        /* plain getenv(): the answer only ever makes the helper refuse */
        return getenv(PROGRAM_CALLER_ENV) != NULL;
}

int program_run(const struct program *p, char *const argv[], struct run_status *ret)
{
        int pipefd[2], status, err = 0;
        pid_t pid;

        /* the child reports a failed exec through a pipe that a successful exec closes */
        if (pipe2(pipefd, O_CLOEXEC) < 0)
                return -errno;
        /* the marker is set here: the vfork child only execs, writes and exits */
        if (setenv(PROGRAM_CALLER_ENV, "1", 1) < 0) {
                err = -errno;
                close(pipefd[0]);
                close(pipefd[1]);
                return err;
        }
        fflush(NULL);
        /* no copy of the helper's memory for a child that only execs: with a hundred mounts
         * at once (a boot) each fork's page copying is CPU the mounts wait for */
        pid = vfork();
        if (pid < 0) {
                err = -errno;
                close(pipefd[0]);
                close(pipefd[1]);
                return err;
        }
        if (pid == 0) {
                int e = -exec_marked(p, argv);
                (void)!write(pipefd[1], &e, sizeof(e));
                _exit(MNT_EX_SYSERR);
        }
        close(pipefd[1]);
        /* ^C reaches mount.nfs, which stops; its status is what counts */
        void (*old_int)(int) = signal(SIGINT, SIG_IGN);
        while (read(pipefd[0], &err, sizeof(err)) < 0 && errno == EINTR)
                ;
        close(pipefd[0]);
        while (waitpid(pid, &status, 0) < 0)
                if (errno != EINTR) {
                        err = err ? err : errno;
                        break;
                }
        signal(SIGINT, old_int);
        if (err)
                return -err;
        *ret = (struct run_status){
                .exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                .signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0,
        };
        return 0;
}
