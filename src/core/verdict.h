/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* What the policies' verdict means, as findings (core/findings.c holds them) and the
 * descriptions of the clients they name. */

#include "core/clients.h"
#include "core/findings.h"
#include "core/policy.h"

/* "10.0.0.1 port 2049, NFSv4.1 over tcp"; NULL only when out of memory.  Caller frees. */
char *verdict_describe_client(const struct nfs_client *cl);
/* "/mnt/a (srv:/a), /mnt/b (srv:/b)" or "no mount of this mount namespace"; NULL: no memory. */
char *verdict_describe_mounts(const struct nfs_client *cl, const struct clients *c);

/*
 * The finding of the nconnect part of a verdict, naming the mounts that set the client, why it
 * matters and what to do; nothing when there is nothing to say.  0 or -ENOMEM.
 */
int verdict_nconnect_finding(const struct verdict *v, const struct clients *c,
                             struct findings *out);
/* Other server names (storage accounts behind one address) share the client: who, and why it
 * matters.  0 or -ENOMEM. */
int verdict_names_finding(const struct verdict *v, const struct clients *c, const char *host,
                          struct findings *out);
/*
 * A mount that asks for xprtsec=tls or mtls and would land on a client of a weaker TLS policy:
 * which client, which mounts set it up, what protection is lacking, what to do.  0 or -ENOMEM.
 */
int verdict_tls_finding(const struct verdict *v, const struct clients *c,
                        const struct nfs_request *req, struct findings *out);
/* What a mount that asked for `want` lacks on a client of `has` ("encryption and ..."; static). */
const char *verdict_tls_lacking(enum tls_level want, enum tls_level has);
/* The same for sec=krb5* on a client with several connections. */
int verdict_krb5_finding(const struct verdict *v, const struct clients *c,
                         const struct nfs_request *req, struct findings *out);
