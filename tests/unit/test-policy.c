/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <sys/sysmacros.h>

#include "core/nfsfs.h"
#include "core/policy.h"
#include "core/verdict.h"
#include "unit.h"

struct entry {
        const char *opts, *target, *source; /* fstype nfs */
};

#define MAXM 3
#define MAXS 6

#define W POLICY_WARN
#define R POLICY_REFUSE
#define F POLICY_FOLLOW

/* clang-format off */
static const struct {
        const char *name;
        struct entry e[MAXM];
        const char *servers;
        const char *req;
        bool from_config;
        enum policy ncpol, krbpol;
        enum sharing sharing;
        unsigned requested, effective;
        enum action nconnect, krb5;
        const char *client;           /* verdict_describe_client() of v.client, or NULL */
        const char *ncmsg[MAXS];      /* substrings of the nconnect message; none: no message */
        const char *krbmsg[MAXS];     /* substrings of the krb5 message; none: no message */
} rows[] = {
        { "new client, nconnect asked",
          { { NULL } }, NULL, "vers=3,nconnect=4", false, W, W,
          SHARE_NEW, 4, 4, ACTION_NONE, ACTION_NONE, NULL, { NULL }, { NULL } },
        { "new client, nothing asked",
          { { NULL } }, NULL, "vers=3", false, R, R,
          SHARE_NEW, 0, 1, ACTION_NONE, ACTION_NONE, NULL, { NULL }, { NULL } },
        { "another server's client does not count",
          { { "vers=3,nconnect=2,addr=10.0.0.2", "/mnt/z", "other:/z" } }, NULL, "vers=3,nconnect=4", false, R, R,
          SHARE_NEW, 4, 4, ACTION_NONE, ACTION_NONE, NULL, { NULL }, { NULL } },
        { "shared, same nconnect",
          { { "vers=3,nconnect=4,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=3,nconnect=4", false, R, R,
          SHARE_VISIBLE, 4, 4, ACTION_NONE, ACTION_NONE, "10.0.0.1 port 2049, NFSv3 over tcp", { NULL }, { NULL } },
        { "shared, nothing asked",
          { { "vers=3,nconnect=4,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=3", false, R, W,
          SHARE_VISIBLE, 0, 4, ACTION_NONE, ACTION_NONE, "10.0.0.1 port 2049, NFSv3 over tcp", { NULL }, { NULL } },
        /* 5 */
        { "shared, other nconnect, warn",
          { { "vers=3,nconnect=4,addr=10.0.0.1", "/mnt/a", "srv:/a" },
            { "vers=3,nconnect=4,addr=10.0.0.1", "/mnt/b", "alias:/b" } },
          NULL, "vers=3,nconnect=8", false, W, W, SHARE_VISIBLE, 8, 4, ACTION_WARN, ACTION_NONE,
          "10.0.0.1 port 2049, NFSv3 over tcp",
          { "warning: nconnect=8 cannot take effect: this mount shares the NFS client for 10.0.0.1 port 2049, "
            "NFSv3 over tcp with /mnt/a (srv:/a), /mnt/b (alias:/b), which has 4 connections (nconnect=4); the "
            "kernel keeps one connection set per server address, port, protocol and version, and the first "
            "mount decides it; to get it, unmount every mount of that client first; to follow the existing "
            "value instead, set nconnect_policy = follow" },
          { NULL } },
        { "shared, other nconnect, refuse",
          { { "vers=4.1,nconnect=4,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=4.1,nconnect=2", false, R, W,
          SHARE_VISIBLE, 2, 4, ACTION_REFUSE, ACTION_NONE, "10.0.0.1 port 2049, NFSv4.1 over tcp",
          { "refusing to mount: nconnect=2 cannot take effect", "/mnt/a (srv:/a)", "4 connections (nconnect=4)",
            "unmount every mount of that client first, use the same nconnect, or set nconnect_policy to warn or "
            "follow" },
          { NULL } },
        { "shared, other nconnect, follow",
          { { "vers=4.2,nconnect=4,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=4.2,nconnect=16", false, F, W,
          SHARE_VISIBLE, 16, 4, ACTION_FOLLOW, ACTION_NONE, "10.0.0.1 port 2049, NFSv4.2 over tcp",
          { "following the existing client: nconnect=16 cannot take effect", "/mnt/a (srv:/a)",
            "nconnect dropped from the options (nconnect_policy = follow)" },
          { NULL } },
        { "shared, client without nconnect (1 connection)",
          { { "vers=3,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=3,nconnect=4", false, W, W,
          SHARE_VISIBLE, 4, 1, ACTION_WARN, ACTION_NONE, "10.0.0.1 port 2049, NFSv3 over tcp",
          { "warning: nconnect=4 cannot take effect", "which has 1 connection (nconnect=1);" }, { NULL } },
        { "shared, asking nconnect=1 of a client with 4",
          { { "vers=3,nconnect=4,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=3,nconnect=1", false, W, W,
          SHARE_VISIBLE, 1, 4, ACTION_WARN, ACTION_NONE, "10.0.0.1 port 2049, NFSv3 over tcp",
          { "warning: nconnect=1 cannot take effect" }, { NULL } },
        /* 10: a config default conflicts: followed quietly whatever the policy */
        { "config-only conflict under refuse",
          { { "vers=3,nconnect=4,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=3,nconnect=8", true, R, W,
          SHARE_VISIBLE, 8, 4, ACTION_FOLLOW_QUIET, ACTION_NONE, "10.0.0.1 port 2049, NFSv3 over tcp",
          { "following the existing client: nconnect=8 cannot take effect", "/mnt/a (srv:/a)",
            "the configured default nconnect is dropped from the options" },
          { NULL } },
        { "config-only conflict under warn",
          { { "vers=3,nconnect=4,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=3,nconnect=8", true, W, W,
          SHARE_VISIBLE, 8, 4, ACTION_FOLLOW_QUIET, ACTION_NONE, "10.0.0.1 port 2049, NFSv3 over tcp",
          { "the configured default nconnect is dropped" }, { NULL } },
        { "config default equal to the client's: nothing",
          { { "vers=3,nconnect=4,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=3,nconnect=4", true, R, W,
          SHARE_VISIBLE, 4, 4, ACTION_NONE, ACTION_NONE, "10.0.0.1 port 2049, NFSv3 over tcp", { NULL }, { NULL } },
        /* hidden clients (another mount namespace) */
        { "hidden v3 client, nconnect asked",
          { { NULL } }, "v3 0a000001 801 1 10.0.0.1\n", "vers=3,nconnect=4", false, W, W,
          SHARE_HIDDEN, 4, 0, ACTION_WARN, ACTION_NONE, "10.0.0.1 port 2049, NFSv3 over tcp",
          { "warning: nconnect=4 cannot take effect: this mount shares the NFS client for 10.0.0.1 port 2049, "
            "NFSv3 over tcp, which exists in this network namespace (/proc/fs/nfsfs) but no mount of this mount "
            "namespace shows it (a container or a service with its own mount namespace); its nconnect, set by "
            "the first mount, cannot be read and decides this one; to get it, unmount every mount of that "
            "client first; to follow the existing value instead, set nconnect_policy = follow" },
          { NULL } },
        { "hidden v4 client, refuse",
          { { NULL } }, "v4 0a000001 801 1 10.0.0.1\n", "vers=4.1,nconnect=4", false, R, W,
          SHARE_HIDDEN, 4, 0, ACTION_REFUSE, ACTION_NONE, "10.0.0.1 port 2049, NFSv4.x over tcp",
          { "refusing to mount: nconnect=4 cannot take effect", "(/proc/fs/nfsfs)",
            "(its NFSv4 minor version is not shown either, so it may be another minor version's client)" },
          { NULL } },
        /* 15 */
        { "hidden client, nothing asked",
          { { NULL } }, "v3 0a000001 801 1 10.0.0.1\n", "vers=3", false, R, R,
          SHARE_HIDDEN, 0, 0, ACTION_NONE, ACTION_NONE, "10.0.0.1 port 2049, NFSv3 over tcp", { NULL }, { NULL } },
        /* version negotiated: no prediction */
        { "maybe: version negotiated",
          { { "vers=3,nconnect=4,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "nconnect=8", false, R, R,
          SHARE_MAYBE, 8, 0, ACTION_NONE, ACTION_NONE, "10.0.0.1 port 2049, NFSv3 over tcp", { NULL }, { NULL } },
        { "maybe: v4 minor negotiated",
          { { "vers=4.2,nconnect=4,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=4,nconnect=8", false, R, R,
          SHARE_MAYBE, 8, 0, ACTION_NONE, ACTION_NONE, "10.0.0.1 port 2049, NFSv4.2 over tcp", { NULL }, { NULL } },
        /* krb5 */
        { "krb5, new client, nconnect=4 asked",
          { { NULL } }, NULL, "vers=4.1,sec=krb5,nconnect=4", false, W, W,
          SHARE_NEW, 4, 4, ACTION_NONE, ACTION_WARN, NULL, { NULL },
          { "warning: sec=krb5 on an NFS client with 4 connections (requested by this mount's nconnect): every "
            "connection of a client shares one GSS context and sequence window, so requests fall outside the "
            "window and are retransmitted after a context renegotiation; use nconnect=1 for a client that "
            "carries krb5 mounts, or set krb5_policy = refuse to prevent it" } },
        { "krb5, new client, nconnect=1",
          { { NULL } }, NULL, "vers=4.1,sec=krb5p,nconnect=1", false, W, R,
          SHARE_NEW, 1, 1, ACTION_NONE, ACTION_NONE, NULL, { NULL }, { NULL } },
        /* 20 */
        { "krb5, new client, no nconnect",
          { { NULL } }, NULL, "vers=4.1,sec=krb5i", false, W, R,
          SHARE_NEW, 0, 1, ACTION_NONE, ACTION_NONE, NULL, { NULL }, { NULL } },
        { "krb5 inherited from a shared sec=sys client",
          { { "vers=4.1,nconnect=4,sec=sys,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=4.1,sec=krb5p", false,
          W, W, SHARE_VISIBLE, 0, 4, ACTION_NONE, ACTION_WARN, "10.0.0.1 port 2049, NFSv4.1 over tcp", { NULL },
          { "warning: sec=krb5p on an NFS client with 4 connections (inherited from /mnt/a (srv:/a)): every "
            "connection",
            "or set krb5_policy = refuse to prevent it" } },
        { "krb5 refuse",
          { { "vers=4.1,nconnect=4,sec=sys,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=4.1,sec=krb5p", false,
          W, R, SHARE_VISIBLE, 0, 4, ACTION_NONE, ACTION_REFUSE, "10.0.0.1 port 2049, NFSv4.1 over tcp", { NULL },
          { "refusing to mount: sec=krb5p on an NFS client with 4 connections (inherited from /mnt/a (srv:/a))",
            "use nconnect=1 for a client that carries krb5 mounts" } },
        { "krb5 refuse on a new client",
          { { NULL } }, NULL, "vers=3,sec=krb5,nconnect=2", false, W, R,
          SHARE_NEW, 2, 2, ACTION_NONE, ACTION_REFUSE, NULL, { NULL },
          { "refusing to mount: sec=krb5 on an NFS client with 2 connections (requested by this mount's "
            "nconnect)" } },
        { "krb5 on a shared single-connection client",
          { { "vers=4.1,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=4.1,sec=krb5", false, W, R,
          SHARE_VISIBLE, 0, 1, ACTION_NONE, ACTION_NONE, "10.0.0.1 port 2049, NFSv4.1 over tcp", { NULL }, { NULL } },
        /* 25 */
        { "krb5 unknown on a hidden client: warn even under refuse",
          { { NULL } }, "v4 0a000001 801 1 10.0.0.1\n", "vers=4.2,sec=krb5", false, W, R,
          SHARE_HIDDEN, 0, 0, ACTION_NONE, ACTION_WARN, "10.0.0.1 port 2049, NFSv4.x over tcp", { NULL },
          { "warning: sec=krb5 on an NFS client with an unknown number of connections (inherited from a client "
            "that only another mount namespace uses): every connection" } },
        { "krb5 on a maybe: unknown, warn",
          { { "vers=4.2,nconnect=4,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "sec=krb5", false, W, R,
          SHARE_MAYBE, 0, 0, ACTION_NONE, ACTION_WARN, "10.0.0.1 port 2049, NFSv4.2 over tcp", { NULL },
          { "warning: sec=krb5 on an NFS client with an unknown number of connections (inherited from /mnt/a "
            "(srv:/a))" } },
        { "krb5 in a flavour list",
          { { "vers=3,nconnect=2,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=3,sec=sys:krb5i", false, W, W,
          SHARE_VISIBLE, 0, 2, ACTION_NONE, ACTION_WARN, "10.0.0.1 port 2049, NFSv3 over tcp", { NULL },
          { "warning: sec=sys:krb5i on an NFS client with 2 connections" } },
        { "follow nconnect to a single-connection client: krb5 fine",
          { { "vers=3,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=3,sec=krb5,nconnect=4", false, F, R,
          SHARE_VISIBLE, 4, 1, ACTION_FOLLOW, ACTION_NONE, "10.0.0.1 port 2049, NFSv3 over tcp",
          { "following the existing client" }, { NULL } },
        { "nconnect warn and krb5 refuse together",
          { { "vers=3,nconnect=8,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=3,sec=krb5,nconnect=2", false, W,
          R, SHARE_VISIBLE, 2, 8, ACTION_WARN, ACTION_REFUSE, "10.0.0.1 port 2049, NFSv3 over tcp",
          { "warning: nconnect=2 cannot take effect" },
          { "refusing to mount: sec=krb5 on an NFS client with 8 connections (inherited from /mnt/a (srv:/a))" } },
        /* 30: IPv6 and TLS in the client description */
        { "IPv6 TLS client",
          { { "vers=4.2,proto=tcp6,xprtsec=tls,nconnect=2,addr=fd00::1", "/mnt/t", "[fd00::1]:/t" } }, NULL,
          "vers=4.2,proto=tcp6,xprtsec=tls,nconnect=4", false, W, W, SHARE_VISIBLE, 4, 2, ACTION_WARN, ACTION_NONE,
          "fd00::1 port 2049, NFSv4.2 over tcp with xprtsec=tls",
          { "shares the NFS client for fd00::1 port 2049, NFSv4.2 over tcp with xprtsec=tls with /mnt/t "
            "([fd00::1]:/t), which has 2 connections (nconnect=2)" },
          { NULL } },
};
/* clang-format on */

static void check_msg(int row, const char *what, const char *msg, const char *const want[MAXS])
{
        if (!want[0]) {
                ck_assert_msg(msg == NULL, "row %d: unexpected %s message: %s", row, what, S(msg));
                return;
        }
        ck_assert_msg(msg != NULL, "row %d: no %s message", row, what);
        for (int i = 0; i < MAXS && want[i]; i++)
                ck_assert_msg(strstr(msg, want[i]) != NULL, "row %d: %s message\n%s\nlacks\n%s",
                              row, what, msg, want[i]);
}

/* The table of a row's mounts and nfsfs servers, its request, and the request classified
 * against 10.0.0.1 (fd00::1 for tcp6). */
static void classify_row(const struct entry *e, const char *servers, const char *reqs,
                         struct clients *c, struct optlist *l, struct nfs_request *req,
                         struct client_match *m)
{
        struct nfs_addr a;

        for (unsigned i = 0; i < MAXM && e[i].opts; i++) {
                struct nfs_mount nm;
                ck_assert_int_eq(nfs_mount_from_entry("nfs", e[i].opts, e[i].target, e[i].source,
                                                      makedev(0, 40 + i), &nm),
                                 0);
                ck_assert_int_eq(clients_add_mount(c, &nm), 0);
        }
        ck_assert_int_eq(clients_group(c), 0);
        ck_assert_int_eq(clients_add_nfsfs_servers(c, servers, NULL, 0), 0);
        ck_assert_int_eq(optlist_parse(l, reqs), 0);
        ck_assert_int_eq(nfs_request_parse(l, false, req, NULL), 0);
        ck_assert_int_eq(nfs_addr_parse(strstr(reqs, "tcp6") ? "fd00::1" : "10.0.0.1", &a), 0);
        ck_assert_int_eq(clients_classify(c, req, &a, m), 0);
}

START_TEST(test_policy)
{
        struct clients c = { 0 };
        struct optlist l = { 0 };
        struct nfs_request req;
        struct client_match m = { 0 };

        classify_row(rows[_i].e, rows[_i].servers, rows[_i].req, &c, &l, &req, &m);

        struct policy_input in = {
                .req = &req,
                .nconnect_from_config = rows[_i].from_config,
                .match = &m,
                .nconnect_policy = rows[_i].ncpol,
                .krb5_policy = rows[_i].krbpol,
        };
        struct verdict v = policy_decide(&in);
        ck_assert_msg(v.sharing == rows[_i].sharing, "row %d (%s): sharing %s", _i, rows[_i].name,
                      sharing_to_string(v.sharing));
        ck_assert_msg(v.requested == rows[_i].requested, "row %d (%s): requested %u", _i,
                      rows[_i].name, v.requested);
        ck_assert_msg(v.effective == rows[_i].effective, "row %d (%s): effective %u", _i,
                      rows[_i].name, v.effective);
        ck_assert_msg(v.nconnect == rows[_i].nconnect, "row %d (%s): nconnect %s", _i,
                      rows[_i].name, action_to_string(v.nconnect));
        ck_assert_msg(v.krb5 == rows[_i].krb5, "row %d (%s): krb5 %s", _i, rows[_i].name,
                      action_to_string(v.krb5));
        if (rows[_i].client) {
                ck_assert_ptr_nonnull(v.client);
                char *d = verdict_describe_client(v.client);
                ck_assert_str_eq(d, rows[_i].client);
                free(d);
        } else
                ck_assert_ptr_null(v.client);

        struct findings nf = { 0 }, kf = { 0 };
        ck_assert_int_eq(verdict_nconnect_finding(&v, &c, &nf), 0);
        ck_assert_int_eq(verdict_krb5_finding(&v, &c, &req, &kf), 0);
        ck_assert_uint_le(nf.n, 1);
        ck_assert_uint_le(kf.n, 1);
        /* as printed: the severity's prefix, then the text */
        char *ncmsg = NULL, *kmsg = NULL;
        if (nf.n)
                sbuf_add(&ncmsg, "%s%s", severity_prefix(nf.v[0].sev), nf.v[0].text);
        if (kf.n)
                sbuf_add(&kmsg, "%s%s", severity_prefix(kf.v[0].sev), kf.v[0].text);
        check_msg(_i, "nconnect", ncmsg, rows[_i].ncmsg);
        check_msg(_i, "krb5", kmsg, rows[_i].krbmsg);
        /* a refusal says "refusing", a warning "warning:" (DESIGN.md, Messages); the severity
         * decides whether it is printed at all (a quiet follow only with -v) */
        static const struct {
                const char *lead;
                enum severity sev;
        } lead[] = {
                [ACTION_WARN] = { "warning: ", SEV_WARNING },
                [ACTION_REFUSE] = { "refusing to mount: ", SEV_ERROR },
                [ACTION_FOLLOW] = { "following the existing client: ", SEV_NOTICE },
                [ACTION_FOLLOW_QUIET] = { "following the existing client: ", SEV_INFO },
        };
        if (v.nconnect != ACTION_NONE) {
                ck_assert_msg(
                        strncmp(ncmsg, lead[v.nconnect].lead, strlen(lead[v.nconnect].lead)) == 0,
                        "row %d: nconnect message starts: %.40s", _i, ncmsg);
                ck_assert_int_eq(nf.v[0].sev, lead[v.nconnect].sev);
        }
        if (v.krb5 != ACTION_NONE) {
                ck_assert_msg(strncmp(kmsg, lead[v.krb5].lead, strlen(lead[v.krb5].lead)) == 0,
                              "row %d: krb5 message starts: %.40s", _i, kmsg);
                ck_assert_int_eq(kf.v[0].sev, lead[v.krb5].sev);
        }
        if (v.krb5 == ACTION_REFUSE)
                ck_assert_ptr_null(strstr(kmsg, "krb5_policy = refuse"));
        free(ncmsg);
        free(kmsg);
        findings_done(&nf);
        findings_done(&kf);
        client_match_done(&m);
        optlist_done(&l);
        clients_done(&c);
}
END_TEST

/* clang-format off */
static const struct {
        const char *s;
        int rc;
        enum policy p;
} parse_rows[] = {
        { "warn", 0, POLICY_WARN },     { "refuse", 0, POLICY_REFUSE }, { "follow", 0, POLICY_FOLLOW },
        { "WARN", -EINVAL, 0 },         { "", -EINVAL, 0 },             { NULL, -EINVAL, 0 },
        { "warn ", -EINVAL, 0 },        { "refused", -EINVAL, 0 },      { "fol", -EINVAL, 0 },
};
/* clang-format on */

START_TEST(test_policy_parse)
{
        enum policy p = (enum policy)77;
        int r = policy_parse(parse_rows[_i].s, &p);
        ck_assert_int_eq(r, parse_rows[_i].rc);
        ck_assert_int_eq(p, r == 0 ? parse_rows[_i].p : (enum policy)77);
}
END_TEST

START_TEST(test_to_string)
{
        ck_assert_str_eq(action_to_string(ACTION_NONE), "none");
        ck_assert_str_eq(action_to_string(ACTION_WARN), "warn");
        ck_assert_str_eq(action_to_string(ACTION_REFUSE), "refuse");
        ck_assert_str_eq(action_to_string(ACTION_FOLLOW), "follow");
        ck_assert_str_eq(action_to_string(ACTION_FOLLOW_QUIET), "follow (quiet)");
        ck_assert_str_eq(sharing_to_string(SHARE_NEW), "new client");
        ck_assert_str_eq(sharing_to_string(SHARE_VISIBLE), "shares a client");
        ck_assert_str_eq(sharing_to_string(SHARE_HIDDEN),
                         "shares a client of another mount namespace");
        ck_assert_str_eq(sharing_to_string(SHARE_MAYBE), "version negotiated, may share a client");
}
END_TEST

/* The mount list of a client: every mount, in order; long names do not overflow. */
START_TEST(test_mounts_describe)
{
        struct clients c = { 0 };
        char target[3000], source[3000];
        memset(target, 't', sizeof(target) - 1);
        target[0] = '/';
        target[sizeof(target) - 1] = '\0';
        memset(source, 's', sizeof(source) - 1);
        memcpy(source, "h:/", 3);
        source[sizeof(source) - 1] = '\0';
        for (unsigned i = 0; i < 5; i++) {
                struct nfs_mount nm;
                ck_assert_int_eq(nfs_mount_from_entry("nfs", "vers=3,addr=10.0.0.1",
                                                      i == 2 ? target : "/m",
                                                      i == 2 ? source : "h:/x", makedev(0, i), &nm),
                                 0);
                ck_assert_int_eq(clients_add_mount(&c, &nm), 0);
        }
        ck_assert_int_eq(clients_group(&c), 0);
        ck_assert_uint_eq(c.n, 1);
        char *s = verdict_describe_mounts(&c.v[0], &c);
        char *want = NULL;
        sbuf_add(&want, "/m (h:/x), /m (h:/x), %s (%s), /m (h:/x), /m (h:/x)", target, source);
        ck_assert_str_eq(s, want);
        free(s);
        free(want);

        ck_assert_int_eq(clients_add_nfsfs_servers(&c, "v3 0a000001 801 1 x\nv3 0a000001 801 1 x\n",
                                                   NULL, 0),
                         0);
        ck_assert_uint_eq(c.n, 2);
        s = verdict_describe_mounts(&c.v[1], &c);
        ck_assert_str_eq(s, "no mount of this mount namespace");
        free(s);
        clients_done(&c);
}
END_TEST

/* Other server names behind the address of a shared client: said only where asked for. */
/* clang-format off */
static const struct {
        const char *sources[2];
        const char *host;
        bool warn;
        enum action names;
} names_rows[] = {
        { { "acct1.file.core.windows.net:/acct1/a", NULL }, "acct2.file.core.windows.net", true, ACTION_WARN },
        { { "acct1.file.core.windows.net:/acct1/a", NULL }, "ACCT1.file.core.windows.net", true, ACTION_NONE },
        { { "acct1.file.core.windows.net:/acct1/a", NULL }, "acct2.file.core.windows.net", false, ACTION_NONE },
        { { "acct1.x:/a", "acct2.x:/b" }, "acct1.x", true, ACTION_WARN },
        { { "[fd00::1]:/a", NULL }, "fd00::1", true, ACTION_NONE },
};
/* clang-format on */

START_TEST(test_names)
{
        struct clients c = { 0 };
        struct optlist l = { 0 };
        struct nfs_request req;
        struct nfs_addr a;
        struct client_match m;
        struct findings f = { 0 };
        bool v6 = names_rows[_i].sources[0][0] == '[';

        for (unsigned i = 0; i < 2 && names_rows[_i].sources[i]; i++) {
                struct nfs_mount nm;
                ck_assert_int_eq(nfs_mount_from_entry("nfs",
                                                      v6 ? "vers=4.1,proto=tcp6,addr=fd00::1"
                                                         : "vers=4.1,nconnect=4,addr=10.0.0.1",
                                                      "/mnt/x", names_rows[_i].sources[i],
                                                      makedev(0, 40 + i), &nm),
                                 0);
                ck_assert_int_eq(clients_add_mount(&c, &nm), 0);
        }
        ck_assert_int_eq(clients_group(&c), 0);
        ck_assert_int_eq(optlist_parse(&l, v6 ? "vers=4.1,proto=tcp6" : "vers=4.1"), 0);
        ck_assert_int_eq(nfs_request_parse(&l, false, &req, NULL), 0);
        ck_assert_int_eq(nfs_addr_parse(v6 ? "fd00::1" : "10.0.0.1", &a), 0);
        ck_assert_int_eq(clients_classify(&c, &req, &a, &m), 0);
        struct policy_input in = { .req = &req,
                                   .match = &m,
                                   .clients = &c,
                                   .host = names_rows[_i].host,
                                   .warn_shared_names = names_rows[_i].warn };
        struct verdict v = policy_decide(&in);
        ck_assert_int_eq(v.names, names_rows[_i].names);
        ck_assert_int_eq(verdict_names_finding(&v, &c, names_rows[_i].host, &f), 0);
        ck_assert_uint_eq(f.n, v.names == ACTION_WARN);
        if (f.n) {
                ck_assert_int_eq(f.v[0].sev, SEV_WARNING);
                ck_assert_ptr_nonnull(strstr(f.v[0].text, "mounted under another server name"));
                ck_assert_ptr_nonnull(strstr(f.v[0].text, names_rows[_i].sources[0]));
        }
        findings_done(&f);
        client_match_done(&m);
        optlist_done(&l);
        clients_done(&c);
}
END_TEST

/* TLS: the sharing model's folding, the policy, and what the finding says. */
/* clang-format off */
static const struct {
        const char *name;
        struct entry e[MAXM];
        const char *servers;
        const char *req;
        enum policy pol;
        enum action tls;
        const char *gets;             /* verdict_tls_gets() */
        const char *msg[MAXS];        /* substrings of the TLS message; none: no message */
} tls_rows[] = {
        { "NFSv4.1 TLS beside plain, refuse",
          { { "vers=4.1,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=4.1,xprtsec=tls", R,
          ACTION_REFUSE, "none",
          { "refusing to mount: xprtsec=tls would land on the NFS client for 10.0.0.1 port 2049, "
            "NFSv4.1 over tcp, set up by /mnt/a (srv:/a), which has no TLS; lacking: encryption and "
            "integrity protection (its RPC traffic in plain text)", "unmount the mounts of that client first, or mount with vers=3" } },
        { "NFSv4.0 TLS beside plain, warn",
          { { "vers=4.0,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=4.0,xprtsec=tls", W,
          ACTION_WARN, "none", { "warning: xprtsec=tls would land", "tls_policy = refuse prevents it" } },
        { "NFSv4.2 mtls beside tls: no client certificate",
          { { "vers=4.2,xprtsec=tls,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=4.2,xprtsec=mtls", R,
          ACTION_REFUSE, "tls", { "which has xprtsec=tls; lacking: the client certificate it asked to present" } },
        { "tls beside mtls: gets more, nothing to say",
          { { "vers=4.2,xprtsec=mtls,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=4.2,xprtsec=tls", R,
          ACTION_NONE, "mtls", { NULL } },
        { "plain beside TLS: lands on the TLS client, no TLS finding",
          { { "vers=4.1,xprtsec=tls,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=4.1", R,
          ACTION_NONE, "tls", { NULL } },
        /* 5 */
        { "NFSv3 TLS beside plain: a client of its own",
          { { "vers=3,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=3,xprtsec=tls", R,
          ACTION_NONE, "tls", { NULL } },
        { "TLS beside another minor's plain client: separate",
          { { "vers=4.1,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "vers=4.2,xprtsec=tls", R,
          ACTION_NONE, "tls", { NULL } },
        { "negotiated version may land on a plain client",
          { { "vers=4.2,addr=10.0.0.1", "/mnt/a", "srv:/a" } }, NULL, "xprtsec=tls", R,
          ACTION_REFUSE, "none", { "xprtsec=tls may land (the version is negotiated)" } },
        { "a hidden v4 client: its TLS not shown, taken as none",
          { { NULL } }, "v4 0a000001 801 1 x\n", "vers=4.1,xprtsec=tls", R,
          ACTION_REFUSE, "none", { "a TLS policy /proc/fs/nfsfs does not show (taken as none)" } },
        { "TLS beside both a plain and a TLS client: its own",
          { { "vers=4.1,addr=10.0.0.1", "/mnt/a", "srv:/a" }, { "vers=4.1,xprtsec=tls,addr=10.0.0.1", "/mnt/b", "srv:/b" } },
          NULL, "vers=4.1,xprtsec=tls", R, ACTION_NONE, "tls", { NULL } },
};
/* clang-format on */

START_TEST(test_tls)
{
        struct clients c = { 0 };
        struct optlist l = { 0 };
        struct nfs_request req;
        struct client_match m = { 0 };

        classify_row(tls_rows[_i].e, tls_rows[_i].servers, tls_rows[_i].req, &c, &l, &req, &m);
        struct policy_input in = { .req = &req, .match = &m, .tls_policy = tls_rows[_i].pol };
        struct verdict v = policy_decide(&in);
        ck_assert_msg(v.tls == tls_rows[_i].tls, "row %d (%s): tls %s", _i, tls_rows[_i].name,
                      action_to_string(v.tls));
        ck_assert_str_eq(tls_level_to_string(verdict_tls_gets(&v)), tls_rows[_i].gets);
        struct findings f = { 0 };
        ck_assert_int_eq(verdict_tls_finding(&v, &c, &req, &f), 0);
        ck_assert_uint_le(f.n, 1);
        char *msg = NULL;
        if (f.n)
                sbuf_add(&msg, "%s%s", severity_prefix(f.v[0].sev), f.v[0].text);
        check_msg(_i, "tls", msg, tls_rows[_i].msg);
        if (f.n)
                ck_assert_int_eq(f.v[0].sev, v.tls == ACTION_REFUSE ? SEV_ERROR : SEV_WARNING);
        free(msg);
        findings_done(&f);
        client_match_done(&m);
        optlist_done(&l);
        clients_done(&c);
}
END_TEST

static Suite *policy_suite(void)
{
        Suite *s = suite_create("policy");
        TCase *tc = tcase_create("decide");
        tcase_add_loop_test(tc, test_policy, 0, ELEMS(rows));
        suite_add_tcase(s, tc);
        tc = tcase_create("strings");
        tcase_add_loop_test(tc, test_policy_parse, 0, ELEMS(parse_rows));
        tcase_add_loop_test(tc, test_names, 0, ELEMS(names_rows));
        tcase_add_loop_test(tc, test_tls, 0, ELEMS(tls_rows));
        tcase_add_test(tc, test_to_string);
        tcase_add_test(tc, test_mounts_describe);
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(policy_suite)
