/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/lock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "shared/macro.h"
#include "sys/paths.h"
#include "sys/rundir.h"

static volatile sig_atomic_t lock_timed_out;

static void on_alarm(int sig)
{
        (void)sig;
        lock_timed_out = 1;
}

/*
 * A blocking flock, so that the kernel hands the lock to a waiter the moment it is free
 * (polling would add its step to every wait); a timer interrupts it.  The timer repeats: a
 * signal that lands before flock() blocks is followed by another.
 */
static int flock_wait(int fd, int timeout_ms)
{
        struct sigaction sa = { .sa_handler = on_alarm }, old;
        struct itimerval it = { { 0, 100000 }, { timeout_ms / 1000, (timeout_ms % 1000) * 1000 } };
        int r = 0;

        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
                return 0;
        if (errno != EWOULDBLOCK)
                return -errno;
        sigemptyset(&sa.sa_mask);
        lock_timed_out = 0;
        if (sigaction(SIGALRM, &sa, &old) < 0)
                return -errno;
        if (setitimer(ITIMER_REAL, &it, NULL) < 0)
                r = -errno;
        while (r == 0 && flock(fd, LOCK_EX) < 0)
                r = errno != EINTR ? -errno : lock_timed_out ? -ETIMEDOUT : 0;
        (void)setitimer(ITIMER_REAL, &(struct itimerval){ 0 }, NULL);
        (void)sigaction(SIGALRM, &old, NULL);
        return r;
}

/*
 * 1 when the locked fd is still the file `file` names, 0 when another took its place (it was
 * removed by lock_open() in between: the lock is on nothing), -errno on errors.
 */
static int still_named(int dirfd, const char *file, int fd)
{
        struct stat a, b;

        if (fstat(fd, &a) < 0)
                return -errno;
        if (fstatat(dirfd, file, &b, AT_SYMLINK_NOFOLLOW) < 0)
                return errno == ENOENT ? 0 : -errno;
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/*
 * The lock file's fd: a FIFO or another user's file is no lock of ours (-EPERM).  One of ours
 * that others could open (0644 from older versions: any user may have an fd of it, and hold
 * its flock for ever) is removed and made again, 0600.
 */
static int lock_open(int dirfd, const char *file)
{
        struct stat st;

        for (int tries = 0; tries < 2; tries++) {
                int fd = openat(dirfd, file,
                                O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK,
                                0600);
                if (fd < 0)
                        return -errno;
                if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !rundir_trusted(&st)) {
                        close(fd);
                        return -EPERM;
                }
                if (rundir_private(&st))
                        return fd;
                close(fd);
                if (unlinkat(dirfd, file, 0) < 0 && errno != ENOENT)
                        return -errno;
        }
        return -EPERM;
}

int lock_key(int dirfd, const char *name, int timeout_ms)
{
        char file[NAME_MAX + 1];
        int r;

        /* the name is a client key: no '/' can reach here */
        if (snprintf(file, sizeof(file), "%s.lock", name) >= (int)sizeof(file))
                return -ENAMETOOLONG;
        for (int tries = 0; tries < 3; tries++) {
                int fd = lock_open(dirfd, file);
                if (fd < 0)
                        return fd;
                r = flock_wait(fd, timeout_ms);
                if (r == 0)
                        r = still_named(dirfd, file, fd);
                if (r > 0)
                        return fd;
                close(fd);
                if (r < 0)
                        return r;
        }
        return -EAGAIN;
}
