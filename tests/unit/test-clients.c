/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <sys/sysmacros.h>

#include "core/clients.h"
#include "core/nfsfs.h"
#include "unit.h"

/* Super options as the kernel prints them (nfs_show_mount_options), trimmed to what matters. */
#define V3_OPTS                                                                                       \
        "rw,relatime,vers=3,rsize=1048576,wsize=1048576,namlen=255,hard,proto=tcp,nconnect=4,"        \
        "timeo=600,retrans=2,sec=sys,mountaddr=10.99.0.1,mountvers=3,mountport=20048,mountproto=udp," \
        "local_lock=none,addr=10.99.0.1"
#define V41_OPTS                                                                              \
        "rw,relatime,vers=4.1,rsize=524288,wsize=524288,namlen=255,hard,proto=tcp,timeo=600," \
        "retrans=2,sec=krb5p,clientaddr=10.99.0.2,local_lock=none,addr=10.99.0.1"
#define V42_OPTS                                                                                 \
        "rw,relatime,vers=4.2,rsize=1048576,wsize=1048576,namlen=255,hard,proto=tcp,nconnect=8," \
        "max_connect=4,timeo=600,retrans=2,sec=sys,clientaddr=10.99.0.2,local_lock=none,"        \
        "addr=10.99.0.1"
#define V6_OPTS                                                                                   \
        "rw,relatime,vers=4.2,rsize=1048576,wsize=1048576,namlen=255,hard,proto=tcp6,nconnect=2," \
        "timeo=600,retrans=2,sec=sys,clientaddr=fd00::2,local_lock=none,addr=fd00::1"

/* clang-format off */
static const struct {
        const char *fstype, *opts, *target, *source;
        int rc;
        const char *addr;
        unsigned port;
        const char *transport, *xprtsec;
        int major, minor;
        unsigned nconnect;
        unsigned long rsize;
} entry_rows[] = {
        /* 0 */
        { "nfs", V3_OPTS, "/mnt/a", "srv:/a", 0, "10.99.0.1", 2049, "tcp", "none", 3, 0, 4, 1048576 },
        { "nfs4", V41_OPTS, "/mnt/b", "srv:/b", 0, "10.99.0.1", 2049, "tcp", "none", 4, 1, 1, 524288 },
        { "nfs4", V42_OPTS, "/mnt/c", "srv:/c", 0, "10.99.0.1", 2049, "tcp", "none", 4, 2, 8, 1048576 },
        { "nfs4", V6_OPTS, "/mnt/v6", "[fd00::1]:/x", 0, "fd00::1", 2049, "tcp", "none", 4, 2, 2, 1048576 },
        { "nfs4", "vers=4.1,proto=rdma,port=20049,addr=192.168.1.1", "/r", "ib:/r", 0, "192.168.1.1", 20049,
          "rdma", "none", 4, 1, 1, 0 },
        /* 5 */
        { "nfs4", "vers=4.1,proto=rdma6,port=20049,addr=fd00::9", "/r6", "[fd00::9]:/r", 0, "fd00::9", 20049, "rdma",
          "none", 4, 1, 1, 0 },
        { "nfs4", "vers=4.2,proto=tcp,xprtsec=mtls,addr=10.0.0.1", "/t", "s:/t", 0, "10.0.0.1", 2049, "tcp", "mtls",
          4, 2, 1, 0 },
        { "nfs4", "vers=4.2,proto=tcp,xprtsec=tls,addr=10.0.0.1", "/t", "s:/t", 0, "10.0.0.1", 2049, "tcp", "tls", 4,
          2, 1, 0 },
        { "nfs4", "vers=4.0,port=2050,addr=10.0.0.1", "/p", "s:/p", 0, "10.0.0.1", 2050, "tcp", "none", 4, 0, 1,
          0 },
        { "nfs", "vers=3,proto=udp,port=2049,addr=10.0.0.1", "/u", "s:/u", 0, "10.0.0.1", 2049, "udp", "none", 3, 0,
          1, 0 },
        /* 10: no vers=: from the fs type */
        { "nfs4", "addr=10.0.0.1", "/x", "s:/x", 0, "10.0.0.1", 2049, "tcp", "none", 4, 0, 1, 0 },
        { "nfs", "addr=10.0.0.1", "/x", "s:/x", 0, "10.0.0.1", 2049, "tcp", "none", 3, 0, 1, 0 },
        { "nfs4", "vers=4,addr=10.0.0.1", "/x", "s:/x", 0, "10.0.0.1", 2049, "tcp", "none", 4, 0, 1, 0 },
        { "nfs", "vers=bogus,addr=10.0.0.1", "/x", "s:/x", 0, "10.0.0.1", 2049, "tcp", "none", 3, 0, 1, 0 },
        /* odd values fall back to defaults */
        { "nfs", "vers=3,nconnect=0,port=0,addr=10.0.0.1", "/x", "s:/x", 0, "10.0.0.1", 2049, "tcp", "none", 3, 0, 1, 0 },
        /* 15 */
        { "nfs", "vers=3,nconnect=abc,port=99999,rsize=x,addr=10.0.0.1", "/x", "s:/x", 0, "10.0.0.1", 2049, "tcp",
          "none", 3, 0, 1, 0 },
        /* the last occurrence wins */
        { "nfs", "vers=3,nconnect=2,nconnect=6,addr=10.0.0.2,addr=10.0.0.1", "/x", "s:/x", 0, "10.0.0.1", 2049, "tcp",
          "none", 3, 0, 6, 0 },
        /* scope id of a link-local server */
        { "nfs4", "vers=4.2,addr=fe80::1%eth0", "/x", "[fe80::1%eth0]:/x", 0, "fe80::1", 2049, "tcp", "none", 4, 2, 1, 0 },
        /* quoted values with commas do not break the parse */
        { "nfs4", "vers=4.1,context=\"system_u:object_r:nfs_t:s0:c1,c2\",nconnect=3,addr=10.0.0.1", "/x", "s:/x", 0,
          "10.0.0.1", 2049, "tcp", "none", 4, 1, 3, 0 },
        /* NULL target and source become "" */
        { "nfs", "vers=3,addr=10.0.0.1", NULL, NULL, 0, "10.0.0.1", 2049, "tcp", "none", 3, 0, 1, 0 },
        /* 20: not NFS mounts, or nothing the kernel keys on */
        { "ext4", "rw,relatime", "/", "/dev/sda1", -ENOENT, NULL, 0, NULL, NULL, 0, 0, 0, 0 },
        { NULL, V3_OPTS, "/", "x", -ENOENT, NULL, 0, NULL, NULL, 0, 0, 0, 0 },
        { "nfsd", "rw", "/proc/fs/nfsd", "nfsd", -ENOENT, NULL, 0, NULL, NULL, 0, 0, 0, 0 },
        { "nfs4x", V41_OPTS, "/", "x", -ENOENT, NULL, 0, NULL, NULL, 0, 0, 0, 0 },
        { "NFS", V3_OPTS, "/", "x", -ENOENT, NULL, 0, NULL, NULL, 0, 0, 0, 0 },
        /* 25 */
        { "nfs", "vers=3,proto=tcp", "/x", "s:/x", -ENOENT, NULL, 0, NULL, NULL, 0, 0, 0, 0 },
        { "nfs", "vers=3,addr=nfs.example.com", "/x", "s:/x", -ENOENT, NULL, 0, NULL, NULL, 0, 0, 0, 0 },
        { "nfs", "vers=3,addr", "/x", "s:/x", -ENOENT, NULL, 0, NULL, NULL, 0, 0, 0, 0 }, /* a bare flag */
        { "nfs", "vers=3,addr=", "/x", "s:/x", -ENOENT, NULL, 0, NULL, NULL, 0, 0, 0, 0 },
        { "nfs", "", "/x", "s:/x", -ENOENT, NULL, 0, NULL, NULL, 0, 0, 0, 0 },
        /* 30 */
        { "nfs", NULL, "/x", "s:/x", -ENOENT, NULL, 0, NULL, NULL, 0, 0, 0, 0 },
};
/* clang-format on */

