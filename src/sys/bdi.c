/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/bdi.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <libudev.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "core/nfsfs.h"
#include "shared/macro.h"
#include "sys/clock.h"
#include "sys/dl.h"
#include "sys/mounttable.h"
#include "sys/paths.h"

/* The longest sleep between two looks at a mount table that does not wake a poller. */
#define BDI_WAIT_STEP_MS 20
/* How often the volume is looked for again while its mountinfo line is waited for. */
#define BDI_VOLUME_RECHECK_MS 100

/*
 * libudev, loaded only when a mount waits for udev (dlopen): every start of the helper would
 * otherwise map it and resolve its symbols (about 65 us of CPU natively), and a boot starts a
 * hundred helpers at once, most of which never wait (DESIGN.md "Parallel mounts").
 */
#define UDEV_FUNCTIONS(X)                                  \
        X(udev_new)                                        \
        X(udev_unref)                                      \
        X(udev_monitor_new_from_netlink)                   \
        X(udev_monitor_filter_add_match_subsystem_devtype) \
        X(udev_monitor_enable_receiving)                   \
        X(udev_monitor_get_fd)                             \
        X(udev_monitor_receive_device)                     \
        X(udev_monitor_unref)                              \
        X(udev_device_get_action)                          \
        X(udev_device_get_sysname)                         \
        X(udev_device_unref)

struct libudev {
        void *handle;
        UDEV_FUNCTIONS(DL_FIELD)
};

/* 0, or -ELIBACC when the library or one of its functions is not there. */
static int libudev_load(struct libudev *l)
{
        DL_OPEN(l, LIBUDEV_SONAME, UDEV_FUNCTIONS);
        return 0;
}

struct bdi_watch {
        struct libudev lib;
        struct udev *udev;
        struct udev_monitor *mon;
};

void bdi_watch_free(struct bdi_watch *w)
{
        if (!w)
                return;
        if (w->mon)
                w->lib.udev_monitor_unref(w->mon);
        if (w->udev)
                w->lib.udev_unref(w->udev);
        if (w->lib.handle)
                dlclose(w->lib.handle);
        free(w);
}

int bdi_watch_start(const struct paths *p, struct bdi_watch **ret)
{
        _cleanup_(bdi_watch_freep) struct bdi_watch *w = NULL;
        int r;

        *ret = NULL;
        if (!paths_exists(p, p->udev_control))
                return 0;
        if (!(w = calloc(1, sizeof(*w))))
                return -ENOMEM;
        if ((r = libudev_load(&w->lib)) < 0)
                return r;
        const struct libudev *l = &w->lib;
        errno = 0;
        w->udev = l->udev_new();
        /* "udev": events after udevd ran the rules, not the kernel's raw ones */
        w->mon = w->udev ? l->udev_monitor_new_from_netlink(w->udev, "udev") : NULL;
        if (!w->mon)
                return errno ? -errno : -ENOMEM;
        if ((r = l->udev_monitor_filter_add_match_subsystem_devtype(w->mon, "bdi", NULL)) < 0 ||
            (r = l->udev_monitor_enable_receiving(w->mon)) < 0)
                return r;
        *ret = steal_pointer(&w);
        return 0;
}

bool bdi_udev_shares_namespaces(const struct paths *p)
{
        static const char *const kinds[] = { "net", "mnt" };
        char path[PATH_MAX];

        for (size_t i = 0; i < ELEMENTSOF(kinds); i++) {
                snprintf(path, sizeof(path), "%s/%s", p->udev_ns, kinds[i]);
                unsigned long theirs = paths_ino(p, path);
                snprintf(path, sizeof(path), "/proc/self/ns/%s", kinds[i]);
                if (!theirs || theirs != paths_ino(p, path))
                        return false;
        }
        return true;
}

/* The add event of bdi `name` after udev ran its rules for it; 0, -ETIMEDOUT or -errno. */
static int watch_for(struct bdi_watch *w, const char *name, long long deadline)
{
        const struct libudev *l = &w->lib;
        int fd = l->udev_monitor_get_fd(w->mon);

        for (;;) {
                long long left = deadline - clock_monotonic_ms();
                if (left <= 0)
                        return -ETIMEDOUT;
                struct pollfd pfd = { .fd = fd, .events = POLLIN };
                int r = poll(&pfd, 1, (int)left);
                if (r < 0 && errno == EINTR)
                        continue;
                if (r < 0)
                        return -errno;
                if (r == 0)
                        return -ETIMEDOUT;
                struct udev_device *d = l->udev_monitor_receive_device(w->mon);
                if (!d)
                        continue;
                const char *action = l->udev_device_get_action(d);
                const char *sysname = l->udev_device_get_sysname(d);
                bool ours = action && sysname && streq(action, "add") && streq(sysname, name);
                l->udev_device_unref(d);
                if (ours)
                        return 0;
        }
}

