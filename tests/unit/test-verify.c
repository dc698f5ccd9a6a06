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

START_TEST(test_verify)
{
        struct clients c = { 0 };
        struct nfs_mount before, newm;
        struct nfs_addr primary;
        struct findings f = { 0 };

        if (rows[_i].before) {
                ck_assert_int_eq(nfs_mount_from_entry("nfs", rows[_i].before, "/mnt/a", "srv:/a",
                                                      makedev(0, 40), &before), 0);
                ck_assert_int_eq(clients_add_mount(&c, &before), 0);
        }
        ck_assert_int_eq(clients_group(&c), 0);
        if (rows[_i].servers)
                ck_assert_int_ge(clients_add_nfsfs_servers(&c, rows[_i].servers, NULL, 0), 0);
        if (rows[_i].primary)
                ck_assert_int_eq(nfs_addr_parse(rows[_i].primary, &primary), 0);
        ck_assert_int_eq(nfs_mount_from_entry("nfs", rows[_i].newm, "/mnt/b", "srv:/b", makedev(0, 41), &newm), 0);
        struct verdict v = { .sharing = rows[_i].sharing, .requested = rows[_i].requested,
                             .effective = rows[_i].effective };
        const struct nfs_addr *p = rows[_i].primary ? &primary : NULL;

        struct verify_result r = verify_mount(&newm, &v, p, &c);
        ck_assert_msg(r.expect == rows[_i].expect, "row %d (%s): expect %u", _i, rows[_i].name, r.expect);
        ck_assert_msg((r.joined != NULL) == rows[_i].joined, "row %d (%s): joined %p", _i, rows[_i].name,
                      (void *)r.joined);
        ck_assert_msg(r.nconnect_differs == rows[_i].nconnect_differs, "row %d (%s): nconnect differs", _i,
                      rows[_i].name);
        ck_assert_msg(r.addr_differs == rows[_i].addr_differs, "row %d (%s): addr differs", _i, rows[_i].name);

        ck_assert_int_eq(verify_findings(&r, "/mnt/b", &newm, p, &c, &f), 0);
        ck_assert_uint_ge(f.n, 1);
        ck_assert_int_eq(f.v[0].sev, SEV_INFO);
        ck_assert_ptr_nonnull(strstr(f.v[0].text, "verified: /mnt/b is NFSv"));
        size_t warnings = 0;
        for (size_t i = 1; i < f.n; i++) {
                ck_assert_int_eq(f.v[i].sev, SEV_WARNING);
                warnings++;
                if (rows[_i].warning)
                        ck_assert_msg(strstr(f.v[i].text, rows[_i].warning), "row %d: warning\n%s\nlacks\n%s",
                                      _i, f.v[i].text, rows[_i].warning);
        }
        ck_assert_uint_eq(warnings, (size_t)rows[_i].nconnect_differs + rows[_i].addr_differs);
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
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(verify_suite)