START_TEST(test_from_entry)
{
        struct nfs_mount m = { .port = 4242 };
        char buf[NFS_ADDR_STRLEN];
        int r = nfs_mount_from_entry(entry_rows[_i].fstype, entry_rows[_i].opts,
                                     entry_rows[_i].target, entry_rows[_i].source,
                                     makedev(0, 50 + _i), &m);
        ck_assert_msg(r == entry_rows[_i].rc, "row %d: rc %d, want %d", _i, r, entry_rows[_i].rc);
        if (r < 0) {
                ck_assert_uint_eq(m.port, 4242);
                return;
        }
        ck_assert_str_eq(nfs_addr_to_string(&m.addr, buf), entry_rows[_i].addr);
        ck_assert_uint_eq(m.port, entry_rows[_i].port);
        ck_assert_str_eq(m.transport, entry_rows[_i].transport);
        ck_assert_str_eq(m.xprtsec, entry_rows[_i].xprtsec);
        ck_assert_int_eq(m.vers.major, entry_rows[_i].major);
        ck_assert_int_eq(m.vers.minor, entry_rows[_i].minor);
        ck_assert_uint_eq(m.nconnect, entry_rows[_i].nconnect);
        ck_assert_uint_eq(m.rsize, entry_rows[_i].rsize);
        ck_assert_str_eq(m.target, entry_rows[_i].target ? entry_rows[_i].target : "");
        ck_assert_str_eq(m.source, entry_rows[_i].source ? entry_rows[_i].source : "");
        ck_assert(m.dev == makedev(0, 50 + _i));
        nfs_mount_done(&m);
        ck_assert_ptr_null(m.target);
}
END_TEST

/* ---- building a client table from rows ---- */

struct entry {
        const char *fstype, *opts, *target, *source;
};

#define MAXM 4

static void build(struct clients *c, const struct entry *e, const char *servers, int *ret_bad)
{
        for (size_t i = 0; i < MAXM && e[i].fstype; i++) {
                struct nfs_mount m;
                ck_assert_int_eq(nfs_mount_from_entry(e[i].fstype, e[i].opts, e[i].target,
                                                      e[i].source, makedev(0, 40 + (unsigned)i),
                                                      &m),
                                 0);
                ck_assert_int_eq(clients_add_mount(c, &m), 0);
                ck_assert_ptr_null(m.target); /* ownership taken */
        }
        ck_assert_int_eq(clients_group(c), 0);
        int bad = clients_add_nfsfs_servers(c, servers, NULL, 0);
        ck_assert_int_ge(bad, 0);
        if (ret_bad)
                *ret_bad = bad;
}

/* "addr:port vN.M proto[/xprtsec] nconnect=N [targets]" or "... hidden", ';'-joined */
static char *render_clients(const struct clients *c)
{
        char *s = strdup("");
        for (size_t i = 0; i < c->n; i++) {
                const struct nfs_client *cl = &c->v[i];
                char a[NFS_ADDR_STRLEN];
                sbuf_add(&s, "%s%s:%u v%d.%d %s", i ? ";" : "",
                         nfs_addr_to_string(&cl->key.addr, a), cl->key.port, cl->key.vers.major,
                         cl->key.vers.minor, cl->key.transport);
                if (strcmp(cl->key.xprtsec, "none") != 0)
                        sbuf_add(&s, "/%s", cl->key.xprtsec);
                if (cl->hidden) {
                        sbuf_add(&s, " hidden");
                        ck_assert_uint_eq(cl->nconnect, 0);
                        ck_assert_uint_eq(cl->nmounts, 0);
                        continue;
                }
                sbuf_add(&s, " nconnect=%u [", cl->nconnect);
                for (size_t j = 0; j < cl->nmounts; j++)
                        sbuf_add(&s, "%s%s", j ? " " : "", c->mounts[cl->mounts[j]].target);
                sbuf_add(&s, "]");
        }
        return s;
}

