/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `nfs-tuned status`, the host (core/hostcheck.c): fstab entries that will fight over one NFS
 * client at boot, udev rules and nfsmount.conf that defeat the helper's settings.
 */
#include <errno.h>

#include "core/addr.h"
#include "core/config.h"
#include "core/hostcheck.h"
#include "core/status.h"
#include "shared/macro.h"
#include "unit.h"

#define MAXE 3

/* "code target" joined by ';' (an empty target: the host). */
static char *render_findings(const struct status_report *rep)
{
        char *s = strdup("");
        for (size_t i = 0; i < rep->nfindings; i++) {
                ck_assert_int_eq(rep->findings[i].sev, SEV_WARNING);
                sbuf_add(&s, "%s%s %s", i ? ";" : "", rep->findings[i].code,
                         rep->findings[i].target ? rep->findings[i].target : "");
        }
        return s;
}

static bool some_text_has(const struct status_report *rep, const char *want)
{
        for (size_t i = 0; i < rep->nfindings; i++)
                if (strstr(rep->findings[i].text, want))
                        return true;
        return false;
}

/* ---- fstab ---- */

struct entry_row {
        const char *spec, *target, *fstype, *options;
        const char *addr; /* NULL: unresolved */
};

/* clang-format off */
static const struct {
        const char *name;
        const char *conf;
        struct entry_row e[MAXE];
        const char *findings;
        const char *text; /* a substring of some finding's text; NULL: none checked */
} fstab_rows[] = {
        /* 0 */
        { "one client, nconnect 4 and 8: the first auto entry wins", "",
          { { "srv:/a", "/a", "nfs4", "vers=4.2,nconnect=4", "10.0.0.1" },
            { "srv:/b", "/b", "nfs4", "vers=4.2,nconnect=8", "10.0.0.1" } },
          "fstab-nconnect-conflict /b",
          "fstab: /b (entry 2, nconnect=8) and /a (entry 1, nconnect=4) will share one NFS client "
          "(10.0.0.1 port 2049, tcp, NFSv4.2): the first to mount sets nconnect for both; `mount "
          "-a` mounts in fstab order, so /a wins and /b gets 4" },
        { "a noauto first entry: the auto one wins", "",
          { { "srv:/a", "/a", "nfs4", "vers=4.2,nconnect=4,noauto", "10.0.0.1" },
            { "srv:/b", "/b", "nfs4", "vers=4.2,nconnect=8", "10.0.0.1" } },
          "fstab-nconnect-conflict /a", "so /b wins and /a gets 8" },
        { "every entry noauto: the first wins", "",
          { { "srv:/a", "/a", "nfs4", "vers=4.2,nconnect=4,noauto", "10.0.0.1" },
            { "srv:/b", "/b", "nfs4", "vers=4.2,nconnect=8,noauto", "10.0.0.1" } },
          "fstab-nconnect-conflict /b", "so /a wins" },
        { "different versions: two clients", "",
          { { "srv:/a", "/a", "nfs", "vers=3,nconnect=4", "10.0.0.1" },
            { "srv:/b", "/b", "nfs4", "vers=4.2,nconnect=8", "10.0.0.1" },
            { "srv:/c", "/c", "nfs4", "vers=4.1,nconnect=2", "10.0.0.1" } },
          "", NULL },
        { "different ports: two clients", "",
          { { "srv:/a", "/a", "nfs4", "vers=4.2,nconnect=4", "10.0.0.1" },
            { "srv:/b", "/b", "nfs4", "vers=4.2,port=2050,nconnect=8", "10.0.0.1" } },
          "", NULL },
        /* 5 */
        { "different addresses: two clients", "",
          { { "srv:/a", "/a", "nfs4", "vers=4.2,nconnect=4", "10.0.0.1" },
            { "srv2:/b", "/b", "nfs4", "vers=4.2,nconnect=8", "10.0.0.2" } },
          "", NULL },
        { "an entry not asking nconnect takes what it gets", "",
          { { "srv:/a", "/a", "nfs4", "vers=4.2,nconnect=4", "10.0.0.1" },
            { "srv:/b", "/b", "nfs4", "vers=4.2", "10.0.0.1" } },
          "", NULL },
        { "a later entry asking 8 against a first one that asks nothing", "",
          { { "srv:/a", "/a", "nfs4", "vers=4.2", "10.0.0.1" },
            { "srv:/b", "/b", "nfs4", "vers=4.2,nconnect=8", "10.0.0.1" } },
          "fstab-nconnect-conflict /b", "so /a wins and /b gets 1" },
        { "same nconnect: nothing", "",
          { { "srv:/a", "/a", "nfs4", "vers=4.2,nconnect=4", "10.0.0.1" },
            { "srv:/b", "/b", "nfs4", "vers=4.2,nconnect=4", "10.0.0.1" } },
          "", NULL },
        { "the config's nconnect counts as asked", "[global]\nnconnect = 8\n",
          { { "srv:/a", "/a", "nfs4", "vers=4.2,nconnect=4", "10.0.0.1" },
            { "srv:/b", "/b", "nfs4", "vers=4.2", "10.0.0.1" } },
          "fstab-nconnect-conflict /b", "/b (entry 2, nconnect=8)" },
        /* 10 */
        { "nconnect_policy=refuse: the loser fails", "[global]\nnconnect_policy = refuse\n",
          { { "srv:/a", "/a", "nfs4", "vers=4.2,nconnect=4", "10.0.0.1" },
            { "srv:/b", "/b", "nfs4", "vers=4.2,nconnect=8", "10.0.0.1" } },
          "fstab-nconnect-conflict /b", "the one that loses fails to mount" },
        { "a krb5 entry beside an nconnect=8 one", "",
          { { "srv:/a", "/a", "nfs4", "vers=4.2,nconnect=8", "10.0.0.1" },
            { "srv:/b", "/b", "nfs4", "vers=4.2,sec=krb5p", "10.0.0.1" } },
          "fstab-krb5-nconnect /b",
          "fstab: /b (entry 2, sec=krb5p) will share one NFS client with /a (entry 1, "
          "nconnect=8): when that one mounts first, /b runs krb5 over 8 connections" },
        { "one krb5 entry with nconnect=4", "",
          { { "srv:/a", "/a", "nfs4", "vers=4.2,sec=krb5,nconnect=4", "10.0.0.1" } },
          "fstab-krb5-nconnect /a",
          "fstab: /a (entry 1) asks for sec=krb5 with nconnect=4" },
        { "krb5 entries with one connection each", "",
          { { "srv:/a", "/a", "nfs4", "vers=4.2,sec=krb5", "10.0.0.1" },
            { "srv:/b", "/b", "nfs4", "vers=4.2,sec=krb5i,nconnect=1", "10.0.0.1" } },
          "", NULL },
        { "krb5 on another client than the nconnect=8 one", "",
          { { "srv:/a", "/a", "nfs4", "vers=4.2,nconnect=8", "10.0.0.1" },
            { "srv:/b", "/b", "nfs4", "vers=4.1,sec=krb5p", "10.0.0.1" } },
          "", NULL },
        /* 15 */
        { "unresolved entries grouped by name", "",
          { { "filer:/a", "/a", "nfs4", "vers=4.2,nconnect=4", NULL },
            { "filer:/b", "/b", "nfs4", "vers=4.2,nconnect=8", NULL },
            { "other:/c", "/c", "nfs4", "vers=4.2,nconnect=2", NULL } },
          "fstab-nconnect-conflict /b", "(filer port 2049, tcp, NFSv4.2)" },
        { "no version: the one mount.nfs tries first, 4.2", "",
          { { "srv:/a", "/a", "nfs", "nconnect=4", "10.0.0.1" },
            { "srv:/b", "/b", "nfs4", "vers=4.2,nconnect=8", "10.0.0.1" } },
          "fstab-nconnect-conflict /b", NULL },
        { "an entry whose spec does not parse is left out", "",
          { { "nocolon", "/a", "nfs4", "vers=4.2,nconnect=4", "10.0.0.1" },
            { "srv:/b", "/b", "nfs4", "vers=4.2,nconnect=8", "10.0.0.1" } },
          "", NULL },
        { "three entries: each loser is named", "",
          { { "srv:/a", "/a", "nfs4", "vers=4.2,nconnect=4", "10.0.0.1" },
            { "srv:/b", "/b", "nfs4", "vers=4.2,nconnect=8", "10.0.0.1" },
            { "srv:/c", "/c", "nfs4", "vers=4.2,nconnect=2", "10.0.0.1" } },
          "fstab-nconnect-conflict /b;fstab-nconnect-conflict /c", NULL },
};
/* clang-format on */