int bdi_watch_wait(struct bdi_watch *w, dev_t dev, int timeout_ms, long *ret_waited_ms)
{
        char name[32];
        long long start = clock_monotonic_ms();

        snprintf(name, sizeof(name), "%u:%u", major(dev), minor(dev));
        int r = watch_for(w, name, start + timeout_ms);
        *ret_waited_ms = (long)(clock_monotonic_ms() - start);
        return r;
}

static int read_ulong(const struct paths *p, const char *path, unsigned long *ret)
{
        char buf[32];
        int fd = paths_open(p, path, O_RDONLY | O_CLOEXEC, 0);
        if (fd < 0)
                return fd;
        ssize_t n = read(fd, buf, sizeof(buf) - 1);
        int e = errno;
        close(fd);
        if (n < 0)
                return -e;
        buf[n] = '\0';
        char *end;
        *ret = strtoul(buf, &end, 10);
        return end == buf ? -EIO : 0;
}

int bdi_set_read_ahead(const struct paths *p, dev_t dev, unsigned long kb, unsigned long *ret_old,
                       unsigned long *ret_now)
{
        char path[PATH_MAX], buf[32];
        int fd, r;

        snprintf(path, sizeof(path), "%s/class/bdi/%u:%u/read_ahead_kb", p->sysfs, major(dev),
                 minor(dev));
        if (ret_old && read_ulong(p, path, ret_old) < 0)
                *ret_old = 0;
        fd = paths_open(p, path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0);
        if (fd < 0)
                return fd;
        int len = snprintf(buf, sizeof(buf), "%lu\n", kb);
        ssize_t n = write(fd, buf, (size_t)len);
        r = n < 0 ? -errno : n != len ? -EIO : 0;
        if (close(fd) < 0 && r == 0)
                r = -errno;
        if (r < 0)
                return r;
        return read_ulong(p, path, ret_now);
}

int bdi_get_read_ahead(const struct paths *p, dev_t dev, unsigned long *ret)
{
        char path[PATH_MAX];

        snprintf(path, sizeof(path), "%s/class/bdi/%u:%u/read_ahead_kb", p->sysfs, major(dev),
                 minor(dev));
        return read_ulong(p, path, ret);
}

/* /proc/self/mountinfo wakes a poller on every mount or unmount of the namespace (POLLPRI, as
 * libmount's monitor uses it); a plain file (tests) never does. */
static bool on_procfs(int fd)
{
        struct statfs sf;
        return fstatfs(fd, &sf) == 0 && sf.f_type == PROC_SUPER_MAGIC;
}

/* /proc/fs/nfsfs/volumes lists superblock `dev` (of this network namespace). */
static bool volume_listed(const struct paths *p, dev_t dev, struct nfs_addr *ret_addr)
{
        _cleanup_free_ char *volumes = NULL;

        return read_nfsfs(p, "volumes", &volumes) == 0 &&
               nfsfs_volume_find(volumes, dev, ret_addr) == 0;
}

/*
 * The mountinfo line of `dev`, waited for until `deadline`: looked at once, then again only
 * when the kernel says the mount table changed (a plain file: every BDI_WAIT_STEP_MS), so the
 * wait itself costs nothing.  With `volume`, a volume that leaves nfsfs meanwhile ends it
 * (-EMEDIUMTYPE): NFSv4's short-lived superblock of the server's root is never mounted here.
 */
static int wait_mount_line(const struct paths *p, dev_t dev, long long deadline, bool volume,
                           unsigned *looks, struct nfs_mount *ret)
{
        long long next_volume = clock_monotonic_ms() + BDI_VOLUME_RECHECK_MS;
        struct nfs_addr a;
        int r;

        for (;;) {
                _cleanup_(closep) int fd = paths_open(p, p->mountinfo, O_RDONLY | O_CLOEXEC, 0);
                if (fd < 0)
                        return fd;
                bool proc = on_procfs(fd);
                ++*looks;
                if ((r = find_mount_by_dev(p, fd, dev, ret)) != -ENOENT)
                        return r;
                for (bool changed = false; !changed;) {
                        long long now = clock_monotonic_ms(), wait = deadline - now;
                        if (wait <= 0)
                                return -ENOENT;
                        if (volume && next_volume - now < wait)
                                wait = next_volume > now ? next_volume - now : 0;
                        if (!proc && wait > BDI_WAIT_STEP_MS)
                                wait = BDI_WAIT_STEP_MS;
                        struct pollfd pfd = { .fd = fd, .events = POLLPRI };
                        int n = poll(&pfd, 1, (int)wait);
                        if (n < 0 && errno != EINTR)
                                return -errno;
                        if (volume && clock_monotonic_ms() >= next_volume) {
                                if (!volume_listed(p, dev, &a))
                                        return -EMEDIUMTYPE;
                                next_volume = clock_monotonic_ms() + BDI_VOLUME_RECHECK_MS;
                        }
                        changed = n > 0 || !proc;
                }
        }
}