#define NFS3(o, t)                                        \
        {                                                 \
                "nfs", "vers=3,proto=tcp," o, t, "srv:" t \
        }
#define NFS4(o, t)                     \
        {                              \
                "nfs4", o, t, "srv:" t \
        }

/* clang-format off */
static const struct {
        struct entry e[MAXM];
        const char *servers;
        int bad;
        const char *clients;
} group_rows[] = {
        /* 0: two mounts of one server, typed with two names: one client, the first mount's nconnect */
        { { { "nfs", "vers=3,nconnect=4,addr=10.0.0.1", "/a", "name1:/a" },
            { "nfs", "vers=3,nconnect=4,addr=10.0.0.1", "/b", "name2:/b" } },
          NULL, 0, "10.0.0.1:2049 v3.0 tcp nconnect=4 [/a /b]" },
        /* v3 and v4.1 of one address: two clients */
        { { NFS3("nconnect=4,addr=10.0.0.1", "/a"), NFS4("vers=4.1,addr=10.0.0.1", "/b") },
          NULL, 0, "10.0.0.1:2049 v3.0 tcp nconnect=4 [/a];10.0.0.1:2049 v4.1 tcp nconnect=1 [/b]" },
        /* 4.1 and 4.2: two clients */
        { { NFS4("vers=4.1,nconnect=2,addr=10.0.0.1", "/a"), NFS4("vers=4.2,addr=10.0.0.1", "/b"),
            NFS4("vers=4.2,addr=10.0.0.1", "/c") },
          NULL, 0, "10.0.0.1:2049 v4.1 tcp nconnect=2 [/a];10.0.0.1:2049 v4.2 tcp nconnect=1 [/b /c]" },
        /* another port */
        { { NFS4("vers=4.1,addr=10.0.0.1", "/a"), NFS4("vers=4.1,port=2050,addr=10.0.0.1", "/b") },
          NULL, 0, "10.0.0.1:2049 v4.1 tcp nconnect=1 [/a];10.0.0.1:2050 v4.1 tcp nconnect=1 [/b]" },
        /* tcp vs rdma, tls vs none vs mtls */
        { { NFS4("vers=4.1,addr=10.0.0.1", "/a"), NFS4("vers=4.1,proto=rdma,addr=10.0.0.1", "/b"),
            NFS4("vers=4.1,xprtsec=tls,addr=10.0.0.1", "/c"), NFS4("vers=4.1,xprtsec=mtls,addr=10.0.0.1", "/d") },
          NULL, 0,
          "10.0.0.1:2049 v4.1 tcp nconnect=1 [/a];10.0.0.1:2049 v4.1 rdma nconnect=1 [/b];"
          "10.0.0.1:2049 v4.1 tcp/tls nconnect=1 [/c];10.0.0.1:2049 v4.1 tcp/mtls nconnect=1 [/d]" },
        /* 5: tcp and tcp6 spellings of one IPv6 server, two textual forms of its address */
        { { NFS4("vers=4.2,proto=tcp6,nconnect=2,addr=fd00::1", "/a"),
            NFS4("vers=4.2,proto=tcp6,nconnect=2,addr=fd00:0:0::1", "/b") },
          NULL, 0, "fd00::1:2049 v4.2 tcp nconnect=2 [/a /b]" },
        /* other addresses */
        { { NFS3("addr=10.0.0.1", "/a"), NFS3("addr=10.0.0.2", "/b") },
          NULL, 0, "10.0.0.1:2049 v3.0 tcp nconnect=1 [/a];10.0.0.2:2049 v3.0 tcp nconnect=1 [/b]" },
        /* nfsfs: the Debian 6.1 sample, every client visible */
        { { NFS3("nconnect=4,addr=10.99.0.1", "/a") },
          "NV SERVER   PORT USE HOSTNAME\nv3 0a630001  801   2 10.99.0.1\n", 0,
          "10.99.0.1:2049 v3.0 tcp nconnect=4 [/a]" },
        /* a client only another mount namespace uses */
        { { { NULL } },
          "NV SERVER   PORT USE HOSTNAME\nv3 0a630001  801   1 10.99.0.1\n", 0, "10.99.0.1:2049 v3.-1 tcp hidden" },
        /* two v4 clients in nfsfs, one visible: one hidden with the minor unknown */
        { { NFS4("vers=4.1,addr=10.99.0.1", "/a") },
          "NV SERVER   PORT USE HOSTNAME\nv4 0a630001  801   1 10.99.0.1\nv4 0a630001  801   1 10.99.0.1\n", 0,
          "10.99.0.1:2049 v4.1 tcp nconnect=1 [/a];10.99.0.1:2049 v4.-1 tcp hidden" },
        /* 10: IPv6 hex, other port, no trailing newline, no header */
        { { { NULL } }, "v4 fd000000000000000000000000000001  802   1 fd00::1", 0, "fd00::1:2050 v4.-1 tcp hidden" },
        /* malformed lines are counted and skipped */
        { { { NULL } },
          "NV SERVER   PORT USE HOSTNAME\n"
          "v5 0a630001  801   1 x\n"        /* version */
          "v33 0a630001  801   1 x\n"       /* version */
          "x3 0a630001  801   1 x\n"        /* not v */
          "v3 0a63zz01  801   1 x\n"        /* hex */
          "v3 0a630001  zzz   1 x\n"        /* port */
          "v3 0a630001  fffff 1 x\n"        /* port > 65535 */
          "v3 0a630001  801\n"              /* no use count */
          "v3 0a630001  801   x x\n"        /* use count */
          "v3 10.99.0.1  801  1 x\n"        /* dotted */
          "\n"
          "v3 0a630002  801   1 ok\n",
          9, "10.99.0.2:2049 v3.-1 tcp hidden" },
        /* visible clients over another transport count too (nfsfs cannot tell them apart) */
        { { NFS3("addr=10.99.0.1", "/a"), { "nfs", "vers=3,proto=rdma,port=2049,addr=10.99.0.1", "/b", "s:/b" } },
          "v3 0a630001 801 1 x\nv3 0a630001 801 1 x\n", 0,
          "10.99.0.1:2049 v3.0 tcp nconnect=1 [/a];10.99.0.1:2049 v3.0 rdma nconnect=1 [/b]" },
        /* a visible client of another port does not hide one on 2049 */
        { { NFS3("port=2050,addr=10.99.0.1", "/a") }, "v3 0a630001 801 1 x\n", 0,
          "10.99.0.1:2050 v3.0 tcp nconnect=1 [/a];10.99.0.1:2049 v3.-1 tcp hidden" },
        /* NULL and empty texts */
        { { NFS3("addr=10.0.0.1", "/a") }, NULL, 0, "10.0.0.1:2049 v3.0 tcp nconnect=1 [/a]" },
        /* 15 */
        { { NFS3("addr=10.0.0.1", "/a") }, "", 0, "10.0.0.1:2049 v3.0 tcp nconnect=1 [/a]" },
};
/* clang-format on */

