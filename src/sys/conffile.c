/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/conffile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shared/array.h"
#include "shared/macro.h"
#include "sys/chase.h"
#include "sys/fileio.h"
#include "sys/paths.h"

/* Problems a user's setuid run does not show: the file named only when they can list its
 * directory (a 0700 drop-in directory's names are the admin's). */
static int hidden_problems(struct config *c, const char *path, size_t n)
{
        const char *where = path && paths_caller_may_list_dir_of(path) ? path : NULL;

        return config_add_error(c,
                                "%s%s%zu problem%s in %s you cannot read; not shown (root sees "
                                "them with --check-config)",
                                where ? where : "", where ? ": " : "", n, n == 1 ? "" : "s",
                                where ? "a file" : "files");
}

/* A problem of one file, said with its name unless the caller cannot list its directory. */
__attribute__((format(printf, 3, 4))) static int file_problem(struct config *c, const char *path,
                                                              const char *fmt, ...)
{
        _cleanup_free_ char *what = NULL;
        va_list ap;

        if (!paths_caller_may_list_dir_of(path))
                return hidden_problems(c, NULL, 1);
        va_start(ap, fmt);
        int r = vasprintf(&what, fmt, ap);
        va_end(ap);
        return r < 0 ? -ENOMEM : config_add_error(c, "%s: %s", path, what);
}

/* Parses a file's text; on a user's setuid run, the problems of a file that user cannot read
 * are one line without its lines: they quote what the admin kept from them. */
static int parse_for_caller(struct config *c, const char *path, const char *text)
{
        size_t keep = c->nerrors, keep_more = c->nerrors_more;
        int r = config_parse(c, path, text);

        if (r < 0 || paths_caller_may_read(path))
                return r;
        size_t hidden = c->nerrors - keep + c->nerrors_more - keep_more;
        config_drop_errors(c, keep, keep_more);
        return hidden ? hidden_problems(c, path, hidden) : 0;
}

/*
 * Opens a file or directory of the configuration: as root, along a path of root's only.
 * `name` is `path`, or its last component relative to `dirfd`, a drop-in directory already
 * reached that way (its files are not walked to from / again, one by one).
 */
static int open_config_path(int dirfd, const char *name, const char *path, bool check_owner,
                            int flags, struct config *c)
{
        struct chase_refusal why;
        char desc[PATH_MAX + 256];
        int fd = chase_at(dirfd, -1, name, check_owner ? CHASE_TRUSTED : 0, flags, &why);

        if (fd != -EPERM || !why.where[0])
                return fd;
        chase_describe(&why, desc, sizeof(desc));
        return file_problem(c, path,
                            "not used: %s; root reads its configuration only along "
                            "directories and links of root's",
                            desc) < 0
                       ? -ENOMEM
                       : -EPERM;
}

static int load_one(int dirfd, const char *name, const char *path, bool check_owner,
                    struct config *c)
{
        _cleanup_free_ char *text = NULL;
        /* O_NONBLOCK: a FIFO put in place of the file must not hang every mount */
        _cleanup_(closep) int fd = open_config_path(dirfd, name, path, check_owner,
                                                    O_RDONLY | O_NOCTTY | O_NONBLOCK, c);
        size_t len = 0;
        int r = fd < 0 ? fd : read_fd(fd, CONFIG_FILE_MAX, check_owner, &text, &len);

        if (r == -ENOENT || (fd == -EPERM && r == -EPERM))
                return 0;
        if (r == -ENOMEM)
                return r;
        if (r == -EPERM)
                return file_problem(c, path,
                                    "not used: not owned by root or writable by group or others; "
                                    "fix with chown root:root and chmod 644");
        if (r == -EINVAL)
                return file_problem(c, path, "not used: not a regular file");
        if (r == -EFBIG)
                return file_problem(c, path, "not used: larger than %d bytes", CONFIG_FILE_MAX);
        if (r < 0) {
                c->nunread++;
                return file_problem(c, path, "cannot be read: %s", strerror(-r));
        }
        if (memchr(text, '\0', len))
                return file_problem(c, path, "not used: contains a NUL byte (not a text file)");
        if (config_add_source(c, "%s", path) < 0)
                return -ENOMEM;
        return parse_for_caller(c, path, text);
}