START_TEST(test_fstab)
{
        struct config conf = { 0 };
        struct nfs_addr addrs[MAXE];
        struct fstab_nfs v[MAXE];
        struct status_report rep = { 0 };
        size_t n = 0;

        ck_assert_int_eq(config_parse(&conf, "/etc/nfs-tuned.conf", fstab_rows[_i].conf), 0);
        ck_assert_uint_eq(conf.nerrors, 0);
        for (; n < MAXE && fstab_rows[_i].e[n].spec; n++) {
                const struct entry_row *e = &fstab_rows[_i].e[n];
                v[n] = (struct fstab_nfs){ e->spec,    e->target,       e->fstype,
                                           e->options, (unsigned)n + 1, NULL };
                if (e->addr) {
                        ck_assert_int_eq(nfs_addr_parse(e->addr, &addrs[n]), 0);
                        v[n].addr = &addrs[n];
                }
        }
        ck_assert_int_eq(hostcheck_fstab(v, n, &conf, &rep), 0);
        char *got = render_findings(&rep);
        ck_assert_msg(streq(got, fstab_rows[_i].findings), "row %d (%s): findings\n%s\nwant\n%s",
                      _i, fstab_rows[_i].name, got, fstab_rows[_i].findings);
        free(got);
        ck_assert_msg(!fstab_rows[_i].text || some_text_has(&rep, fstab_rows[_i].text),
                      "row %d (%s): no finding says '%s'", _i, fstab_rows[_i].name,
                      fstab_rows[_i].text);
        status_report_done(&rep);
        config_done(&conf);
}
END_TEST