START_TEST(test_group)
{
        struct clients c = { 0 };
        int bad = -1;
        build(&c, group_rows[_i].e, group_rows[_i].servers, &bad);
        ck_assert_int_eq(bad, group_rows[_i].bad);
        char *s = render_clients(&c);
        ck_assert_msg(streq_ptr_(s, group_rows[_i].clients), "row %d:\n%s\nwant:\n%s", _i, s,
                      group_rows[_i].clients);
        free(s);
        clients_done(&c);
        ck_assert_uint_eq(c.n, 0);
        ck_assert_uint_eq(c.nmounts, 0);
}
END_TEST

/* Adding the same nfsfs text twice adds no second hidden client. */
START_TEST(test_nfsfs_twice)
{
        static const struct entry none[MAXM] = { { NULL } };
        const char *text = "v3 0a630001 801 1 x\nv4 0a630001 801 1 x\n";
        struct clients c = { 0 };
        build(&c, none, text, NULL);
        ck_assert_int_eq(clients_add_nfsfs_servers(&c, text, NULL, 0), 0);
        char *s = render_clients(&c);
        ck_assert_str_eq(s, "10.99.0.1:2049 v3.-1 tcp hidden;10.99.0.1:2049 v4.-1 tcp hidden");
        free(s);
        clients_done(&c);
}
END_TEST

START_TEST(test_nfsfs_long_line)
{
        struct clients c = { 0 };
        char *text = NULL;
        char pad[2000];
        memset(pad, 'h', sizeof(pad) - 1);
        pad[sizeof(pad) - 1] = '\0';
        sbuf_add(&text, "v3 0a630001 801 1 %s\nv3 0a630002 801 1 x\n", pad);
        ck_assert_int_eq(clients_add_nfsfs_servers(&c, text, NULL, 0), 0);
        ck_assert_uint_eq(c.n, 2);
        free(text);
        clients_done(&c);
}
END_TEST

/* clang-format off */
static const struct {
        const char *text;
        const char *devs;
} volume_rows[] = {
        { "NV SERVER   PORT DEV          FSID                              FSC\n"
          "v3 0a630001  801 0:31         1:0                               no\n"
          "v4 0a630001  801 0:53         8e1f1c2e3a4b5c6d:9a8b7c6d5e4f3a2b  no\n",
          "0:31 0:53" },
        { "v4 fd000000000000000000000000000001  801 0:60 1:0 no", "0:60" },
        { "v3 0a630001 801 259:65536 1:0 no\n", "259:65536" },
        { "", "" },
        { NULL, "" },
        { "garbage\nv3 0a630001 801 x:y 1:0 no\nX3 0a630001 801 0:31 1:0 no\nv3 0a630001 801\n\n", "" },
};
/* clang-format on */

START_TEST(test_volumes)
{
        dev_t *v = (dev_t *)1;
        size_t n = 99;
        ck_assert_int_eq(nfsfs_volumes_parse(volume_rows[_i].text, &v, &n), 0);
        char *s = strdup("");
        for (size_t i = 0; i < n; i++)
                sbuf_add(&s, "%s%u:%u", i ? " " : "", major(v[i]), minor(v[i]));
        ck_assert_str_eq(s, volume_rows[_i].devs);
        if (n == 0)
                ck_assert_ptr_null(v);
        free(s);
        free(v);
}
END_TEST

/* clang-format off */
static const struct {
        const char *a, *b; /* "addr port vers transport xprtsec" */
        bool equal;
} key_rows[] = {
        { "10.0.0.1 2049 3.0 tcp none", "10.0.0.1 2049 3.0 tcp none", true },
        { "10.0.0.1 2049 3.0 tcp none", "10.0.0.2 2049 3.0 tcp none", false },
        { "10.0.0.1 2049 3.0 tcp none", "10.0.0.1 2050 3.0 tcp none", false },
        { "10.0.0.1 2049 4.1 tcp none", "10.0.0.1 2049 4.2 tcp none", false },
        { "10.0.0.1 2049 4.1 tcp none", "10.0.0.1 2049 4.-1 tcp none", false },
        { "10.0.0.1 2049 3.0 tcp none", "10.0.0.1 2049 3.0 rdma none", false },
        { "10.0.0.1 2049 4.2 tcp tls", "10.0.0.1 2049 4.2 tcp mtls", false },
        { "fd00::1 2049 4.2 tcp none", "fd00:0::1 2049 4.2 tcp none", true },
};
/* clang-format on */

static struct client_key key_from(const char *s)
{
        struct client_key k = { 0 };
        char a[64], t[8], x[8];
        ck_assert_int_eq(
                sscanf(s, "%63s %u %d.%d %7s %7s", a, &k.port, &k.vers.major, &k.vers.minor, t, x),
                6);
        ck_assert_int_eq(nfs_addr_parse(a, &k.addr), 0);
        memcpy(k.transport, t, sizeof(t));
        memcpy(k.xprtsec, x, sizeof(x));
        return k;
}

