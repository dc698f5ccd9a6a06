/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Which mounts serialise, on which key, and what a claimed client makes of a joiner. */
#include <errno.h>
#include <sys/sysmacros.h>

#include "core/claim.h"
#include "core/nfsfs.h"
#include "core/plan.h"
#include "core/verdict.h"
#include "unit.h"

#define W POLICY_WARN
#define R POLICY_REFUSE
#define F POLICY_FOLLOW
#define NEW SERIALISE_CLAIM
#define JOINS SERIALISE_NONE_JOINS
#define NEG SERIALISE_NONE_NEGOTIATED
#define CHECK SERIALISE_CHECK_CLAIM
#define V4LINE "v4 0a000001  801    1 10.0.0.1\n"

/* clang-format off */
static const struct {
        const char *name;
        const char *mount;     /* an existing mount of 10.0.0.1 (its super options), or NULL */
        const char *servers;   /* /proc/fs/nfsfs/servers, or NULL */
        const char *req;       /* the command line */
        enum policy pol;
        bool dry, unresolved, user;
        enum serialise ser;    /* before any claim is seen */
        const char *key;       /* claim_key_name() of the request, netns 7; NULL: none */
        unsigned claim;        /* a live claim of that key with this nconnect; 0: none */
        /* after the claim */
        enum sharing sharing;
        enum action action;
        unsigned pass;
        const char *final;     /* plan_options() */
        const char *msg;       /* a substring of the nconnect finding; NULL: none */
        size_t nclients;       /* the table's clients after the claim; 0: not checked */
} rows[] = {
        { "no client: claims NFSv3's key", NULL, NULL, "vers=3,nconnect=4", W, false, false, false,
          NEW, "net7-10.0.0.1-2049-tcp-v3", 0, SHARE_NEW, ACTION_NONE, 0, "vers=3,nconnect=4", NULL,
          0 },
        { "NFSv4.1 is another key", NULL, NULL, "vers=4.1,nconnect=4", W, false, false, false,
          NEW, "net7-10.0.0.1-2049-tcp-v4.1", 0, SHARE_NEW, ACTION_NONE, 0, "vers=4.1,nconnect=4",
          NULL, 0 },
        { "port and transport are in the key; NFSv4 folds TLS policies: not TLS", NULL, NULL,
          "vers=4.2,port=2050,xprtsec=tls", W, false, false, false, NEW,
          "net7-10.0.0.1-2050-tcp-v4.2", 0, SHARE_NEW, ACTION_NONE, 0,
          "vers=4.2,port=2050,xprtsec=tls", NULL, 0 },
        { "NFSv3 keeps TLS policies apart: in the key", NULL, NULL, "vers=3,xprtsec=mtls", W,
          false, false, false, NEW, "net7-10.0.0.1-2049-tcp-v3-mtls", 0, SHARE_NEW, ACTION_NONE, 0,
          "vers=3,xprtsec=mtls", NULL, 0 },
        { "TLS beside an NFSv3 plain client: a client of its own", "vers=3,addr=10.0.0.1", NULL,
          "vers=3,xprtsec=tls", R, false, false, false, NEW, "net7-10.0.0.1-2049-tcp-v3-tls", 0,
          SHARE_NEW, ACTION_NONE, 0, "vers=3,xprtsec=tls", NULL, 0 },
        { "TLS beside an NFSv4.1 plain client: folded into it, refused", "vers=4.1,addr=10.0.0.1",
          NULL, "vers=4.1,xprtsec=tls", R, false, false, false, JOINS, NULL, 0, SHARE_VISIBLE,
          ACTION_NONE, 0, "vers=4.1,xprtsec=tls", NULL, 0 },
        { "an existing client: joins, no lock", "vers=3,nconnect=2,addr=10.0.0.1", NULL,
          "vers=3,nconnect=4", W, false, false, false, JOINS, NULL, 0, SHARE_VISIBLE, ACTION_WARN,
          0, "vers=3,nconnect=4", "warning: nconnect=4 cannot take effect", 0 },
        { "an NFSv3 client does not serve NFSv4.1", "vers=3,nconnect=2,addr=10.0.0.1", NULL,
          "vers=4.1", W, false, false, false, NEW, "net7-10.0.0.1-2049-tcp-v4.1", 0, SHARE_NEW,
          ACTION_NONE, 0, "vers=4.1", NULL, 0 },
        /* a client only nfsfs shows: another mount namespace's, or one a claimant's mount.nfs has
         * just made (listed there before its mountinfo line): the key's section reads the claim */
        { "a hidden client, no claim: joined as another mount namespace's", NULL,
          "v3 0a000001  801 1 10.0.0.1", "vers=3", W, false, false, false, CHECK,
          "net7-10.0.0.1-2049-tcp-v3", 0, SHARE_HIDDEN, ACTION_NONE, 0, "vers=3", NULL, 0 },
        { "a hidden client, no claim, another nconnect: warned as hidden", NULL,
          "v3 0a000001  801 1 10.0.0.1", "vers=3,nconnect=4", W, false, false, false, CHECK,
          "net7-10.0.0.1-2049-tcp-v3", 0, SHARE_HIDDEN, ACTION_WARN, 0, "vers=3,nconnect=4",
          "exists in this network namespace (/proc/fs/nfsfs) but no mount of this mount namespace "
          "shows it", 0 },
        { "in nfsfs, not yet in mountinfo, claimed: the claim wins, quiet", NULL, V4LINE,
          "vers=4.1,nconnect=2", W, false, false, false, CHECK, "net7-10.0.0.1-2049-tcp-v4.1", 2,
          SHARE_VISIBLE, ACTION_NONE, 0, "vers=4.1,nconnect=2", NULL, 1 },
        { "in nfsfs, claimed, refuse: not refused for an unknown nconnect", NULL, V4LINE,
          "vers=4.1,nconnect=2", R, false, false, false, CHECK, "net7-10.0.0.1-2049-tcp-v4.1", 2,
          SHARE_VISIBLE, ACTION_NONE, 0, "vers=4.1,nconnect=2", NULL, 1 },
        { "in nfsfs, claimed with another nconnect: warned about the claimant's", NULL, V4LINE,
          "vers=4.1,nconnect=8", W, false, false, false, CHECK, "net7-10.0.0.1-2049-tcp-v4.1", 2,
          SHARE_VISIBLE, ACTION_WARN, 2, "vers=4.1,nconnect=2",
          "which the mount of /mnt/c (srv:/c) is creating now with nconnect=2", 1 },
        { "NFSv3 in nfsfs, claimed: its line is the claimed client", NULL,
          "v3 0a000001  801 1 10.0.0.1", "vers=3,nconnect=4", W, false, false, false, CHECK,
          "net7-10.0.0.1-2049-tcp-v3", 4, SHARE_VISIBLE, ACTION_NONE, 0, "vers=3,nconnect=4", NULL,
          1 },
        { "two v4 lines, one claimed: the other stays hidden", NULL, V4LINE V4LINE,
          "vers=4.1,nconnect=2", W, false, false, false, CHECK, "net7-10.0.0.1-2049-tcp-v4.1", 2,
          SHARE_VISIBLE, ACTION_NONE, 0, "vers=4.1,nconnect=2", NULL, 2 },
        { "an NFSv3 line is not the NFSv4.1 claim's", NULL, "v3 0a000001  801 1 10.0.0.1",
          "vers=4.1,nconnect=2", W, false, false, false, NEW, "net7-10.0.0.1-2049-tcp-v4.1", 2,
          SHARE_VISIBLE, ACTION_NONE, 0, "vers=4.1,nconnect=2", NULL, 2 },
        { "another port's line is not the claim's", NULL, "v3 0a000001  802 1 10.0.0.1",
          "vers=3,nconnect=2", W, false, false, false, NEW, "net7-10.0.0.1-2049-tcp-v3", 2,
          SHARE_VISIBLE, ACTION_NONE, 0, "vers=3,nconnect=2", NULL, 2 },
        { "negotiated version: no single key", NULL, NULL, "nconnect=4", W, false, false, false,
          NEG, NULL, 0, SHARE_NEW, ACTION_NONE, 0, "nconnect=4", NULL, 0 },
        { "negotiated minor: no single key", NULL, NULL, "vers=4,nconnect=4", W, false, false, false,
          NEG, NULL, 0, SHARE_NEW, ACTION_NONE, 0, "vers=4,nconnect=4", NULL, 0 },
        { "negotiated, landing maybe on a client", "vers=4.1,addr=10.0.0.1", NULL, "vers=4", W,
          false, false, false, NEG, NULL, 0, SHARE_MAYBE, ACTION_NONE, 0, "vers=4", NULL, 0 },
        { "dry run: nothing to claim", NULL, NULL, "vers=3", W, true, false, false,
          SERIALISE_NONE_DRY_RUN, NULL, 0, SHARE_NEW, ACTION_NONE, 0, "vers=3", NULL, 0 },
        { "unresolved: nothing to key", NULL, NULL, "vers=3", W, false, true, false,
          SERIALISE_NONE_UNRESOLVED, NULL, 0, SHARE_NEW, ACTION_NONE, 0, "vers=3", NULL, 0 },
        { "a user's setuid run: not in root's run directory", NULL, NULL, "vers=3", W, false, false,
          true, SERIALISE_NONE_USER, NULL, 0, SHARE_NEW, ACTION_NONE, 0, "vers=3", NULL, 0 },
        { "refused for krb5 before any client: creates nothing", NULL, NULL,
          "vers=3,nconnect=4,sec=krb5", R, false, false, false, SERIALISE_NONE_REFUSED, NULL, 0,
          SHARE_NEW, ACTION_NONE, 0, "vers=3,nconnect=4,sec=krb5", NULL, 0 },
        /* a live claim: the client it names is the one this mount shares */
        { "claimed with the same nconnect: joins quietly", NULL, NULL, "vers=3,nconnect=4", W,
          false, false, false, NEW, "net7-10.0.0.1-2049-tcp-v3", 4, SHARE_VISIBLE, ACTION_NONE, 0,
          "vers=3,nconnect=4", NULL, 0 },
        { "claimed, warn: warned, passes the claimant's", NULL, NULL, "vers=3,nconnect=8", W, false,
          false, false, NEW, "net7-10.0.0.1-2049-tcp-v3", 4, SHARE_VISIBLE, ACTION_WARN, 4,
          "vers=3,nconnect=4",
          "warning: nconnect=8 cannot take effect: this mount shares the NFS client for 10.0.0.1 "
          "port 2049, NFSv3 over tcp, which the mount of /mnt/c (srv:/c) is creating now with "
          "nconnect=4 (the first mount decides it); this mount passes nconnect=4, so that the client "
          "gets it whichever mount.nfs reaches the kernel first; to get it, unmount every mount of "
          "that client first", 0 },
        { "claimed, follow: passes the claimant's, not none", NULL, NULL, "vers=3,nconnect=8", F,
          false, false, false, NEW, "net7-10.0.0.1-2049-tcp-v3", 4, SHARE_VISIBLE, ACTION_FOLLOW, 4,
          "vers=3,nconnect=4", "following the existing client: nconnect=8 cannot take effect", 0 },
        { "claimed, refuse: refused, passes nothing", NULL, NULL, "vers=3,nconnect=8", R, false,
          false, false, NEW, "net7-10.0.0.1-2049-tcp-v3", 4, SHARE_VISIBLE, ACTION_REFUSE, 0,
          "vers=3,nconnect=8", "refusing to mount: nconnect=8 cannot take effect", 0 },
        { "claimed, nothing asked: the claimant's added", NULL, NULL, "vers=4.1,hard", W, false,
          false, false, NEW, "net7-10.0.0.1-2049-tcp-v4.1", 8, SHARE_VISIBLE, ACTION_NONE, 8,
          "vers=4.1,hard,nconnect=8", "nconnect=8 added", 0 },
        { "claimed with 1, asking 1: nothing to change", NULL, NULL, "vers=3,nconnect=1", W, false,
          false, false, NEW, "net7-10.0.0.1-2049-tcp-v3", 1, SHARE_VISIBLE, ACTION_NONE, 0,
          "vers=3,nconnect=1", NULL, 0 },
};
/* clang-format on */