static int cmp_str(const void *a, const void *b)
{
        return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_dropin(const char *name)
{
        size_t len = strlen(name);
        return name[0] != '.' && len >= 6 && streq(name + len - 5, ".conf");
}

/* The drop-in names of an open directory, sorted. */
static int list_dropins(DIR *d, char ***ret, size_t *ret_n)
{
        char **names = NULL;
        size_t n = 0;
        struct dirent *de;

        while ((de = readdir(d))) {
                if (!is_dropin(de->d_name))
                        continue;
                if (array_grow(&names, n) < 0 || !(names[n] = strdup(de->d_name))) {
                        strv_free(names, n);
                        return -ENOMEM;
                }
                n++;
        }
        if (n)
                qsort(names, n, sizeof(*names), cmp_str);
        *ret = names;
        *ret_n = n;
        return 0;
}

/* A drop-in directory's names, sorted, capped; none when it is missing or not trusted. */
struct dropins {
        const char *dir;
        int fd; /* the directory, its files opened from it; -1: none */
        char **names;
        size_t n;
};

static int read_dropins(const char *dir, bool check_owner, struct config *c, struct dropins *ret)
{
        int fd = open_config_path(AT_FDCWD, dir, dir, check_owner, O_RDONLY | O_DIRECTORY, c);
        DIR *d = fd < 0 ? NULL : fdopendir(fd);
        struct stat st;
        int r;

        *ret = (struct dropins){ .dir = dir, .fd = -1 };
        if (fd == -ENOMEM)
                return fd;
        if (!d) {
                int e = fd < 0 ? -fd : errno;
                if (fd >= 0)
                        close(fd);
                if (e != ENOENT && e != ENOTDIR && e != EPERM) {
                        c->nunread++;
                        return config_add_error(c, "%s: cannot be read: %s", dir, strerror(e));
                }
                return 0;
        }
        if (check_owner && fstat(dirfd(d), &st) == 0 &&
            (st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH)))) {
                closedir(d);
                /* whoever may write the directory may add a file to it */
                return config_add_error(c,
                                        "%s: not used: not owned by root or writable by group "
                                        "or others; fix with chown root:root and chmod 755",
                                        dir);
        }
        r = list_dropins(d, &ret->names, &ret->n);
        if (r == 0 && ret->n && (ret->fd = fcntl(dirfd(d), F_DUPFD_CLOEXEC, 3)) < 0)
                r = -errno;
        closedir(d);
        if (r < 0)
                return r;
        if (ret->n > CONFIG_DROPINS_MAX) {
                r = config_add_error(c,
                                     "%s: more than %d files; only the first %d (sorted) are "
                                     "used",
                                     dir, CONFIG_DROPINS_MAX, CONFIG_DROPINS_MAX);
                while (ret->n > CONFIG_DROPINS_MAX)
                        free(ret->names[--ret->n]);
        }
        return r;
}

static bool dropins_have(const struct dropins *d, const char *name)
{
        /* no names, no array: bsearch() wants one */
        return d->n && bsearch(&name, d->names, d->n, sizeof(*d->names), cmp_str) != NULL;
}

/* A file of the admin's that masks the vendor's: a link to /dev/null (systemd's convention). */
static bool is_mask(int dirfd, const char *name)
{
        char target[16];
        ssize_t n = readlinkat(dirfd, name, target, sizeof(target) - 1);
        return n == 9 && memcmp(target, "/dev/null", 9) == 0;
}

static int load_dropin(const struct dropins *d, size_t i, bool check_owner, struct config *c)
{
        _cleanup_free_ char *f = NULL;
        if (asprintf(&f, "%s/%s", d->dir, d->names[i]) < 0)
                return -ENOMEM;
        return is_mask(d->fd, d->names[i]) ? 0 : load_one(d->fd, d->names[i], f, check_owner, c);
}

int load_config(const char *vendor_dir, const char *path, bool check_owner, struct config *c)
{
        _cleanup_free_ char *dir = NULL;
        struct dropins vendor = { .fd = -1 }, admin = { .fd = -1 };
        int r;

        if (asprintf(&dir, "%s.d", path) < 0)
                return -ENOMEM;
        if ((r = read_dropins(vendor_dir, check_owner, c, &vendor)) < 0 ||
            (r = read_dropins(dir, check_owner, c, &admin)) < 0)
                goto out;
        /* the vendor's and the image's defaults, less those the admin's same-named files mask */
        for (size_t i = 0; i < vendor.n && r >= 0; i++) {
                if (dropins_have(&admin, vendor.names[i]))
                        r = config_add_source(c, "%s/%s" MASKED_BY "%s/%s", vendor_dir,
                                              vendor.names[i], dir, vendor.names[i]);
                else
                        r = load_dropin(&vendor, i, check_owner, c);
        }
        /* then the admin's: later files win, key by key */
        if (r >= 0)
                r = load_one(AT_FDCWD, path, path, check_owner, c);
        for (size_t i = 0; i < admin.n && r >= 0; i++)
                r = load_dropin(&admin, i, check_owner, c);
        if (r >= 0)
                r = config_check_profiles(c, paths_caller_may_read);
        if (r > 0)
                r = hidden_problems(c, NULL, (size_t)r);
out:
        strv_free(vendor.names, vendor.n);
        strv_free(admin.names, admin.n);
        if (vendor.fd >= 0)
                close(vendor.fd);
        if (admin.fd >= 0)
                close(admin.fd);
        return r;
}