START_TEST(test_fstab_empty)
{
        struct config conf = { 0 };
        struct status_report rep = { 0 };

        ck_assert_int_eq(hostcheck_fstab(NULL, 0, &conf, &rep), 0);
        ck_assert_uint_eq(rep.nfindings, 0);
}
END_TEST

/* ---- udev ---- */

#define ETC "/etc/udev/rules.d/"
#define LIB "/usr/lib/udev/rules.d/"

struct rule_row {
        const char *name, *path, *shadowed;
        bool masked, writes_read_ahead;
};

/* clang-format off */
static const struct {
        const char *name;
        struct rule_row f[MAXE];
        const char *findings;
        const char *text;
        enum udev_rule_state state; /* of nfs-tuned's rule: is it udev's last word? */
        const char *state_path;
} udev_rows[] = {
        { "nothing in the way",
          { { NFS_UTILS_UDEV_RULE, LIB NFS_UTILS_UDEV_RULE, NULL, false, true },
            { NFS_TUNED_UDEV_RULE, LIB NFS_TUNED_UDEV_RULE, NULL, false, true } },
          "", NULL, UDEV_RULE_LAST, LIB NFS_TUNED_UDEV_RULE },
        { "ours masked",
          { { NFS_TUNED_UDEV_RULE, ETC NFS_TUNED_UDEV_RULE, LIB NFS_TUNED_UDEV_RULE, true,
              false } },
          "udev-rule-shadowed ",
          ETC NFS_TUNED_UDEV_RULE " masks nfs-tuned's rule " LIB NFS_TUNED_UDEV_RULE,
          UDEV_RULE_MASKED, ETC NFS_TUNED_UDEV_RULE },
        { "ours replaced by a copy",
          { { NFS_TUNED_UDEV_RULE, ETC NFS_TUNED_UDEV_RULE, LIB NFS_TUNED_UDEV_RULE, false,
              true } },
          "udev-rule-shadowed ", "which package updates no longer reach", UDEV_RULE_REPLACED,
          ETC NFS_TUNED_UDEV_RULE },
        { "99-nfs.rules shadowed",
          { { NFS_UTILS_UDEV_RULE, ETC NFS_UTILS_UDEV_RULE, LIB NFS_UTILS_UDEV_RULE, false,
              true } },
          "udev-rule-shadowed ",
          ETC NFS_UTILS_UDEV_RULE " shadows nfs-utils' " LIB NFS_UTILS_UDEV_RULE,
          UDEV_RULE_ABSENT, NULL },
        { "99-nfs.rules masked",
          { { NFS_UTILS_UDEV_RULE, ETC NFS_UTILS_UDEV_RULE, LIB NFS_UTILS_UDEV_RULE, true,
              false } },
          "", NULL, UDEV_RULE_ABSENT, NULL },
        /* 5 */
        { "a writer that sorts after ours",
          { { NFS_TUNED_UDEV_RULE, LIB NFS_TUNED_UDEV_RULE, NULL, false, true },
            { "99-zzz-tune.rules", ETC "99-zzz-tune.rules", NULL, false, true } },
          "udev-rule-overrides ", ETC "99-zzz-tune.rules writes read_ahead_kb and sorts after",
          UDEV_RULE_OVERWRITTEN, ETC "99-zzz-tune.rules" },
        { "a writer that sorts before ours",
          { { "60-tune.rules", ETC "60-tune.rules", NULL, false, true },
            { "99-zz-nfs-tune.rules", ETC "99-zz-nfs-tune.rules", NULL, false, true } },
          "", NULL, UDEV_RULE_ABSENT, NULL },
        { "later rules that do not write read-ahead, or are masked",
          { { "99-zzz-a.rules", ETC "99-zzz-a.rules", NULL, false, false },
            { "99-zzz-b.rules", ETC "99-zzz-b.rules", LIB "99-zzz-b.rules", true, true } },
          "", NULL, UDEV_RULE_ABSENT, NULL },
        { "every finding in file order",
          { { NFS_UTILS_UDEV_RULE, ETC NFS_UTILS_UDEV_RULE, LIB NFS_UTILS_UDEV_RULE, false,
              true },
            { NFS_TUNED_UDEV_RULE, ETC NFS_TUNED_UDEV_RULE, LIB NFS_TUNED_UDEV_RULE, true,
              false },
            { "zz.rules", ETC "zz.rules", NULL, false, true } },
          "udev-rule-shadowed ;udev-rule-shadowed ;udev-rule-overrides ", NULL, UDEV_RULE_MASKED,
          ETC NFS_TUNED_UDEV_RULE },
        /* whether the helper may leave the last word to the rule (and not wait for udev) */
        { "ours, then later rules that write nothing or are masked",
          { { NFS_TUNED_UDEV_RULE, LIB NFS_TUNED_UDEV_RULE, NULL, false, true },
            { "99-zzz-a.rules", ETC "99-zzz-a.rules", NULL, false, false },
            { "99-zzz-b.rules", ETC "99-zzz-b.rules", LIB "99-zzz-b.rules", true, true } },
          "", NULL, UDEV_RULE_LAST, LIB NFS_TUNED_UDEV_RULE },
        /* 10 */
        { "ours only in /etc (installed there), no other copy",
          { { NFS_TUNED_UDEV_RULE, ETC NFS_TUNED_UDEV_RULE, NULL, false, true } },
          "", NULL, UDEV_RULE_LAST, ETC NFS_TUNED_UDEV_RULE },
        { "a file of our name that writes no read-ahead",
          { { NFS_TUNED_UDEV_RULE, LIB NFS_TUNED_UDEV_RULE, NULL, false, false } },
          "", NULL, UDEV_RULE_INERT, LIB NFS_TUNED_UDEV_RULE },
        { "no rule at all", { { NULL } }, "", NULL, UDEV_RULE_ABSENT, NULL },
};
/* clang-format on */

