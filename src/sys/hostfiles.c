/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "sys/hostfiles.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shared/array.h"
#include "shared/macro.h"
#include "sys/chase.h"
#include "sys/dl.h"
#include "sys/fileio.h"

/* Largest rule or nfsmount.conf file looked at. */
#define HOST_FILE_MAX (1024 * 1024)
/* Largest fstab read. */
#define FSTAB_FILE_MAX (16 * 1024 * 1024)

int read_errors_add(struct read_errors *e, const char *path, int error, unsigned line)
{
        if (array_grow(&e->v, e->n) < 0)
                return -ENOMEM;
        struct read_error x = { .path = strdup(path), .error = error, .line = line };
        if (!x.path)
                return -ENOMEM;
        e->v[e->n++] = x;
        return 0;
}

void read_errors_done(struct read_errors *e)
{
        for (size_t i = 0; i < e->n; i++)
                free(e->v[i].path);
        free(e->v);
        *e = (struct read_errors){ 0 };
}

/* A file that cannot be read is said; one that is not there has nothing to say.  0, -ENOMEM. */
static int unreadable(struct read_errors *errs, const char *path, int error)
{
        return error == -ENOENT || error >= 0 ? 0 : read_errors_add(errs, path, error, 0);
}

/*
 * libmount reads fstab as mount(8) does.  It is loaded when fstab is first read (a user's mount,
 * status), not linked: with libblkid, libselinux and libpcre2 it would cost every start of the
 * helper about a third of a millisecond (sys/dl.h).
 */
#define LIBMOUNT_FUNCTIONS(X)         \
        X(mnt_new_table)              \
        X(mnt_unref_table)            \
        X(mnt_new_iter)               \
        X(mnt_free_iter)              \
        X(mnt_table_set_userdata)     \
        X(mnt_table_get_userdata)     \
        X(mnt_table_set_parser_errcb) \
        X(mnt_table_parse_stream)     \
        X(mnt_table_next_fs)          \
        X(mnt_fs_get_fstype)          \
        X(mnt_fs_get_options)         \
        X(mnt_fs_get_source)          \
        X(mnt_fs_get_target)

struct libmount {
        void *handle;
        LIBMOUNT_FUNCTIONS(DL_FIELD)
};

/* Loaded once for the process, on first use. */
static struct libmount libmount;

static int libmount_open(struct libmount *l)
{
        DL_OPEN(l, LIBMOUNT_SONAME, LIBMOUNT_FUNCTIONS);
        return 0;
}

/* 0 or -ELIBACC. */
static int libmount_load(const struct libmount **ret)
{
        static int r = 1;

        if (r > 0)
                r = libmount_open(&libmount);
        *ret = &libmount;
        return r;
}

static int add_fstab_entry(const struct libmount *lm, struct libmnt_fs *fs, unsigned pos,
                           struct fstab_nfs **v, size_t *n)
{
        const char *type = lm->mnt_fs_get_fstype(fs), *o = lm->mnt_fs_get_options(fs);
        const char *spec = lm->mnt_fs_get_source(fs), *target = lm->mnt_fs_get_target(fs);

        /* nfs-tuned: the helper's own type, for hosts where it is not in front of mount.nfs */
        if (!type || (!streq(type, "nfs") && !streq(type, "nfs4") && !streq(type, "nfs-tuned")))
                return 0;
        if (array_grow(v, *n) < 0)
                return -ENOMEM;
        struct fstab_nfs e = {
                .spec = strdup(spec ? spec : ""),
                .target = strdup(target ? target : ""),
                .fstype = strdup(type),
                .options = strdup(o ? o : ""),
                .pos = pos,
        };
        (*v)[(*n)++] = e;
        return e.spec && e.target && e.fstype && e.options ? 0 : -ENOMEM;
}

/* A line of fstab libmount cannot parse: skipped (as mount -a does), and said. */
static int fstab_parse_error(struct libmnt_table *t, const char *file, int line)
{
        struct read_errors *errs = libmount.mnt_table_get_userdata(t);
        return read_errors_add(errs, file, -EINVAL, (unsigned)line) < 0 ? -ENOMEM : 1;
}

/* p->fstab opened plainly, or (trusted) as root must reach the admin's word (sys/chase.c). */
static int open_fstab(const struct paths *p, bool trusted)
{
        if (!trusted)
                return paths_open(p, p->fstab, O_RDONLY | O_CLOEXEC | O_NONBLOCK, 0);
        return chase_at(AT_FDCWD, p->rootfd, p->fstab, CHASE_TRUSTED, O_RDONLY | O_NONBLOCK, NULL);
}