static void make_clients(int i, struct clients *c)
{
        struct nfs_mount nm;

        if (rows[i].mount) {
                ck_assert_int_eq(nfs_mount_from_entry("nfs", rows[i].mount, "/mnt/a", "srv:/a",
                                                      makedev(0, 40), &nm),
                                 0);
                ck_assert_int_eq(clients_add_mount(c, &nm), 0);
        }
        ck_assert_int_eq(clients_group(c), 0);
        ck_assert_int_eq(clients_add_nfsfs_servers(c, rows[i].servers, NULL, 0), 0);
}

static struct verdict decide(const struct clients *c, const struct nfs_request *req,
                             const struct nfs_addr *a, enum policy pol, struct client_match *m)
{
        client_match_done(m);
        ck_assert_int_eq(clients_classify(c, req, a, m), 0);
        struct policy_input in = { .req = req,
                                   .match = m,
                                   .nconnect_policy = pol,
                                   .krb5_policy = pol == R ? R : W,
                                   .tls_policy = pol == R ? R : W,
                                   .clients = c };
        return policy_decide(&in);
}

START_TEST(test_claim)
{
        struct clients c = { 0 };
        struct optlist l = { 0 }, out = { 0 };
        struct nfs_request req;
        struct nfs_addr a;
        struct client_match m = { 0 };
        struct config conf = { 0 };
        struct merged mg = { 0 };
        struct match_input mi = { "srv", NULL, 0, "/mnt/b" };
        char key[256];

        make_clients(_i, &c);
        ck_assert_int_eq(optlist_parse(&l, rows[_i].req), 0);
        ck_assert_int_eq(nfs_request_parse(&l, false, &req, NULL), 0);
        ck_assert_int_eq(nfs_addr_parse("10.0.0.1", &a), 0);
        struct verdict v = decide(&c, &req, &a, rows[_i].pol, &m);
        struct serialise_input in = { &v, &req, !rows[_i].unresolved, rows[_i].dry,
                                      !rows[_i].user };
        enum serialise s = serialise_decide(&in);
        ck_assert_msg(s == rows[_i].ser, "row %d (%s): %s", _i, rows[_i].name,
                      serialise_to_string(s));
        if (serialise_takes_key(s)) {
                struct client_key k = client_key_of_request(&req, &a);
                ck_assert_int_eq(claim_key_name(7, &k, key, sizeof(key)), 0);
                ck_assert_str_eq(key, rows[_i].key);
                if (rows[_i].claim) {
                        ck_assert_int_eq(
                                clients_add_claimed(&c, &k, rows[_i].claim, "/mnt/c", "srv:/c"), 0);
                        v = decide(&c, &req, &a, rows[_i].pol, &m);
                }
                if (rows[_i].nclients)
                        ck_assert_msg(c.n == rows[_i].nclients, "row %d (%s): %zu clients", _i,
                                      rows[_i].name, c.n);
        } else
                ck_assert_ptr_null(rows[_i].key);
        ck_assert_msg(v.sharing == rows[_i].sharing, "row %d (%s): sharing %s", _i, rows[_i].name,
                      sharing_to_string(v.sharing));
        ck_assert_msg(v.nconnect == rows[_i].action, "row %d (%s): nconnect %s", _i, rows[_i].name,
                      action_to_string(v.nconnect));
        ck_assert_msg(v.pass_nconnect == rows[_i].pass, "row %d (%s): passes %u", _i, rows[_i].name,
                      v.pass_nconnect);
        ck_assert_int_eq(config_merge(&conf, &l, &mi, false, &mg), 0);
        ck_assert_int_eq(plan_options(&mg, &v, &out), 0);
        char *o = optlist_to_string(&out);
        ck_assert_msg(streq(o, rows[_i].final), "row %d (%s): options %s", _i, rows[_i].name, o);
        free(o);
        struct findings f = { 0 };
        ck_assert_int_eq(verdict_nconnect_finding(&v, &c, &f), 0);
        ck_assert_uint_eq(f.n, rows[_i].msg != NULL);
        if (f.n) {
                char *t = NULL;
                sbuf_add(&t, "%s%s", severity_prefix(f.v[0].sev), f.v[0].text);
                ck_assert_msg(strstr(t, rows[_i].msg), "row %d: %s\nlacks\n%s", _i, t,
                              rows[_i].msg);
                free(t);
        }
        findings_done(&f);
        merged_done(&mg);
        optlist_done(&out);
        client_match_done(&m);
        optlist_done(&l);
        clients_done(&c);
}
END_TEST