START_TEST(test_key_equal)
{
        struct client_key a = key_from(key_rows[_i].a), b = key_from(key_rows[_i].b);
        ck_assert_int_eq(client_key_equal(&a, &b), key_rows[_i].equal);
        ck_assert_int_eq(client_key_equal(&b, &a), key_rows[_i].equal);
}
END_TEST

/* ---- clients_classify ---- */

/* clang-format off */
static const struct {
        struct entry e[MAXM];
        const char *servers;
        const char *req;
        bool v4_by_name;
        const char *addr;
        const char *client; /* first mount target of the matched client, "hidden", or NULL */
        const char *maybe;  /* first mount targets of the maybe list ("hidden" for hidden) */
} match_rows[] = {
        /* 0: same IP, two names: one client */
        { { { "nfs", "vers=3,nconnect=4,addr=10.0.0.1", "/a", "name1:/a" },
            { "nfs", "vers=3,nconnect=4,addr=10.0.0.1", "/b", "name2:/b" } },
          NULL, "vers=3", false, "10.0.0.1", "/a", "" },
        /* other address: new */
        { { NFS3("addr=10.0.0.1", "/a") }, NULL, "vers=3", false, "10.0.0.2", NULL, "" },
        /* other port: new; the same port: shared; port=2049 is the default */
        { { NFS3("port=2050,addr=10.0.0.1", "/a") }, NULL, "vers=3", false, "10.0.0.1", NULL, "" },
        { { NFS3("port=2050,addr=10.0.0.1", "/a") }, NULL, "vers=3,port=2050", false, "10.0.0.1", "/a", "" },
        { { NFS3("addr=10.0.0.1", "/a") }, NULL, "vers=3,port=2049", false, "10.0.0.1", "/a", "" },
        /* 5: other version, other minor */
        { { NFS3("addr=10.0.0.1", "/a") }, NULL, "vers=4.1", false, "10.0.0.1", NULL, "" },
        { { NFS4("vers=4.1,addr=10.0.0.1", "/a") }, NULL, "vers=4.2", false, "10.0.0.1", NULL, "" },
        { { NFS4("vers=4.1,addr=10.0.0.1", "/a") }, NULL, "v4.1", false, "10.0.0.1", "/a", "" },
        { { NFS4("vers=4.0,addr=10.0.0.1", "/a") }, NULL, "vers=4.0", false, "10.0.0.1", "/a", "" },
        { { NFS4("vers=4.2,addr=10.0.0.1", "/a") }, NULL, "vers=4,minorversion=2", false, "10.0.0.1", "/a", "" },
        /* 10: minor negotiated: maybe on every v4 client of the endpoint */
        { { NFS3("addr=10.0.0.1", "/a"), NFS4("vers=4.1,addr=10.0.0.1", "/b"), NFS4("vers=4.2,addr=10.0.0.1", "/c") },
          NULL, "vers=4", false, "10.0.0.1", NULL, "/b /c" },
        /* called as mount.nfs4 without vers=: the same */
        { { NFS3("addr=10.0.0.1", "/a"), NFS4("vers=4.2,addr=10.0.0.1", "/c") },
          NULL, "", true, "10.0.0.1", NULL, "/c" },
        /* version negotiated: maybe on every client of the endpoint */
        { { NFS3("addr=10.0.0.1", "/a"), NFS4("vers=4.2,addr=10.0.0.1", "/c"), NFS4("vers=4.2,addr=10.0.0.9", "/z") },
          NULL, "nconnect=4", false, "10.0.0.1", NULL, "/a /c" },
        { { { NULL } }, NULL, "", false, "10.0.0.1", NULL, "" },
        /* other proto */
        { { NFS3("addr=10.0.0.1", "/a") }, NULL, "vers=3,proto=udp", false, "10.0.0.1", NULL, "" },
        /* 15 */
        { { NFS4("vers=4.1,addr=10.0.0.1", "/a") }, NULL, "vers=4.1,proto=rdma,port=2049", false, "10.0.0.1", NULL, "" },
        { { NFS4("vers=4.1,proto=rdma,port=20049,addr=10.0.0.1", "/a") }, NULL, "vers=4.1,proto=rdma,port=20049",
          false, "10.0.0.1", "/a", "" },
        /* tcp6 is tcp */
        { { NFS4("vers=4.2,proto=tcp6,addr=fd00::1", "/a") }, NULL, "vers=4.2,proto=tcp6", false, "fd00::1", "/a", "" },
        { { NFS4("vers=4.2,proto=tcp6,addr=fd00::1", "/a") }, NULL, "vers=4.2", false, "fd00:0::1", "/a", "" },
        /* xprtsec: NFSv4 folds a mount of another TLS policy into the client (the sharing model) */
        { { NFS4("vers=4.2,xprtsec=tls,addr=10.0.0.1", "/a") }, NULL, "vers=4.2", false, "10.0.0.1", "/a", "" },
        /* 20 */
        { { NFS4("vers=4.2,xprtsec=tls,addr=10.0.0.1", "/a") }, NULL, "vers=4.2,xprtsec=tls", false, "10.0.0.1", "/a", "" },
        { { NFS4("vers=4.2,xprtsec=tls,addr=10.0.0.1", "/a") }, NULL, "vers=4.2,xprtsec=mtls", false, "10.0.0.1", "/a", "" },
        { { NFS4("vers=4.2,addr=10.0.0.1", "/a") }, NULL, "vers=4.2,xprtsec=none", false, "10.0.0.1", "/a", "" },
        /* hidden clients */
        { { { NULL } }, "v3 0a000001 801 1 x\n", "vers=3", false, "10.0.0.1", "hidden", "" },
        { { { NULL } }, "v3 0a000001 801 1 x\n", "vers=4.1", false, "10.0.0.1", NULL, "" },
        /* 25: a hidden v4 client's minor is unknown: counted as shared */
        { { { NULL } }, "v4 0a000001 801 1 x\n", "vers=4.1", false, "10.0.0.1", "hidden", "" },
        { { { NULL } }, "v4 0a000001 801 1 x\n", "vers=4", false, "10.0.0.1", NULL, "hidden" },
        { { { NULL } }, "v4 0a000001 801 1 x\n", "", false, "10.0.0.1", NULL, "hidden" },
        /* a visible client of the right minor wins over a hidden one */
        { { NFS4("vers=4.2,addr=10.0.0.1", "/a") }, "v4 0a000001 801 1 x\nv4 0a000001 801 1 x\n", "vers=4.2", false,
          "10.0.0.1", "/a", "" },
        { { NFS4("vers=4.2,addr=10.0.0.1", "/a") }, "v4 0a000001 801 1 x\nv4 0a000001 801 1 x\n", "vers=4.1", false,
          "10.0.0.1", "hidden", "" },
        /* 30: hidden clients are over tcp/2049 as far as anyone can tell */
        { { { NULL } }, "v3 0a000001 801 1 x\n", "vers=3,port=2050", false, "10.0.0.1", NULL, "" },
        { { { NULL } }, "v3 0a000001 802 1 x\n", "vers=3,port=2050", false, "10.0.0.1", "hidden", "" },
        /* NFSv3 keeps TLS policies apart */
        { { NFS3("xprtsec=tls,addr=10.0.0.1", "/a") }, NULL, "vers=3", false, "10.0.0.1", NULL, "" },
        { { NFS3("addr=10.0.0.1", "/a") }, NULL, "vers=3,xprtsec=tls", false, "10.0.0.1", NULL, "" },
        { { NFS3("xprtsec=tls,addr=10.0.0.1", "/a") }, NULL, "vers=3,xprtsec=tls", false, "10.0.0.1", "/a", "" },
        /* 35: NFSv4.0 and 4.1 fold too; a client of the request's own policy wins */
        { { NFS4("vers=4.0,addr=10.0.0.1", "/a") }, NULL, "vers=4.0,xprtsec=tls", false, "10.0.0.1", "/a", "" },
        { { NFS4("vers=4.1,addr=10.0.0.1", "/a") }, NULL, "vers=4.1,xprtsec=mtls", false, "10.0.0.1", "/a", "" },
        { { NFS4("vers=4.1,addr=10.0.0.1", "/a"), NFS4("vers=4.1,xprtsec=tls,addr=10.0.0.1", "/b") }, NULL,
          "vers=4.1,xprtsec=tls", false, "10.0.0.1", "/b", "" },
        { { NFS4("vers=4.1,xprtsec=tls,addr=10.0.0.1", "/a"), NFS4("vers=4.1,addr=10.0.0.1", "/b") }, NULL,
          "vers=4.1", false, "10.0.0.1", "/b", "" },
        /* a hidden v4 client (its TLS policy not shown) takes a TLS mount */
        { { { NULL } }, "v4 0a000001 801 1 x\n", "vers=4.1,xprtsec=tls", false, "10.0.0.1", "hidden", "" },
        /* 40: a negotiated version may land on a client of another TLS policy */
        { { NFS4("vers=4.2,addr=10.0.0.1", "/a") }, NULL, "xprtsec=tls", false, "10.0.0.1", NULL, "/a" },
};
/* clang-format on */

