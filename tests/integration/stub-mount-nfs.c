/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A stand-in for nfs-utils' mount.nfs in the integration tests: records its argv (argv[0]
 * included) and acts as the STUB_* environment says.  The lab proves the same steps with the
 * real mount.nfs and kernel.
 *   STUB_DIR            where argv is appended ("argv": one argument a line, "--" after each run)
 *   STUB_EXIT           exit with this status, doing nothing else
 *   STUB_SLEEP_MS       sleep first (lock tests); "start"/"end" lines go to STUB_DIR/log
 *   STUB_MOUNTINFO_LINE appended to $NFS_TUNED_MOUNTINFO: the new mount
 *   STUB_BDI            maj:min: creates $NFS_TUNED_SYSFS/class/bdi/<maj:min>/read_ahead_kb = 128
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int append(const char *path, const char *text)
{
        FILE *f = fopen(path, "a");
        if (!f)
                return -errno;
        fputs(text, f);
        return fclose(f) == 0 ? 0 : -errno;
}

static void log_line(const char *dir, const char *what)
{
        char path[4096], line[128];
        snprintf(path, sizeof(path), "%s/log", dir);
        snprintf(line, sizeof(line), "%s %ld\n", what, (long)getpid());
        append(path, line);
}

/* The descriptors it inherited beyond stdin, stdout and stderr: the helper must leak none. */
static void record_fds(const char *dir)
{
        char path[4096], line[32];
        DIR *d = opendir("/proc/self/fd");
        struct dirent *de;

        snprintf(path, sizeof(path), "%s/fds", dir);
        append(path, "");
        if (!d)
                return;
        while ((de = readdir(d))) {
                int fd = atoi(de->d_name);
                if (de->d_name[0] == '.' || fd <= 2 || fd == dirfd(d))
                        continue;
                snprintf(line, sizeof(line), "%d\n", fd);
                append(path, line);
        }
        closedir(d);
}

int main(int argc, char **argv)
{
        const char *dir = getenv("STUB_DIR"), *e;
        char path[4096];

        if (!dir) {
                fprintf(stderr, "stub mount.nfs: STUB_DIR not set\n");
                return 99;
        }
        snprintf(path, sizeof(path), "%s/argv", dir);
        for (int i = 0; i < argc; i++) {
                append(path, argv[i]);
                append(path, "\n");
        }
        append(path, "--\n");
        record_fds(dir);
        if ((e = getenv("STUB_EXIT")))
                return atoi(e);
        log_line(dir, "start");
        if ((e = getenv("STUB_SLEEP_MS"))) {
                long ms = atol(e);
                struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
                nanosleep(&ts, NULL);
        }
        if ((e = getenv("STUB_MOUNTINFO_LINE"))) {
                const char *mi = getenv("NFS_TUNED_MOUNTINFO");
                if (!mi || append(mi, e) < 0 || append(mi, "\n") < 0)
                        return 98;
        }
        if ((e = getenv("STUB_BDI"))) {
                const char *sys = getenv("NFS_TUNED_SYSFS");
                snprintf(path, sizeof(path), "%s/class/bdi/%s", sys ? sys : "/nonexistent", e);
                mkdir(path, 0755);
                strncat(path, "/read_ahead_kb", sizeof(path) - strlen(path) - 1);
                FILE *f = fopen(path, "w");
                if (!f)
                        return 97;
                fputs("128\n", f);
                fclose(f);
        }
        log_line(dir, "end");
        return 0;
}
