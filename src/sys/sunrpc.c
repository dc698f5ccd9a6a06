/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/sunrpc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/opts.h"
#include "shared/array.h"
#include "shared/macro.h"

/* A small sysfs attribute, NUL-terminated; -errno. */
static int read_attr(const struct paths *p, const char *path, char *buf, size_t size)
{
        _cleanup_(closep) int fd = paths_open(p, path, O_RDONLY | O_CLOEXEC, 0);
        if (fd < 0)
                return fd;
        ssize_t n = read(fd, buf, size - 1);
        if (n < 0)
                return -errno;
        buf[n] = '\0';
        return 0;
}

/* "key=value" lines (xprt_switch_info, xprt_info): the value of key, or -ENOENT. */
static int attr_uint(const char *text, const char *key, unsigned long *ret)
{
        size_t klen = strlen(key);
        for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
                if (strncmp(l, key, klen) == 0 && l[klen] == '=') {
                        char v[32];
                        snprintf(v, sizeof(v), "%.*s", (int)strcspn(l + klen + 1, "\n"),
                                 l + klen + 1);
                        return parse_uint(v, 0, UINT32_MAX, ret);
                }
        return -ENOENT;
}

/* The destination of one of the switch's transports that is connected (only those show a port). */
static int read_destination(const struct paths *p, const char *dir, struct rpc_switch *sw)
{
        _cleanup_(closedirp) DIR *d = opendir(dir);
        char path[PATH_MAX], buf[1024];
        unsigned long port;
        struct dirent *de;

        if (!d)
                return -errno;
        while ((de = readdir(d))) {
                const char *t = strrchr(de->d_name, '-');
                if (strncmp(de->d_name, "xprt-", 5) != 0 || !t)
                        continue;
                if (snprintf(path, sizeof(path), "%s/%s/xprt_info", dir, de->d_name) >=
                            (int)sizeof(path) ||
                    read_attr(p, path, buf, sizeof(buf)) < 0 ||
                    attr_uint(buf, "dst_port", &port) < 0)
                        continue;
                if (snprintf(path, sizeof(path), "%s/%s/dstaddr", dir, de->d_name) >=
                            (int)sizeof(path) ||
                    read_attr(p, path, buf, sizeof(buf)) < 0)
                        continue;
                buf[strcspn(buf, "\n")] = '\0';
                if (nfs_addr_parse(buf, &sw->addr) < 0 || port > 65535)
                        continue;
                sw->port = (unsigned)port;
                snprintf(sw->transport, sizeof(sw->transport), "%s", t + 1);
                return 0;
        }
        return -ENOENT;
}

/* The sunrpc sysfs directory of transport switches, opened (*ret), its path in *ret_top. */
static int open_switches(const struct paths *p, char **ret_top, DIR **ret)
{
        if (asprintf(ret_top, "%s/kernel/sunrpc/xprt-switches", p->sysfs) < 0) {
                *ret_top = NULL;
                return -ENOMEM;
        }
        *ret = opendir(*ret_top);
        return *ret ? 0 : -errno;
}

int load_rpc_switches(const struct paths *p, struct rpc_switch **ret, size_t *ret_n)
{
        _cleanup_free_ char *top = NULL;
        _cleanup_free_ struct rpc_switch *v = NULL;
        char path[PATH_MAX], buf[256];
        unsigned long nx;
        size_t n = 0;

        _cleanup_(closedirp) DIR *d = NULL;
        int rs = open_switches(p, &top, &d);
        if (rs < 0)
                return rs;
        for (struct dirent *de; (de = readdir(d));) {
                struct rpc_switch sw = { 0 };
                if (strncmp(de->d_name, "switch-", 7) != 0)
                        continue;
                snprintf(path, sizeof(path), "%s/%s/xprt_switch_info", top, de->d_name);
                if (read_attr(p, path, buf, sizeof(buf)) < 0 ||
                    attr_uint(buf, "num_xprts", &nx) < 0)
                        continue;
                snprintf(path, sizeof(path), "%s/%s", top, de->d_name);
                if (read_destination(p, path, &sw) < 0)
                        continue;
                sw.nxprts = (unsigned)nx;
                if (array_grow(&v, n) < 0)
                        return -ENOMEM;
                v[n++] = sw;
        }
        *ret = steal_pointer(&v);
        *ret_n = n;
        return 0;
}

