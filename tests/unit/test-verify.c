/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <sys/sysmacros.h>

#include "core/nfsfs.h"
#include "core/verify.h"
#include "unit.h"

/*
 * The decision after mount.nfs: what nconnect the plan expected, which earlier client the new
 * mount joined, and what is said about the differences.
 */
/* clang-format off */
static const struct {
        const char *name;
        const char *before;  /* mountinfo super options of one earlier mount on /mnt/a, or NULL */
        const char *servers; /* /proc/fs/nfsfs/servers, or NULL */
        enum sharing sharing;
        unsigned requested, effective;
        const char *primary;
        const char *newm;    /* super options of the new mount */
        unsigned expect;
        bool joined, nconnect_differs, addr_differs;
        const char *warning; /* a substring of the one warning, or NULL for none */
} rows[] = {
        { "new client as planned", NULL, NULL, SHARE_NEW, 4, 4, "10.0.0.1",
          "vers=3,nconnect=4,addr=10.0.0.1", 4, false, false, false, NULL },
        { "nothing asked, one connection", NULL, NULL, SHARE_NEW, 0, 1, "10.0.0.1",
          "vers=3,addr=10.0.0.1", 1, false, false, false, NULL },
        { "shared as planned", "vers=3,nconnect=2,addr=10.0.0.1", NULL, SHARE_VISIBLE, 8, 2, "10.0.0.1",
          "vers=3,nconnect=2,addr=10.0.0.1", 2, true, false, false, NULL },
        { "a race: another mount made the client between scan and mount", NULL, NULL, SHARE_NEW, 8, 8,
          "10.0.0.1", "vers=3,nconnect=2,addr=10.0.0.1", 8, false, true, false,
          "the kernel gave /mnt/b nconnect=2, not the 8 planned: another mount of this server raced" },
        { "negotiated version landed on an existing client", "vers=4.2,nconnect=2,addr=10.0.0.1", NULL,
          SHARE_MAYBE, 8, 0, "10.0.0.1", "vers=4.2,nconnect=2,addr=10.0.0.1", 8, true, true, false,
          "not the 8 planned: it joined the existing client of /mnt/a (srv:/a); unmount those first" },
        { "a hidden client's nconnect is unknown: nothing expected", NULL, "v3 0a000001 801 1 x\n",
          SHARE_HIDDEN, 8, 0, "10.0.0.1", "vers=3,nconnect=4,addr=10.0.0.1", 0, false, false, false, NULL },
        { "trunking: merged into the client of another address", "vers=4.1,nconnect=2,addr=10.0.0.1", NULL,
          SHARE_NEW, 2, 2, "10.0.0.2", "vers=4.1,nconnect=2,addr=10.0.0.1", 2, true, false, true,
          "uses server address 10.0.0.1 for /mnt/b, not 10.0.0.2: NFSv4 trunking found the same server "
          "and merged the mount into the existing client of /mnt/a (srv:/a)" },
        { "another address, no client before", NULL, NULL, SHARE_NEW, 0, 1, "10.0.0.2",
          "vers=3,addr=10.0.0.1", 1, false, false, true, "the server was reached through another address" },
        { "unresolved: no address to compare", NULL, NULL, SHARE_NEW, 0, 1, NULL, "vers=3,addr=10.0.0.1", 1,
          false, false, false, NULL },
        { "a client of another network namespace is never joined", "vers=3,nconnect=2,addr=10.0.0.1", "",
          SHARE_NEW, 0, 1, "10.0.0.1", "vers=3,nconnect=2,addr=10.0.0.1", 1, false, true, false,
          "not the 1 planned: another mount of this server raced" },
};
/* clang-format on */

/* The clients before the mount: one earlier mount on /mnt/a with these super options, or none. */
static void clients_before(struct clients *c, const char *fstype, const char *opts)
{
        struct nfs_mount before;

        if (opts) {
                ck_assert_int_eq(nfs_mount_from_entry(fstype, opts, "/mnt/a", "srv:/a",
                                                      makedev(0, 40), &before),
                                 0);
                ck_assert_int_eq(clients_add_mount(c, &before), 0);
        }
        ck_assert_int_eq(clients_group(c), 0);
}

START_TEST(test_verify)
{
        struct clients c = { 0 };
        struct nfs_mount newm;
        struct nfs_addr primary;
        struct findings f = { 0 };

        clients_before(&c, "nfs", rows[_i].before);
        if (rows[_i].servers)
                ck_assert_int_ge(clients_add_nfsfs_servers(&c, rows[_i].servers, NULL, 0), 0);
        if (rows[_i].primary)
                ck_assert_int_eq(nfs_addr_parse(rows[_i].primary, &primary), 0);
        ck_assert_int_eq(nfs_mount_from_entry("nfs", rows[_i].newm, "/mnt/b", "srv:/b",
                                              makedev(0, 41), &newm),
                         0);
        struct verdict v = { .sharing = rows[_i].sharing,
                             .requested = rows[_i].requested,
                             .effective = rows[_i].effective };
        const struct nfs_addr *p = rows[_i].primary ? &primary : NULL;

        struct verify_result r = verify_mount(&newm, &v, p, &c, POLICY_REFUSE);
        ck_assert_msg(r.expect == rows[_i].expect, "row %d (%s): expect %u", _i, rows[_i].name,
                      r.expect);
        ck_assert_msg((r.joined != NULL) == rows[_i].joined, "row %d (%s): joined %p", _i,
                      rows[_i].name, (void *)r.joined);
        ck_assert_msg(r.nconnect_differs == rows[_i].nconnect_differs,
                      "row %d (%s): nconnect differs", _i, rows[_i].name);
        ck_assert_msg(r.addr_differs == rows[_i].addr_differs, "row %d (%s): addr differs", _i,
                      rows[_i].name);

        ck_assert_int_eq(verify_findings(&r, "/mnt/b", &newm, p, &c, &f), 0);
        ck_assert_uint_ge(f.n, 1);
        ck_assert_int_eq(f.v[0].sev, SEV_INFO);
        ck_assert_ptr_nonnull(strstr(f.v[0].text, "verified: /mnt/b is NFSv"));
        size_t warnings = 0;
        for (size_t i = 1; i < f.n; i++) {
                ck_assert_int_eq(f.v[i].sev, SEV_WARNING);
                warnings++;
                if (rows[_i].warning)
                        ck_assert_msg(strstr(f.v[i].text, rows[_i].warning),
                                      "row %d: warning\n%s\nlacks\n%s", _i, f.v[i].text,
                                      rows[_i].warning);
        }
        ck_assert_uint_eq(warnings, (size_t)rows[_i].nconnect_differs + rows[_i].addr_differs);
        findings_done(&f);
        nfs_mount_done(&newm);
        clients_done(&c);
}
END_TEST

