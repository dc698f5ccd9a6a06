/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/fstab.h"

#include "core/opts.h"
#include "shared/macro.h"

const struct fstab_nfs *fstab_user_entry(const struct fstab_nfs *v, size_t n, const char *spec,
                                         const char *target, bool v4)
{
        for (size_t i = n; i-- > 0;) {
                const char *t = v[i].fstype;
                bool type_ok = v4 ? streq(t, "nfs4") : streq(t, "nfs") || streq(t, "nfs-tuned");
                if (type_ok && streq(v[i].target, target) && streq(v[i].spec, spec))
                        return &v[i];
        }
        return NULL;
}

bool fstab_allows_user(const char *options)
{
        struct optspan o;
        bool user = false, users = false;

        /* as libmount reads them: the last of user/nouser and of users/nousers counts (mount.nfs
         * alone ignores nouser; mount(8) refuses then); `user=NAME` is mount(8)'s note of who
         * mounted, not the admin's leave */
        for (const char *p = options; optstr_next(&p, &o) > 0;) {
                if (o.value)
                        continue;
                if (optspan_is(&o, "user") || optspan_is(&o, "nouser"))
                        user = optspan_is(&o, "user");
                else if (optspan_is(&o, "users") || optspan_is(&o, "nousers"))
                        users = optspan_is(&o, "users");
        }
        return user || users;
}

const char *fstab_target_options(const struct fstab_nfs *v, size_t n, const char *target)
{
        for (size_t i = n; i-- > 0;)
                if (streq(v[i].target, target))
                        return v[i].options;
        return NULL;
}