/* At most this many other mount namespaces are looked at for a superblock. */
#define BDI_NAMESPACES_MAX 64

/* A namespace of process `pid` ("self" too), as the inode of its ns/<kind>; 0: none read. */
static ino_t ns_of(const struct paths *p, const char *pid, const char *kind)
{
        char path[PATH_MAX];
        struct stat st;

        snprintf(path, sizeof(path), "%s/%s/ns/%s", p->proc, pid, kind);
        return stat(path, &st) == 0 ? st.st_ino : 0;
}

/*
 * The mount namespace of a process that may have mounted an NFS superblock: one of the initial
 * user namespace (PID 1's).  Any user can make user namespaces, and mount namespaces in them,
 * by the thousand; none of those can mount NFS (not FS_USERNS_MOUNT), and counted against
 * BDI_NAMESPACES_MAX they would push a container's out of reach: every bdi event would wait
 * UDEV_MOUNTINFO_WAIT_MS.  0: not one to look at.  When PID 1's cannot be read (a test's
 * tree), every process counts.
 */
static ino_t candidate_ns(const struct paths *p, const char *pid, ino_t init_user)
{
        if (pid[0] < '1' || pid[0] > '9')
                return 0;
        if (init_user && ns_of(p, pid, "user") != init_user)
                return 0;
        return ns_of(p, pid, "mnt");
}

/* A process of another mount namespace has `dev` in its mount table: the kernel says the
 * superblock was mounted there, so its line will not come here. */
static bool mounted_elsewhere(const struct paths *p, dev_t dev, unsigned *looks)
{
        _cleanup_(closedirp) DIR *d = opendir(p->proc);
        ino_t seen[BDI_NAMESPACES_MAX + 1] = { ns_of(p, "self", "mnt") };
        ino_t init_user = ns_of(p, "1", "user");
        size_t n = 1;
        struct dirent *de;

        while (d && n <= BDI_NAMESPACES_MAX && (de = readdir(d))) {
                ino_t ns = candidate_ns(p, de->d_name, init_user);
                bool known = !ns;
                for (size_t i = 0; i < n && !known; i++)
                        known = seen[i] == ns;
                if (known)
                        continue;
                seen[n++] = ns;
                char path[PATH_MAX];
                snprintf(path, sizeof(path), "%s/%s/mountinfo", p->proc, de->d_name);
                _cleanup_(closep) int fd = open(path, O_RDONLY | O_CLOEXEC);
                struct nfs_mount m = { 0 };
                ++*looks;
                if (fd >= 0 && find_mount_by_dev(p, fd, dev, &m) == 0) {
                        nfs_mount_done(&m);
                        return true;
                }
        }
        return false;
}

int bdi_find_owner(const struct paths *p, dev_t dev, int wait_ms, struct bdi_owner *ret)
{
        struct bdi_owner o = { .kind = BDI_NOT_NFS };
        _cleanup_free_ char *volumes = NULL;
        long long start = clock_monotonic_ms(), waited;
        /* every NFS superblock of this network namespace is in nfsfs before its bdi exists:
         * a device it does not list costs no look at the mount table (a flood of FUSE
         * superblocks costs one read of a file of NFS volumes each) */
        bool have_volumes = read_nfsfs(p, "volumes", &volumes) == 0;
        bool listed = have_volumes && nfsfs_volume_find(volumes, dev, &o.volume_addr) == 0;
        int r = have_volumes && !listed ? -EMEDIUMTYPE
                                        : wait_mount_line(p, dev, start, false, &o.looks, &o.mount);

        if (r == -ENOMEM)
                return r;
        if (r == 0)
                o.kind = BDI_NFS_MOUNT;
        /* no line yet: only a volume of this network namespace is worth waiting for */
        if (r == 0 || r == -EMEDIUMTYPE || !listed) {
                o.lookup_ms = (long)(clock_monotonic_ms() - start);
                *ret = o;
                return 0;
        }
        waited = clock_monotonic_ms();
        o.lookup_ms = (long)(waited - start);
        /* mounted in another mount namespace (a container): no wait, the volume decides */
        if (mounted_elsewhere(p, dev, &o.looks)) {
                o.kind = BDI_NFS_VOLUME;
                o.elsewhere = true;
                *ret = o;
                return 0;
        }
        r = wait_mount_line(p, dev, waited + wait_ms, true, &o.looks, &o.mount);
        if (r == -ENOMEM)
                return r;
        o.kind = r == 0 ? BDI_NFS_MOUNT : r == -EMEDIUMTYPE ? BDI_NOT_NFS : BDI_NFS_VOLUME;
        o.waited_ms = (long)(clock_monotonic_ms() - waited);
        /* a zero wait still says "waited" */
        o.waited_ms += !o.waited_ms;
        *ret = o;
        return 0;
}

unsigned long bdi_page_kb(void)
{
        long page = sysconf(_SC_PAGESIZE);

        return page > 0 ? (unsigned long)page / 1024 : 4;
}