static const char *first_target(const struct clients *c, const struct nfs_client *cl)
{
        if (cl->hidden)
                return "hidden";
        ck_assert_uint_gt(cl->nmounts, 0);
        return c->mounts[cl->mounts[0]].target;
}

START_TEST(test_match)
{
        struct clients c = { 0 };
        struct optlist l = { 0 };
        struct nfs_request req;
        struct nfs_addr a;
        struct client_match m;

        build(&c, match_rows[_i].e, match_rows[_i].servers, NULL);
        ck_assert_int_eq(optlist_parse(&l, match_rows[_i].req), 0);
        ck_assert_int_eq(nfs_request_parse(&l, match_rows[_i].v4_by_name, &req, NULL), 0);
        ck_assert_int_eq(nfs_addr_parse(match_rows[_i].addr, &a), 0);
        memset(&m, 0xa5, sizeof(m));
        ck_assert_int_eq(clients_classify(&c, &req, &a, &m), 0);

        const char *got = m.client ? first_target(&c, m.client) : NULL;
        ck_assert_msg(streq_ptr_(got, match_rows[_i].client), "row %d: client %s, want %s", _i,
                      S(got), S(match_rows[_i].client));
        char *maybe = strdup("");
        for (size_t i = 0; i < m.nmaybe; i++)
                sbuf_add(&maybe, "%s%s", i ? " " : "", first_target(&c, m.maybe[i]));
        ck_assert_msg(streq_ptr_(maybe, match_rows[_i].maybe), "row %d: maybe '%s', want '%s'", _i,
                      maybe, match_rows[_i].maybe);
        free(maybe);
        client_match_done(&m);
        optlist_done(&l);
        clients_done(&c);
}
END_TEST

/* Each client of the table classified against one request: the rule the plan printer and the
 * policy both read.  Relations in table order, one letter each: S shares, M maybe, A other
 * address, N other netns, E other endpoint, V other version, F folded (another TLS policy). */