/* A TLS mount whose mountinfo shows less than it asked: an error under refuse (unmount), a
 * warning under warn, naming the client it joined and what it lacks. */
/* clang-format off */
static const struct {
        const char *name;
        const char *before;  /* an earlier mount on /mnt/a, or NULL */
        const char *want;    /* xprtsec asked */
        const char *newm;
        enum policy pol;
        bool lacking, unmount;
        enum severity sev;
        const char *text;    /* a substring of the TLS finding */
} tls_rows[] = {
        { "folded into a plain client, refuse", "vers=4.1,addr=10.0.0.1", "tls", "vers=4.1,addr=10.0.0.1",
          POLICY_REFUSE, true, true, SEV_ERROR,
          "/mnt/b asked for xprtsec=tls but its mountinfo shows no xprtsec=: the kernel folded it into "
          "the existing NFS client of 10.0.0.1 (NFSv4.1), /mnt/a (srv:/a); lacking: encryption and "
          "integrity protection (its RPC traffic in plain text); its first requests already went that "
          "way; unmounting it (tls_policy = refuse)" },
        { "folded, warn: kept", "vers=4.2,addr=10.0.0.1", "tls", "vers=4.2,addr=10.0.0.1", POLICY_WARN, true,
          false, SEV_WARNING, "the mount stays (tls_policy = warn)" },
        { "mtls on a tls client", "vers=4.2,xprtsec=tls,addr=10.0.0.1", "mtls", "vers=4.2,xprtsec=tls,addr=10.0.0.1",
          POLICY_REFUSE, true, true, SEV_ERROR, "shows xprtsec=tls: the kernel folded it" },
        { "no client before: a race or an unexpected fold", NULL, "tls", "vers=4.2,addr=10.0.0.1", POLICY_REFUSE,
          true, true, SEV_ERROR, "which a mount made meanwhile (a race)" },
        { "got what it asked", NULL, "tls", "vers=4.2,xprtsec=tls,addr=10.0.0.1", POLICY_REFUSE, false, false,
          SEV_INFO, NULL },
        { "got more than it asked", "vers=4.2,xprtsec=mtls,addr=10.0.0.1", "tls",
          "vers=4.2,xprtsec=mtls,addr=10.0.0.1", POLICY_REFUSE, false, false, SEV_INFO, NULL },
};
/* clang-format on */

START_TEST(test_verify_tls)
{
        struct clients c = { 0 };
        struct nfs_mount newm;
        struct nfs_addr primary;
        struct findings f = { 0 };

        clients_before(&c, "nfs4", tls_rows[_i].before);
        ck_assert_int_eq(nfs_addr_parse("10.0.0.1", &primary), 0);
        ck_assert_int_eq(nfs_mount_from_entry("nfs4", tls_rows[_i].newm, "/mnt/b", "srv:/b",
                                              makedev(0, 41), &newm),
                         0);
        struct verdict v = { .sharing = SHARE_NEW,
                             .effective = 1,
                             .tls_want = tls_level_of(tls_rows[_i].want) };
        struct verify_result r = verify_mount(&newm, &v, &primary, &c, tls_rows[_i].pol);
        ck_assert_msg(r.tls_lacking == tls_rows[_i].lacking, "row %d (%s): lacking", _i,
                      tls_rows[_i].name);
        ck_assert_msg(r.unmount == tls_rows[_i].unmount, "row %d (%s): unmount", _i,
                      tls_rows[_i].name);
        ck_assert_int_eq(verify_findings(&r, "/mnt/b", &newm, &primary, &c, &f), 0);
        ck_assert_uint_eq(f.n, 1 + tls_rows[_i].lacking);
        if (tls_rows[_i].lacking) {
                ck_assert_int_eq(f.v[1].sev, tls_rows[_i].sev);
                ck_assert_msg(strstr(f.v[1].text, tls_rows[_i].text), "row %d: %s\nlacks\n%s", _i,
                              f.v[1].text, tls_rows[_i].text);
        }
        findings_done(&f);
        nfs_mount_done(&newm);
        clients_done(&c);
}
END_TEST

static Suite *verify_suite(void)
{
        Suite *s = suite_create("verify");
        TCase *tc = tcase_create("verify");
        tcase_add_loop_test(tc, test_verify, 0, ELEMS(rows));
        tcase_add_loop_test(tc, test_verify_tls, 0, ELEMS(tls_rows));
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(verify_suite)