/* A user's mount: the entry with this mount point, spec and type; user or users in it. */
/* clang-format off */
static const struct fstab_nfs user_tab[] = {
        { .spec = "s:/a", .target = "/m", .fstype = "nfs", .options = "user,rsize=1" },
        { .spec = "s:/b", .target = "/m", .fstype = "nfs", .options = "noauto" },
        { .spec = "s:/a", .target = "/m", .fstype = "nfs4", .options = "users" },
        { .spec = "s:/c", .target = "/n", .fstype = "nfs-tuned", .options = "nouser,user" },
};
static const struct {
        const char *spec, *target;
        bool v4;
        int want;        /* index into user_tab, -1: none */
        bool allowed;
} user_rows[] = {
        { "s:/a", "/m", false, 0, true },       /* the mount point with this spec */
        { "s:/b", "/m", false, 1, false },      /* no user in it */
        { "s:/a", "/m", true, 2, true },        /* mount.nfs4: the nfs4 entry */
        { "s:/b", "/m", true, -1, false },      /* no nfs4 entry for that spec */
        { "s:/x", "/m", false, -1, false },     /* another spec */
        { "s:/a", "/other", false, -1, false }, /* another mount point */
        { "s:/c", "/n", false, 3, true },       /* the helper's own type; the last of nouser/user */
};
/* clang-format on */

