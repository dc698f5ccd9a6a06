/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Mount options as mountinfo shows them, /proc/fs/nfsfs text, and the client grouping. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "core/clients.h"
#include "core/mountinfo.h"
#include "core/nfsfs.h"
#include "core/policy.h"
#include "core/readahead.h"
#include "core/verdict.h"
#include "core/verify.h"
#include "fuzz.h"
#include "shared/macro.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct clients c = { 0 };
        struct nfs_mount m;
        char *text = fuzz_string(data, size);
        dev_t *devs = NULL;
        size_t ndevs = 0;

        if (!text)
                return 0;
        /* each line is a mountinfo line (split in place, as the scan does), or else a super
         * options string of an nfs mount */
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
                _cleanup_free_ char *copy = strdup(line);
                struct mountinfo_entry e;
                int r = !copy ? -ENOMEM
                        : mountinfo_split(copy, &e) == 0
                                ? nfs_mount_from_entry(e.fstype, e.super_opts, e.target, e.source,
                                                       e.dev, &m)
                                : nfs_mount_from_entry("nfs", line, "/mnt/x", "s:/x",
                                                       makedev(0, 50), &m);
                if (r == 0 && clients_add_mount(&c, &m) < 0)
                        nfs_mount_done(&m);
        }
        (void)clients_group(&c);
        free(text);
        text = fuzz_string(data, size);
        (void)clients_add_nfsfs_servers(&c, text, NULL, 0);
        if (nfsfs_volumes_parse(text, &devs, &ndevs) == 0)
                free(devs);
        /* the decisions for the first clients (every client against every other is the
         * harness's cost, not the helper's) */
        for (size_t i = 0; i < c.n && i < 64; i++) {
                struct nfs_request req = { .vers = c.v[i].key.vers,
                                           .transport = "tcp",
                                           .port = 2049,
                                           .xprtsec = "none",
                                           .nconnect = 8,
                                           .sec = "krb5" };
                /* every other client against a TLS request: the folding and its findings */
                if (i % 2)
                        snprintf(req.xprtsec, sizeof(req.xprtsec), "%s",
                                 i % 4 == 1 ? "tls" : "mtls");
                struct client_match cm;
                struct findings f = { 0 };
                if (clients_classify(&c, &req, &c.v[i].key.addr, &cm) < 0)
                        continue;
                struct policy_input pin = { &req,          false, &cm, POLICY_WARN, POLICY_REFUSE,
                                            POLICY_REFUSE, &c,    "x", true };
                struct verdict v = policy_decide(&pin);
                (void)verdict_nconnect_finding(&v, &c, &f);
                (void)verdict_krb5_finding(&v, &c, &req, &f);
                (void)verdict_names_finding(&v, &c, "x", &f);
                (void)verdict_tls_finding(&v, &c, &req, &f);
                if (c.nmounts) {
                        const struct nfs_mount *nm = &c.mounts[i % c.nmounts];
                        struct verify_result vr = verify_mount(nm, &v, &c.v[i].key.addr, &c,
                                                               POLICY_REFUSE);
                        (void)verify_findings(&vr, "/mnt/x", nm, &c.v[i].key.addr, &c, &f);
                        struct read_ahead ra = { READ_AHEAD_RSIZE_MULT, 15, 0 };
                        dev_t sbs[1] = { makedev(0, 50) };
                        (void)read_ahead_plan(&ra, nm->dev, nm->rsize, nm->nconnect, 0, sbs, 1);
                }
                findings_done(&f);
                client_match_done(&cm);
        }
        clients_done(&c);
        free(text);
        return 0;
}