/* clang-format off */
static const struct {
        const char *text;
        int rc;
        long pid;
        unsigned nconnect;
        const char *xprtsec; /* NULL: "none" (absent) */
} parse_rows[] = {
        { CLAIM_HEADER "\npid=42\nnconnect=4\ntarget=/mnt/a\nspec=srv:/a\n", 0, 42, 4, NULL },
        { CLAIM_HEADER "\npid=42\nnconnect=4\ntarget=/mnt/a\nspec=srv:/a", 0, 42, 4, NULL },
        { CLAIM_HEADER "\npid=42\nnconnect=4\nxprtsec=mtls\ntarget=/a\nspec=s:/a\n", 0, 42, 4, "mtls" },
        { CLAIM_HEADER "\npid=42\nnconnect=4\nxprtsec=ssl\ntarget=/a\nspec=s:/a\n", -EINVAL, 0, 0, NULL },
        { "# nfs-tuned client claim 2\npid=42\nnconnect=4\ntarget=/mnt/a\nspec=srv:/a\n", -EINVAL, 0, 0, NULL },
        { CLAIM_HEADER "\npid=42\nnconnect=4\ntarget=/mnt/a\n", -EINVAL, 0, 0, NULL },          /* no spec */
        { CLAIM_HEADER "\npid=0\nnconnect=4\ntarget=/mnt/a\nspec=s:/a\n", -EINVAL, 0, 0, NULL },  /* no pid */
        { CLAIM_HEADER "\npid=42\nnconnect=17\ntarget=/mnt/a\nspec=s:/a\n", -EINVAL, 0, 0, NULL },
        { CLAIM_HEADER "\npid=42\nnconnect=4\ntarget=mnt\nspec=s:/a\n", -EINVAL, 0, 0, NULL },    /* relative */
        { CLAIM_HEADER "\npid=42\npid=43\nnconnect=4\ntarget=/m\nspec=s:/a\n", -EINVAL, 0, 0, NULL },
        { CLAIM_HEADER "\npid=42\nnconnect=4\ntarget=/m\nspec=s:/a\nextra\n", -EINVAL, 0, 0, NULL },
        { "", -EINVAL, 0, 0, NULL },
};
/* clang-format on */