START_TEST(test_fstab_user_entry)
{
        const struct fstab_nfs *e = fstab_user_entry(user_tab, ELEMS(user_tab), user_rows[_i].spec,
                                                     user_rows[_i].target, user_rows[_i].v4);

        if (user_rows[_i].want < 0) {
                ck_assert_ptr_null(e);
                return;
        }
        ck_assert_ptr_eq(e, &user_tab[user_rows[_i].want]);
        ck_assert_int_eq(fstab_allows_user(e->options), user_rows[_i].allowed);
}
END_TEST

START_TEST(test_fstab_allows_user)
{
        ck_assert(fstab_allows_user("rw,user"));
        ck_assert(fstab_allows_user("users,noauto"));
        ck_assert(!fstab_allows_user("user=alice"));
        ck_assert(!fstab_allows_user("usersx,\"user\""));
        ck_assert(!fstab_allows_user("user,nouser"));
        ck_assert(fstab_allows_user("user,nousers"));
        ck_assert(!fstab_allows_user(""));
}
END_TEST

START_TEST(test_udev)
{
        struct udev_rule_file v[MAXE];
        struct status_report rep = { 0 };
        size_t n = 0;

        for (; n < MAXE && udev_rows[_i].f[n].name; n++) {
                const struct rule_row *f = &udev_rows[_i].f[n];
                v[n] = (struct udev_rule_file){ f->name, f->path, f->shadowed, f->masked,
                                                f->writes_read_ahead };
        }
        ck_assert_int_eq(hostcheck_udev(v, n, &rep), 0);
        const char *path = "unset";
        enum udev_rule_state st = udev_rule_state(v, n, &path);
        ck_assert_msg(st == udev_rows[_i].state, "row %d (%s): nfs-tuned's rule %s", _i,
                      udev_rows[_i].name, udev_rule_state_to_string(st));
        ck_assert_msg(streq(S(path), S(udev_rows[_i].state_path)), "row %d (%s): path %s", _i,
                      udev_rows[_i].name, S(path));
        char *got = render_findings(&rep);
        ck_assert_msg(streq(got, udev_rows[_i].findings), "row %d (%s): findings\n%s\nwant\n%s", _i,
                      udev_rows[_i].name, got, udev_rows[_i].findings);
        free(got);
        ck_assert_msg(!udev_rows[_i].text || some_text_has(&rep, udev_rows[_i].text),
                      "row %d (%s): no finding says '%s'", _i, udev_rows[_i].name,
                      udev_rows[_i].text);
        status_report_done(&rep);
}
END_TEST

/* clang-format off */
static const struct {
        const char *text;
        bool writes;
} writes_rows[] = {
        { "ACTION==\"add\", SUBSYSTEM==\"bdi\", ATTR{read_ahead_kb}=\"1024\"\n", true },
        { "# ATTR{read_ahead_kb}=\"1024\"\nACTION==\"add\"\n", false },
        { "   \t# ATTR{read_ahead_kb}\n", false },
        { "# comment\nATTR{read_ahead_kb}=\"1024\"", true }, /* no final newline */
        { "SUBSYSTEM==\"bdi\", RUN+=\"/bin/sh -c 'echo 4096 > read_ahead_kb'\"\n", true },
        { "ACTION==\"add\" # read_ahead_kb\n", true }, /* udev has no trailing comments */
        { "ACTION==\"add\"\n\n", false },
        { "", false },
        { NULL, false },
};
/* clang-format on */

