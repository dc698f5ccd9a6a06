/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/udevrule.h"

#include <string.h>

#include "shared/macro.h"

bool udev_rule_writes_read_ahead(const char *text)
{
        for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
                size_t len = strcspn(p, "\n");
                const char *s = p + strspn(p, " \t");
                if (*s == '#')
                        continue;
                if (memmem(p, len, "read_ahead_kb", strlen("read_ahead_kb")))
                        return true;
        }
        return false;
}

/* Another rule file that udev runs after nfs-tuned's and that writes read_ahead_kb. */
bool udev_rule_writes_after_ours(const struct udev_rule_file *f)
{
        return !streq(f->name, NFS_UTILS_UDEV_RULE) && !streq(f->name, NFS_TUNED_UDEV_RULE) &&
               !f->masked && f->writes_read_ahead && strcmp(f->name, NFS_TUNED_UDEV_RULE) > 0;
}

enum udev_rule_state udev_rule_state(const struct udev_rule_file *v, size_t n,
                                     const char **ret_path)
{
        const struct udev_rule_file *ours = NULL;
        enum udev_rule_state st = UDEV_RULE_ABSENT;

        for (size_t i = 0; i < n && !ours; i++)
                if (streq(v[i].name, NFS_TUNED_UDEV_RULE))
                        ours = &v[i];
        if (ours && ours->masked)
                st = UDEV_RULE_MASKED;
        else if (ours && ours->shadowed)
                st = UDEV_RULE_REPLACED;
        else if (ours && !ours->writes_read_ahead)
                st = UDEV_RULE_INERT;
        else if (ours)
                st = UDEV_RULE_LAST;
        for (size_t i = 0; i < n && st == UDEV_RULE_LAST; i++)
                if (udev_rule_writes_after_ours(&v[i])) {
                        st = UDEV_RULE_OVERWRITTEN;
                        ours = &v[i];
                }
        if (ret_path)
                *ret_path = ours ? ours->path : NULL;
        return st;
}

const char *udev_rule_state_to_string(enum udev_rule_state s)
{
        static const char *const t[] = {
                [UDEV_RULE_LAST] = "writes the same value last in udev's event",
                [UDEV_RULE_ABSENT] = "is not installed",
                [UDEV_RULE_MASKED] = "is masked",
                [UDEV_RULE_REPLACED] = "is replaced by a file of its name",
                [UDEV_RULE_INERT] = "writes no read_ahead_kb",
                [UDEV_RULE_OVERWRITTEN] = "is followed by a rule that writes read_ahead_kb",
        };
        return t[s];
}