/* fstab whole (a regular file, as libmount wants it) into `t`; what fails goes to `errs`. */
static int parse_fstab(const struct libmount *lm, const struct paths *p, bool trusted,
                       struct libmnt_table *t, struct read_errors *errs)
{
        _cleanup_free_ char *text = NULL;
        _cleanup_(closep) int fd = open_fstab(p, trusted);
        size_t len = 0;
        /* trusted: the file itself root's and written by no one else, as the config (-EPERM) */
        int r = fd < 0 ? fd : read_fd(fd, FSTAB_FILE_MAX, trusted, &text, &len);
        FILE *f;

        if (r < 0)
                return r == -ENOMEM ? r : unreadable(errs, p->fstab, r);
        if (!(f = fmemopen(text, len, "r")))
                return len ? -ENOMEM : 0;
        lm->mnt_table_set_userdata(t, errs);
        lm->mnt_table_set_parser_errcb(t, fstab_parse_error);
        r = lm->mnt_table_parse_stream(t, f, p->fstab);
        fclose(f);
        return r == -ENOMEM ? r : r < 0 ? read_errors_add(errs, p->fstab, r, 0) : 0;
}

int load_fstab_nfs(const struct paths *p, bool trusted, struct fstab_nfs **ret, size_t *ret_n,
                   struct read_errors *errs)
{
        const struct libmount *lm;
        struct libmnt_table *t = NULL;
        struct libmnt_iter *it = NULL;
        struct libmnt_fs *fs;
        unsigned pos = 0;
        int r;

        *ret = NULL;
        *ret_n = 0;
        /* no libmount: fstab cannot be read, and is as none (a user's mount then keeps none of
         * the helper's keys from its command line) */
        if (libmount_load(&lm) < 0)
                return read_errors_add(errs, p->fstab, -ELIBACC, 0);
        t = lm->mnt_new_table();
        it = lm->mnt_new_iter(MNT_ITER_FORWARD);
        r = it && t ? parse_fstab(lm, p, trusted, t, errs) : -ENOMEM;
        while (t && r == 0 && lm->mnt_table_next_fs(t, it, &fs) == 0)
                r = add_fstab_entry(lm, fs, ++pos, ret, ret_n);
        if (it)
                lm->mnt_free_iter(it);
        if (t)
                lm->mnt_unref_table(t);
        if (r < 0) {
                fstab_nfs_free(*ret, *ret_n);
                *ret = NULL;
                *ret_n = 0;
        }
        return r;
}

void fstab_nfs_free(struct fstab_nfs *v, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                free((char *)v[i].spec);
                free((char *)v[i].target);
                free((char *)v[i].fstype);
                free((char *)v[i].options);
        }
        free(v);
}

/* --- udev rules ------------------------------------------------------------------------ */

static int by_name(const void *a, const void *b)
{
        return strcmp(((const struct udev_rule_file *)a)->name,
                      ((const struct udev_rule_file *)b)->name);
}

/* The file's facts: a mask (empty, or a link to /dev/null) or its text's read_ahead_kb. */
static int look_at_rule(struct udev_rule_file *f, struct read_errors *errs)
{
        char target[PATH_MAX];
        struct stat st;
        ssize_t n = readlink(f->path, target, sizeof(target) - 1);

        if (n > 0) {
                target[n] = '\0';
                if (streq(target, "/dev/null")) {
                        f->masked = true;
                        return 0;
                }
        }
        _cleanup_(closep) int fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        _cleanup_free_ char *text = NULL;
        if (fd < 0 || fstat(fd, &st) < 0)
                return unreadable(errs, f->path, -errno);
        f->masked = S_ISREG(st.st_mode) && st.st_size == 0;
        int r = read_fd(fd, HOST_FILE_MAX, false, &text, NULL);
        if (r == 0)
                f->writes_read_ahead = udev_rule_writes_read_ahead(text);
        return r == -ENOMEM ? r : unreadable(errs, f->path, r);
}

static struct udev_rule_file *find_name(struct udev_rule_file *v, size_t n, const char *name)
{
        for (size_t i = 0; i < n; i++)
                if (streq(v[i].name, name))
                        return &v[i];
        return NULL;
}

static int scan_rules_dir(const char *dir, const char *from, struct udev_rule_file **v, size_t *n,
                          struct read_errors *errs)
{
        DIR *d = opendir(dir);
        struct dirent *de;
        int r = 0;

        if (!d)
                return unreadable(errs, dir, -errno);
        while (r == 0 && (de = readdir(d))) {
                size_t len = strlen(de->d_name);
                if (len < 7 || !streq(de->d_name + len - 6, ".rules") ||
                    (from && strcmp(de->d_name, from) < 0))
                        continue;
                char *path = NULL;
                if (asprintf(&path, "%s/%s", dir, de->d_name) < 0)
                        r = -ENOMEM;
                struct udev_rule_file *f = r ? NULL : find_name(*v, *n, de->d_name);
                if (f && !f->shadowed)
                        f->shadowed = path; /* the first directory's file hides this one */
                else if (f)
                        free(path);
                else if (r == 0 && array_grow(v, *n) == 0) {
                        (*v)[(*n)++] = (struct udev_rule_file){ .name = strdup(de->d_name),
                                                                .path = path };
                        r = (*v)[*n - 1].name ? 0 : -ENOMEM;
                } else if (r == 0) {
                        free(path);
                        r = -ENOMEM;
                }
        }
        closedir(d);
        return r;
}