/* clang-format off */
static const struct {
        struct entry e[MAXM];
        const char *servers;
        const char *req;
        const char *rel;
} classify_rows[] = {
        { { NFS3("addr=10.0.0.1", "/a"), NFS3("addr=10.0.0.2", "/b") }, NULL, "vers=3", "SA" },
        { { NFS3("addr=10.0.0.1", "/a"), NFS3("port=2050,addr=10.0.0.1", "/b") }, NULL, "vers=3", "SE" },
        { { NFS3("addr=10.0.0.1", "/a"), NFS4("vers=4.1,addr=10.0.0.1", "/b") }, NULL, "vers=4.2", "VV" },
        { { NFS3("addr=10.0.0.1", "/a"), NFS4("vers=4.1,addr=10.0.0.1", "/b") }, NULL, "nconnect=2", "MM" },
        { { NFS3("addr=10.0.0.1", "/a"), NFS4("vers=4.1,addr=10.0.0.1", "/b") }, NULL, "vers=4", "VM" },
        /* nfsfs of this netns lists only the v3 client: the v4.1 one was made from another netns */
        { { NFS3("addr=10.0.0.1", "/a"), NFS4("vers=4.1,addr=10.0.0.1", "/b") }, "v3 0a000001 801 1 x\n",
          "vers=4.1", "VN" },
        { { NFS4("vers=4.2,xprtsec=tls,addr=10.0.0.1", "/a") }, NULL, "vers=4.2", "F" },
        { { NFS3("xprtsec=tls,addr=10.0.0.1", "/a") }, NULL, "vers=3", "E" },
        /* a client of its own policy is reached without trunking; the other stays apart */
        { { NFS4("vers=4.2,addr=10.0.0.1", "/a"), NFS4("vers=4.2,xprtsec=mtls,addr=10.0.0.1", "/b") },
          NULL, "vers=4.2,xprtsec=mtls", "ES" },
        { { NFS4("vers=4.2,xprtsec=tls,addr=10.0.0.1", "/a"), NFS4("vers=4.2,xprtsec=mtls,addr=10.0.0.1", "/b") },
          NULL, "vers=4.2", "FE" },
        /* a visible client settles it; a hidden v4 one of unknown minor then only may be it */
        { { NFS4("vers=4.2,addr=10.0.0.1", "/a") }, "v4 0a000001 801 1 x\nv4 0a000001 801 1 x\n", "vers=4.2",
          "SM" },
        { { { NULL } }, "v4 0a000001 801 1 x\n", "vers=4.1", "S" },
};
/* clang-format on */

START_TEST(test_classify)
{
        static const char letters[] = { [CLIENT_SHARES] = 'S',       [CLIENT_FOLDED] = 'F',
                                        [CLIENT_MAYBE] = 'M',        [CLIENT_OTHER_ADDRESS] = 'A',
                                        [CLIENT_OTHER_NETNS] = 'N',  [CLIENT_OTHER_ENDPOINT] = 'E',
                                        [CLIENT_OTHER_VERSION] = 'V' };
        struct clients c = { 0 };
        struct optlist l = { 0 };
        struct nfs_request req;
        struct nfs_addr a;
        struct client_match m;
        char got[MAXM + 2] = "";

        build(&c, classify_rows[_i].e, classify_rows[_i].servers, NULL);
        ck_assert_int_eq(optlist_parse(&l, classify_rows[_i].req), 0);
        ck_assert_int_eq(nfs_request_parse(&l, false, &req, NULL), 0);
        ck_assert_int_eq(nfs_addr_parse("10.0.0.1", &a), 0);
        ck_assert_int_eq(clients_classify(&c, &req, &a, &m), 0);
        ck_assert_uint_eq(m.n, c.n);
        for (size_t i = 0; i < m.n && i < MAXM + 1; i++)
                got[i] = letters[m.rel[i]];
        ck_assert_msg(strcmp(got, classify_rows[_i].rel) == 0, "row %d: relations %s, want %s", _i,
                      got, classify_rows[_i].rel);
        /* the shared client is the one marked S, the maybe list the ones marked M (none with S) */
        for (size_t i = 0; i < m.n; i++)
                ck_assert_int_eq(m.client == &c.v[i],
                                 m.rel[i] == CLIENT_SHARES || m.rel[i] == CLIENT_FOLDED);
        ck_assert_str_eq(client_relation_to_string(CLIENT_SHARES), "this mount shares it");
        client_match_done(&m);
        optlist_done(&l);
        clients_done(&c);
}
END_TEST

/* Hidden clients' connections from the RPC transport switches (/sys/kernel/sunrpc). */
/* clang-format off */
static const struct {
        struct entry e[MAXM];
        const char *servers;
        const char *switches; /* "addr port nxprts;..." */
        unsigned want;        /* the hidden client's nconnect, 0 unknown */
} hidden_rows[] = {
        /* one hidden client, one switch to it */
        { { { NULL } }, "v3 0a000001 801 1 x\n", "10.0.0.1 2049 4", 4 },
        /* a visible client beside it takes the switch with its own count */
        { { NFS3("nconnect=2,addr=10.0.0.1", "/a") }, "v3 0a000001 801 1 x\nv3 0a000001 801 1 x\n",
          "10.0.0.1 2049 2;10.0.0.1 2049 8", 8 },
        /* other ports and addresses are not its */
        { { { NULL } }, "v3 0a000001 801 1 x\n", "10.0.0.1 111 1;10.0.0.2 2049 16;10.0.0.1 2049 4", 4 },
        /* no switch to it (an old kernel, or not connected): unknown */
        { { { NULL } }, "v3 0a000001 801 1 x\n", "", 0 },
        /* more switches than hidden clients, disagreeing: which is its own cannot be told */
        { { { NULL } }, "v3 0a000001 801 1 x\n", "10.0.0.1 2049 4;10.0.0.1 2049 2", 0 },
        /* two hidden clients that agree */
        { { { NULL } }, "v3 0a000001 801 1 x\nv4 0a000001 801 1 x\n", "10.0.0.1 2049 4;10.0.0.1 2049 4", 4 },
};
/* clang-format on */

