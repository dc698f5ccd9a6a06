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
#include "sys/fileio.h"
#include "sys/mounttable.h"

/* Largest rule or nfsmount.conf file looked at. */
#define HOST_FILE_MAX (1024 * 1024)

int load_mountstats(const struct paths *p, struct mountstats *ret)
{
        _cleanup_(fclosep) FILE *f = NULL;
        _cleanup_free_ char *line = NULL;
        size_t size = 0;
        ssize_t n;
        int r = 0;

        _cleanup_(closep) int fd = paths_open(p, p->mountstats, O_RDONLY | O_CLOEXEC, 0);
        if (fd < 0 || !(f = fdopen(fd, "re")))
                return fd < 0 ? fd : -errno;
        fd = -1;
        while (r == 0 && (n = getline(&line, &size, f)) > 0) {
                if (line[n - 1] == '\n')
                        line[n - 1] = '\0';
                r = mountstats_feed(ret, line);
        }
        return r;
}

static int add_fstab_entry(struct libmnt_fs *fs, unsigned pos, struct fstab_nfs **v, size_t *n)
{
        const char *type = mnt_fs_get_fstype(fs), *o = mnt_fs_get_options(fs);

        /* nfs-tuned: the helper's own type, for hosts where it is not in front of mount.nfs */
        if (!type || (!streq(type, "nfs") && !streq(type, "nfs4") && !streq(type, "nfs-tuned")))
                return 0;
        if (array_grow(v, *n) < 0)
                return -ENOMEM;
        struct fstab_nfs e = {
                .spec = strdup(mnt_fs_get_source(fs) ? mnt_fs_get_source(fs) : ""),
                .target = strdup(mnt_fs_get_target(fs) ? mnt_fs_get_target(fs) : ""),
                .fstype = strdup(type),
                .options = strdup(o ? o : ""),
                .pos = pos,
        };
        (*v)[(*n)++] = e;
        return e.spec && e.target && e.fstype && e.options ? 0 : -ENOMEM;
}

int load_fstab_nfs(const struct paths *p, struct fstab_nfs **ret, size_t *ret_n)
{
        _cleanup_(mnt_unref_tablep) struct libmnt_table *t = mnt_new_table_from_file(p->fstab);
        struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
        struct libmnt_fs *fs;
        unsigned pos = 0;
        int r = it ? 0 : -ENOMEM;

        *ret = NULL;
        *ret_n = 0;
        while (t && r == 0 && mnt_table_next_fs(t, it, &fs) == 0)
                r = add_fstab_entry(fs, ++pos, ret, ret_n);
        mnt_free_iter(it);
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
static void look_at_rule(struct udev_rule_file *f)
{
        char target[PATH_MAX];
        struct stat st;
        ssize_t n = readlink(f->path, target, sizeof(target) - 1);

        if (n > 0) {
                target[n] = '\0';
                if (streq(target, "/dev/null")) {
                        f->masked = true;
                        return;
                }
        }
        _cleanup_(closep) int fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        _cleanup_free_ char *text = NULL;
        if (fd < 0 || fstat(fd, &st) < 0)
                return;
        f->masked = S_ISREG(st.st_mode) && st.st_size == 0;
        if (read_fd(fd, HOST_FILE_MAX, false, &text, NULL) == 0)
                f->writes_read_ahead = udev_rule_writes_read_ahead(text);
}

static struct udev_rule_file *find_name(struct udev_rule_file *v, size_t n, const char *name)
{
        for (size_t i = 0; i < n; i++)
                if (streq(v[i].name, name))
                        return &v[i];
        return NULL;
}

static int scan_rules_dir(const char *dir, const char *from, struct udev_rule_file **v,
                          size_t *n)
{
        DIR *d = opendir(dir);
        struct dirent *de;
        int r = 0;

        if (!d)
                return 0;
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

/* A directory seen before under another name (/lib -> /usr/lib on a merged /usr). */
static bool seen_dir(const char *dir, struct stat *seen, size_t *nseen, size_t max)
{
        struct stat st;

        if (stat(dir, &st) < 0)
                return true; /* nothing to read there */
        for (size_t i = 0; i < *nseen; i++)
                if (seen[i].st_dev == st.st_dev && seen[i].st_ino == st.st_ino)
                        return true;
        if (*nseen < max)
                seen[(*nseen)++] = st;
        return false;
}

int load_udev_rules(const struct paths *p, const char *from, struct udev_rule_file **ret,
                    size_t *ret_n)
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
                if (!seen_dir(d, seen, &nseen, ELEMENTSOF(seen)))
                        r = scan_rules_dir(d, from, ret, ret_n);
        if (r < 0) {
                udev_rules_free(*ret, *ret_n);
                *ret = NULL;
                *ret_n = 0;
                return r;
        }
        for (size_t i = 0; i < *ret_n; i++)
                look_at_rule(&(*ret)[i]);
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

static int add_text_file(const char *path, struct text_file **v, size_t *n)
{
        _cleanup_(closep) int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        char *text = NULL;

        if (fd < 0 || read_fd(fd, HOST_FILE_MAX, false, &text, NULL) < 0)
                return 0; /* absent or unreadable: mount.nfs reads nothing either */
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

int load_nfsmount_conf(const struct paths *p, struct text_file **ret, size_t *ret_n)
{
        _cleanup_free_ char *dir = NULL;
        struct dirent **names = NULL;
        int r, k;

        *ret = NULL;
        *ret_n = 0;
        if ((r = add_text_file(p->nfsmount_conf, ret, ret_n)) < 0 ||
            asprintf(&dir, "%s.d", p->nfsmount_conf) < 0)
                return r < 0 ? r : -ENOMEM;
        k = scandir(dir, &names, conf_name, versionsort);
        for (int i = 0; i < k; i++) {
                char *path = NULL;
                if (r == 0 && asprintf(&path, "%s/%s", dir, names[i]->d_name) < 0)
                        r = -ENOMEM;
                if (r == 0)
                        r = add_text_file(path, ret, ret_n);
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