START_TEST(test_writes_read_ahead)
{
        ck_assert_msg(udev_rule_writes_read_ahead(writes_rows[_i].text) == writes_rows[_i].writes,
                      "row %d: '%s'", _i, S(writes_rows[_i].text));
}
END_TEST

/* ---- nfsmount.conf ---- */

/* clang-format off */
static const struct {
        const char *name, *text;
        const char *findings;
        const char *text_has;
} conf_rows[] = {
        { "a Server section with keys", "[ Server \"nas\" ]\nnconnect=4\nrsize=1048576\n",
          "nfsmount-conf-server ",
          "/etc/nfsmount.conf:1: [ Server \"nas\" ] sets nconnect=4, rsize=1048576: mount.nfs "
          "adds them after the helper decided" },
        { "a MountPoint section after comments", "# site\n\n[ MountPoint \"/mnt/x\" ]\nvers=4.2\n",
          "nfsmount-conf-server ",
          "/etc/nfsmount.conf:3: [ MountPoint \"/mnt/x\" ] sets vers=4.2" },
        { "global nconnect", "[ NFSMount_Global_Options ]\nhard=True\nnconnect=8\n",
          "nfsmount-conf-server ",
          "/etc/nfsmount.conf: [ NFSMount_Global_Options ] sets nconnect=8 for every NFS mount" },
        { "global hard=True only", "[ NFSMount_Global_Options ]\nhard=True\ntimeo=600\n", "",
          NULL },
        { "keys before any section are global", "Nfsvers=4.2\nretrans=2\n",
          "nfsmount-conf-server ", "sets Nfsvers=4.2 for every" },
        /* 5 */
        { "comments",
          "# [ Server \"x\" ]\n# nconnect=4\n[ Server \"y\" ]\n  # vers=3\n; sec=krb5\n", "",
          NULL },
        { "two sections, each with its line",
          "[ Server \"a\" ]\nproto=tcp\n[ Server \"b\" ]\n[ Server \"c\" ]\nport=2050\n",
          "nfsmount-conf-server ;nfsmount-conf-server ", "/etc/nfsmount.conf:4: [ Server \"c\" ]" },
        { "section names in any case", "[server \"n\"]\nsec=krb5\n", "nfsmount-conf-server ",
          "[ server \"n\" ] sets sec=krb5" },
        { "empty", "", "", NULL },
};
/* clang-format on */

START_TEST(test_nfsmount_conf)
{
        struct status_report rep = { 0 };

        ck_assert_int_eq(hostcheck_nfsmount_conf("/etc/nfsmount.conf", conf_rows[_i].text, &rep),
                         0);
        char *got = render_findings(&rep);
        ck_assert_msg(streq(got, conf_rows[_i].findings), "row %d (%s): findings\n%s\nwant\n%s", _i,
                      conf_rows[_i].name, got, conf_rows[_i].findings);
        free(got);
        ck_assert_msg(!conf_rows[_i].text_has || some_text_has(&rep, conf_rows[_i].text_has),
                      "row %d (%s): no finding says '%s'", _i, conf_rows[_i].name,
                      conf_rows[_i].text_has);
        status_report_done(&rep);
}
END_TEST

static Suite *make_suite(void)
{
        Suite *s = suite_create("hostcheck");
        TCase *tc = tcase_create("core");
        tcase_add_loop_test(tc, test_fstab, 0, ELEMS(fstab_rows));
        tcase_add_test(tc, test_fstab_empty);
        tcase_add_loop_test(tc, test_fstab_user_entry, 0, ELEMS(user_rows));
        tcase_add_test(tc, test_fstab_allows_user);
        tcase_add_loop_test(tc, test_udev, 0, ELEMS(udev_rows));
        tcase_add_loop_test(tc, test_writes_read_ahead, 0, ELEMS(writes_rows));
        tcase_add_loop_test(tc, test_nfsmount_conf, 0, ELEMS(conf_rows));
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(make_suite)