START_TEST(test_claim_parse)
{
        struct claim c = { 0 };
        int r = claim_parse(parse_rows[_i].text, &c);
        ck_assert_msg(r == parse_rows[_i].rc, "row %d: %d", _i, r);
        if (r == 0) {
                ck_assert_int_eq(c.pid, parse_rows[_i].pid);
                ck_assert_uint_eq(c.nconnect, parse_rows[_i].nconnect);
                ck_assert_str_eq(c.xprtsec,
                                 parse_rows[_i].xprtsec ? parse_rows[_i].xprtsec : "none");
                char *t = NULL;
                ck_assert_int_eq(claim_format(&c, &t), 0);
                struct claim back = { 0 };
                ck_assert_int_eq(claim_parse(t, &back), 0);
                ck_assert_str_eq(back.target, c.target);
                ck_assert_str_eq(back.spec, c.spec);
                ck_assert_str_eq(back.xprtsec, c.xprtsec);
                claim_done(&back);
                free(t);
        }
        claim_done(&c);
}
END_TEST

/* A claim read after the kernel's mountinfo line of its key appeared: the line stands alone. */
START_TEST(test_claim_beside_a_mount)
{
        struct clients c = { 0 };
        struct nfs_mount nm;

        ck_assert_int_eq(nfs_mount_from_entry("nfs", "vers=3,nconnect=2,addr=10.0.0.1", "/mnt/a",
                                              "srv:/a", makedev(0, 40), &nm),
                         0);
        ck_assert_int_eq(clients_add_mount(&c, &nm), 0);
        ck_assert_int_eq(clients_group(&c), 0);
        struct client_key k = client_key_of(&c.mounts[0]);
        ck_assert_int_eq(clients_add_claimed(&c, &k, 4, "/mnt/c", "srv:/c"), 0);
        ck_assert_uint_eq(c.n, 1);
        ck_assert_uint_eq(c.v[0].nconnect, 2);
        ck_assert(!c.v[0].claimed);
        ck_assert_ptr_eq(clients_find(&c, &k), &c.v[0]);
        clients_done(&c);
}
END_TEST

START_TEST(test_claim_format_newline)
{
        struct claim c = {
                .pid = 1, .nconnect = 1, .target = "/mnt/a\nnconnect=16", .spec = "s:/a"
        };
        char *t = NULL;
        ck_assert_int_eq(claim_format(&c, &t), -EINVAL);
}
END_TEST

static Suite *claim_suite(void)
{
        Suite *s = suite_create("claim");
        TCase *tc = tcase_create("decide");
        tcase_add_loop_test(tc, test_claim, 0, ELEMS(rows));
        tcase_add_loop_test(tc, test_claim_parse, 0, ELEMS(parse_rows));
        tcase_add_test(tc, test_claim_format_newline);
        tcase_add_test(tc, test_claim_beside_a_mount);
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(claim_suite)
