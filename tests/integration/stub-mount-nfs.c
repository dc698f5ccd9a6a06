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
 *   STUB_KERNEL         a file of NFS clients ("address version nconnect xprtsec" lines): the
 *                       stub acts as the kernel's sharing rule, at once (before STUB_SLEEP_MS),
 *                       under a lock of the file: the first mount of an address and version
 *                       creates the client with its nconnect and xprtsec, every later one gets
 *                       that one; NFSv3 keys on xprtsec too, NFSv4 folds a mount of another
 *                       xprtsec into the existing client (as Linux 6.12 does, doc/DESIGN.md "TLS
 *                       and sharing"); then it appends its own line to $NFS_TUNED_MOUNTINFO
 *                       (spec, mount point, version, the client's nconnect and xprtsec; device
 *                       and ID from the pid); a client it creates is listed in
 *                       $NFS_TUNED_NFSFS/servers at once, as the kernel lists it in /proc/fs/nfsfs
 *                       before mount(2) adds the mountinfo line (so with STUB_SLEEP_MS the client
 *                       is in nfsfs that long before)
 *   called as umount.nfs or umount.nfs4: removes the lines of mount point argv[1] from
 *                       $NFS_TUNED_MOUNTINFO (after recording argv); STUB_UMOUNT_EXIT: exit
 *                       with it instead
 *   STUB_KERNEL_DELAY_MS  sleep before reaching the client (a mount.nfs slow to get there)
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
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

static void sleep_ms(const char *e)
{
        long ms = atol(e);
        struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
        nanosleep(&ts, NULL);
}

/* The value of `key` in a comma-separated option string, or NULL ("" for a flag). */
static const char *opt_value(const char *opts, const char *key, char *buf, size_t n)
{
        size_t kl = strlen(key);
        for (const char *p = opts; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
                if (strncmp(p, key, kl) || p[kl] != '=')
                        continue;
                snprintf(buf, n, "%.*s", (int)strcspn(p + kl + 1, ","), p + kl + 1);
                return buf;
        }
        return NULL;
}

/* A new client's /proc/fs/nfsfs/servers line ("v3 0a630001  801    1 10.99.0.1"): IPv4 only. */
static void nfsfs_add(const char *addr, const char *vers)
{
        const char *dir = getenv("NFS_TUNED_NFSFS");
        char path[4096], line[320];
        struct in_addr in;

        if (!dir || inet_pton(AF_INET, addr, &in) != 1)
                return;
        snprintf(path, sizeof(path), "%s/servers", dir);
        snprintf(line, sizeof(line), "v%c %08x  801    1 %s\n", vers[0], ntohl(in.s_addr), addr);
        append(path, line);
}

/* The client of (address, version[, xprtsec for NFSv3]) in the clients file, created with
 * `want` and `sec` when none; `sec` becomes the client's. */
static unsigned kernel_client(const char *file, const char *addr, const char *vers, unsigned want,
                              char sec[16])
{
        char a[256], v[16], x[16];
        unsigned nc, got = 0;
        FILE *f = fopen(file, "a+");

        if (!f)
                return 0;
        flock(fileno(f), LOCK_EX);
        rewind(f);
        while (!got && fscanf(f, "%255s %15s %u %15s", a, v, &nc, x) == 4)
                if (!strcmp(a, addr) && !strcmp(v, vers) && (vers[0] == '4' || !strcmp(x, sec))) {
                        got = nc;
                        snprintf(sec, 16, "%s", x);
                }
        if (!got) {
                fprintf(f, "%s %s %u %s\n", addr, vers, want, sec);
                nfsfs_add(addr, vers);
                got = want;
        }
        fclose(f);
        return got;
}

/* umount.nfs: the mount point's lines leave the mount table. */
static int kernel_umount(const char *dir)
{
        const char *mi = getenv("NFS_TUNED_MOUNTINFO");
        char tmp[4096], line[8192], point[4096];
        FILE *in, *out;

        if (!mi || !(in = fopen(mi, "r")))
                return 98;
        snprintf(tmp, sizeof(tmp), "%s.umount", mi);
        if (!(out = fopen(tmp, "w"))) {
                fclose(in);
                return 98;
        }
        while (fgets(line, sizeof(line), in))
                if (sscanf(line, "%*s %*s %*s %*s %4095s", point) != 1 || strcmp(point, dir))
                        fputs(line, out);
        fclose(in);
        fclose(out);
        return rename(tmp, mi) == 0 ? 0 : 98;
}

/* As the kernel: join or create the client, then (after the sleep) the new mountinfo line. */
static int kernel_mount(int argc, char **argv, const char *clients, char *line, size_t n)
{
        char vers[16] = "4.2", ncb[32], host[256], sec[16] = "none", secb[32] = "";
        const char *opts = "", *e;

        for (int i = 3; i + 1 < argc; i++)
                if (!strcmp(argv[i], "-o"))
                        opts = argv[i + 1];
        if (argc < 3 || !strstr(argv[1], ":/"))
                return -1;
        opt_value(opts, "vers", vers, sizeof(vers));
        opt_value(opts, "xprtsec", sec, sizeof(sec));
        snprintf(host, sizeof(host), "%.*s", (int)(strstr(argv[1], ":/") - argv[1]), argv[1]);
        unsigned want = opt_value(opts, "nconnect", ncb, sizeof(ncb)) ? (unsigned)atoi(ncb) : 1;
        if ((e = getenv("STUB_KERNEL_DELAY_MS")))
                sleep_ms(e);
        unsigned nc = kernel_client(clients, host, vers, want, sec);
        if (!nc)
                return -1;
        snprintf(ncb, sizeof(ncb), "nconnect=%u,", nc);
        if (strcmp(sec, "none"))
                snprintf(secb, sizeof(secb), "xprtsec=%s,", sec);
        int id = 1000 + getpid() % 100000;
        /* the mount the mount point is on, as the kernel would show it: the helper checks it */
        const char *parent = getenv("STUB_PARENT") ? getenv("STUB_PARENT") : "21";
        snprintf(line, n,
                 "%d %s 0:%d / %s rw,relatime - %s %s rw,vers=%s,rsize=1048576,wsize=1048576,"
                 "namlen=255,hard,%sproto=tcp,timeo=600,retrans=2,sec=sys,%slocal_lock=none,"
                 "addr=%s\n",
                 id, parent, id, argv[2], vers[0] == '4' ? "nfs4" : "nfs", argv[1], vers,
                 nc > 1 ? ncb : "", secb, host);
        return 0;
}

int main(int argc, char **argv)
{
        const char *dir = getenv("STUB_DIR"), *e;
        char path[4096];

        if (!dir) {
                fprintf(stderr, "stub mount.nfs: STUB_DIR not set\n");
                return 99;
        }
        /* a case that limits the helper's file size (a full run directory) limits only its
         * soft limit: the stub's own files are the kernel's, not the helper's */
        struct rlimit fsize;
        if (getrlimit(RLIMIT_FSIZE, &fsize) == 0 && fsize.rlim_cur != fsize.rlim_max) {
                fsize.rlim_cur = fsize.rlim_max;
                setrlimit(RLIMIT_FSIZE, &fsize);
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
        const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
        if (!strncmp(base, "umount", 6)) {
                if ((e = getenv("STUB_UMOUNT_EXIT")))
                        return atoi(e);
                return argc < 2 ? 99 : kernel_umount(argv[1]);
        }
        log_line(dir, "start");
        char line[8192];
        if ((e = getenv("STUB_KERNEL")) && kernel_mount(argc, argv, e, line, sizeof(line)) < 0)
                return 96;
        if ((e = getenv("STUB_SLEEP_MS")))
                sleep_ms(e);
        if (getenv("STUB_KERNEL")) {
                const char *mi = getenv("NFS_TUNED_MOUNTINFO");
                /* one write: the lines of mounts that end at once do not interleave */
                if (!mi || append(mi, line) < 0)
                        return 98;
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