/* One transport directory of a switch: its server, local port and state; -ENOENT to skip. */
static int read_xprt_state(const struct paths *p, const char *dir, struct xprt_state *ret)
{
        char path[PATH_MAX], buf[1024];
        unsigned long port;
        int r;

        if (snprintf(path, sizeof(path), "%s/xprt_info", dir) >= (int)sizeof(path))
                return -ENOENT;
        if ((r = read_attr(p, path, buf, sizeof(buf))) < 0)
                return r;
        if (attr_uint(buf, "src_port", &port) < 0 || port > 65535)
                return -EOPNOTSUPP; /* a kernel that does not say: not known */
        ret->srcport = (unsigned)port;
        if (attr_uint(buf, "dst_port", &port) < 0 || port > 65535)
                return -ENOENT;
        ret->port = (unsigned)port;
        if (snprintf(path, sizeof(path), "%s/dstaddr", dir) >= (int)sizeof(path))
                return -ENOENT;
        if ((r = read_attr(p, path, buf, sizeof(buf))) < 0)
                return r;
        buf[strcspn(buf, "\n")] = '\0';
        if (nfs_addr_parse(buf, &ret->addr) < 0)
                return -ENOENT;
        if (snprintf(path, sizeof(path), "%s/xprt_state", dir) >= (int)sizeof(path))
                return -ENOENT;
        if ((r = read_attr(p, path, buf, sizeof(buf))) < 0)
                return r;
        ret->offline = strstr(buf, "OFFLINE") || strstr(buf, "REMOVE");
        return 0;
}

static int switch_xprt_states(const struct paths *p, const char *dir, unsigned id,
                              struct xprt_state **v, size_t *n)
{
        _cleanup_(closedirp) DIR *d = opendir(dir);
        char path[PATH_MAX];
        int r = 0;

        if (!d)
                return -errno;
        for (struct dirent *de; r == 0 && (de = readdir(d));) {
                struct xprt_state x = { .switch_id = id };
                if (strncmp(de->d_name, "xprt-", 5) != 0)
                        continue;
                if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path))
                        continue;
                if ((r = read_xprt_state(p, path, &x)) == -ENOENT) {
                        r = 0;
                        continue;
                }
                if (r == 0 && array_grow(v, *n) < 0)
                        return -ENOMEM;
                if (r == 0)
                        (*v)[(*n)++] = x;
        }
        return r;
}

int load_rpc_xprt_states(const struct paths *p, struct xprt_state **ret, size_t *ret_n)
{
        _cleanup_free_ char *top = NULL;
        _cleanup_free_ struct xprt_state *v = NULL;
        char path[PATH_MAX];
        size_t n = 0;
        int r = 0;

        _cleanup_(closedirp) DIR *d = NULL;
        int rs = open_switches(p, &top, &d);
        if (rs < 0)
                return rs;
        for (struct dirent *de; r == 0 && (de = readdir(d));) {
                if (strncmp(de->d_name, "switch-", 7) != 0)
                        continue;
                if (snprintf(path, sizeof(path), "%s/%s", top, de->d_name) >= (int)sizeof(path))
                        continue;
                r = switch_xprt_states(p, path, (unsigned)strtoul(de->d_name + 7, NULL, 10), &v,
                                       &n);
                if (r == -ENOENT)
                        r = 0; /* the switch went away meanwhile */
        }
        if (r < 0)
                return r;
        *ret = steal_pointer(&v);
        *ret_n = n;
        return 0;
}