/* A directory seen before under another name (/lib -> /usr/lib on a merged /usr), or none
 * there; one that cannot be looked at is said. */
static bool seen_dir(const char *dir, struct stat *seen, size_t *nseen, size_t max,
                     struct read_errors *errs, int *ret)
{
        struct stat st;

        if (stat(dir, &st) < 0) {
                *ret = unreadable(errs, dir, -errno);
                return true;
        }
        for (size_t i = 0; i < *nseen; i++)
                if (seen[i].st_dev == st.st_dev && seen[i].st_ino == st.st_ino)
                        return true;
        if (*nseen < max)
                seen[(*nseen)++] = st;
        return false;
}

int load_udev_rules(const struct paths *p, const char *from, struct udev_rule_file **ret,
                    size_t *ret_n, struct read_errors *errs)
{
        _cleanup_free_ char *dirs = strdup(p->udev_rules);
        struct stat seen[16];
        size_t nseen = 0;
        char *save = NULL;
        int r = dirs ? 0 : -ENOMEM;

        *ret = NULL;
        *ret_n = 0;
        for (char *d = dirs ? strtok_r(dirs, ":", &save) : NULL; d && r == 0;
             d = strtok_r(NULL, ":", &save))
                if (!seen_dir(d, seen, &nseen, ELEMENTSOF(seen), errs, &r) && r == 0)
                        r = scan_rules_dir(d, from, ret, ret_n, errs);
        if (r < 0) {
                udev_rules_free(*ret, *ret_n);
                *ret = NULL;
                *ret_n = 0;
                return r;
        }
        for (size_t i = 0; i < *ret_n && r == 0; i++)
                r = look_at_rule(&(*ret)[i], errs);
        if (r < 0) {
                udev_rules_free(*ret, *ret_n);
                *ret = NULL;
                *ret_n = 0;
                return r;
        }
        if (*ret_n)
                qsort(*ret, *ret_n, sizeof(**ret), by_name);
        return 0;
}

void udev_rules_free(struct udev_rule_file *v, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                free((char *)v[i].name);
                free((char *)v[i].path);
                free((char *)v[i].shadowed);
        }
        free(v);
}

/* --- nfsmount.conf ----------------------------------------------------------------------- */

static int add_text_file(const char *path, struct text_file **v, size_t *n,
                         struct read_errors *errs)
{
        _cleanup_(closep) int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        char *text = NULL;
        int r = fd < 0 ? -errno : read_fd(fd, HOST_FILE_MAX, false, &text, NULL);

        /* absent: mount.nfs reads nothing either; unreadable here, mount.nfs runs as root */
        if (r < 0)
                return r == -ENOMEM ? r : unreadable(errs, path, r);
        if (array_grow(v, *n) < 0 || !((*v)[*n].path = strdup(path))) {
                free(text);
                return -ENOMEM;
        }
        (*v)[(*n)++].text = text;
        return 0;
}

static int conf_name(const struct dirent *de)
{
        size_t len = strlen(de->d_name);
        return de->d_name[0] != '.' && len > 5 && streq(de->d_name + len - 5, ".conf");
}

int load_nfsmount_conf(const struct paths *p, struct text_file **ret, size_t *ret_n,
                       struct read_errors *errs)
{
        _cleanup_free_ char *dir = NULL;
        struct dirent **names = NULL;
        int r, k;

        *ret = NULL;
        *ret_n = 0;
        if ((r = add_text_file(p->nfsmount_conf, ret, ret_n, errs)) < 0 ||
            asprintf(&dir, "%s.d", p->nfsmount_conf) < 0)
                return r < 0 ? r : -ENOMEM;
        if ((k = scandir(dir, &names, conf_name, versionsort)) < 0 &&
            (r = unreadable(errs, dir, -errno)) < 0)
                return r;
        for (int i = 0; i < k; i++) {
                char *path = NULL;
                if (r == 0 && asprintf(&path, "%s/%s", dir, names[i]->d_name) < 0)
                        r = -ENOMEM;
                if (r == 0)
                        r = add_text_file(path, ret, ret_n, errs);
                free(path);
                free(names[i]);
        }
        free(names);
        return r;
}

void text_files_free(struct text_file *v, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                free(v[i].path);
                free(v[i].text);
        }
        free(v);
}