START_TEST(test_count_hidden)
{
        struct clients c = { 0 };
        struct rpc_switch sw[8];
        size_t n = 0;
        char *list = strdup(hidden_rows[_i].switches), *save = NULL;

        build(&c, hidden_rows[_i].e, hidden_rows[_i].servers, NULL);
        for (char *t = strtok_r(list, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
                char a[64];
                sw[n] = (struct rpc_switch){ .transport = "tcp" };
                ck_assert_int_eq(sscanf(t, "%63s %u %u", a, &sw[n].port, &sw[n].nxprts), 3);
                ck_assert_int_eq(nfs_addr_parse(a, &sw[n].addr), 0);
                n++;
        }
        clients_hidden_nconnect(&c, sw, n);
        size_t hidden = 0;
        for (size_t i = 0; i < c.n; i++)
                if (c.v[i].hidden) {
                        hidden++;
                        ck_assert_msg(c.v[i].nconnect == hidden_rows[_i].want,
                                      "row %d: hidden nconnect %u, want %u", _i, c.v[i].nconnect,
                                      hidden_rows[_i].want);
                }
        ck_assert_uint_gt(hidden, 0);
        free(list);
        clients_done(&c);
}
END_TEST

/* More than 8 candidate clients: the maybe list is capped, nothing overflows. */
START_TEST(test_match_maybe_cap)
{
        struct clients c = { 0 };
        for (int i = 0; i < 12; i++) {
                struct nfs_mount m;
                char target[16];
                const char *opts = i % 3 == 0   ? "vers=3,addr=10.0.0.1"
                                   : i % 3 == 1 ? "vers=4.1,addr=10.0.0.1"
                                                : "vers=4.2,addr=10.0.0.1";
                snprintf(target, sizeof(target), "/m%d", i);
                ck_assert_int_eq(nfs_mount_from_entry("nfs", opts, target, "s:/x",
                                                      makedev(0, (unsigned)i), &m),
                                 0);
                ck_assert_int_eq(clients_add_mount(&c, &m), 0);
        }
        ck_assert_int_eq(clients_group(&c), 0);
        ck_assert_uint_eq(c.n, 3);
        /* eight more (hidden) clients of the same endpoint */
        ck_assert_int_eq(clients_add_nfsfs_servers(&c,
                                                   "v4 0a000001 801 1 x\nv4 0a000001 801 1 x\n"
                                                   "v4 0a000001 801 1 x\nv4 0a000001 801 1 x\n"
                                                   "v4 0a000001 801 1 x\nv4 0a000001 801 1 x\n"
                                                   "v4 0a000001 801 1 x\nv4 0a000001 801 1 x\n"
                                                   "v4 0a000001 801 1 x\nv4 0a000001 801 1 x\n",
                                                   NULL, 0),
                         0);
        ck_assert_uint_eq(c.n, 3 + 8);
        struct optlist l = { 0 };
        struct nfs_request req;
        struct nfs_addr a;
        struct client_match m;
        ck_assert_int_eq(optlist_parse(&l, ""), 0);
        ck_assert_int_eq(nfs_request_parse(&l, false, &req, NULL), 0);
        ck_assert_int_eq(nfs_addr_parse("10.0.0.1", &a), 0);
        ck_assert_int_eq(clients_classify(&c, &req, &a, &m), 0);
        ck_assert_ptr_null(m.client);
        ck_assert_uint_eq(m.nmaybe, 8);
        client_match_done(&m);
        optlist_done(&l);
        clients_done(&c);
}
END_TEST

/*
 * Regression (fixed; src/core/request.c nfs_request_parse, seen through clients_match): an NFSv4.1
 * RDMA mount without port= lands on port 20049 (the kernel's NFS_RDMA_PORT) and mountinfo
 * shows port=20049; a second mount with the same options is predicted as a new client
 * because the request says port 2049, so its nconnect conflict is never reported.
 */
START_TEST(test_regression_rdma_second_mount)
{
        static const struct entry e[MAXM] = { NFS4(
                "vers=4.1,proto=rdma,port=20049,nconnect=4,addr=10.0.0.1", "/a") };
        struct clients c = { 0 };
        struct optlist l = { 0 };
        struct nfs_request req;
        struct nfs_addr a;
        struct client_match m;
        build(&c, e, NULL, NULL);
        ck_assert_int_eq(optlist_parse(&l, "vers=4.1,proto=rdma,nconnect=8"), 0);
        ck_assert_int_eq(nfs_request_parse(&l, false, &req, NULL), 0);
        ck_assert_int_eq(nfs_addr_parse("10.0.0.1", &a), 0);
        ck_assert_int_eq(clients_classify(&c, &req, &a, &m), 0);
        ck_assert_msg(m.client != NULL,
                      "second RDMA mount (request port %u) not matched with the "
                      "client on port 20049",
                      req.port);
        client_match_done(&m);
        optlist_done(&l);
        clients_done(&c);
}
END_TEST

static Suite *clients_suite(void)
{
        Suite *s = suite_create("clients");
        TCase *tc = tcase_create("mountinfo");
        tcase_add_loop_test(tc, test_from_entry, 0, ELEMS(entry_rows));
        suite_add_tcase(s, tc);

        tc = tcase_create("group");
        tcase_add_loop_test(tc, test_group, 0, ELEMS(group_rows));
        tcase_add_test(tc, test_nfsfs_twice);
        tcase_add_test(tc, test_nfsfs_long_line);
        tcase_add_loop_test(tc, test_volumes, 0, ELEMS(volume_rows));
        tcase_add_loop_test(tc, test_key_equal, 0, ELEMS(key_rows));
        suite_add_tcase(s, tc);

        tc = tcase_create("match");
        tcase_add_loop_test(tc, test_match, 0, ELEMS(match_rows));
        tcase_add_loop_test(tc, test_classify, 0, ELEMS(classify_rows));
        tcase_add_loop_test(tc, test_count_hidden, 0, ELEMS(hidden_rows));
        tcase_add_test(tc, test_match_maybe_cap);
        suite_add_tcase(s, tc);

        TCase *bugs = tcase_create("regressions");
        tcase_add_test(bugs, test_regression_rdma_second_mount);
        suite_add_tcase(s, bugs);
        return s;
}

UNIT_MAIN(clients_suite)
