/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>

#include "core/clients.h"
#include "core/optmap.h"
#include "core/request.h"

enum sharing {
        SHARE_NEW,     /* no client to the endpoint: this mount creates one */
        SHARE_VISIBLE, /* shares a client that mounts here show */
        SHARE_HIDDEN,  /* shares a client no mount here shows: nconnect unknown */
        SHARE_MAYBE,   /* version negotiated: may land on an existing client */
};

enum action {
        ACTION_NONE,
        ACTION_WARN,
        ACTION_REFUSE,
        ACTION_FOLLOW,       /* drop the requested nconnect, say so */
        ACTION_FOLLOW_QUIET, /* the conflict came from a config default: drop it, -v only */
};

struct policy_input {
        const struct nfs_request *req;
        bool nconnect_from_config; /* the requested nconnect is a config default */
        const struct client_match *match;
        enum policy nconnect_policy;
        enum policy krb5_policy;       /* warn or refuse */
        enum policy tls_policy;        /* warn or refuse */
        const struct clients *clients; /* the table the match was made in */
        const char *host;              /* the server name as typed */
        bool warn_shared_names;        /* say when other names share the client */
};

struct verdict {
        enum sharing sharing;
        const struct nfs_client *client;
        unsigned requested; /* 0: none asked */
        unsigned effective; /* connections the mount will have; 0: unknown */
        enum action nconnect;
        enum action krb5;
        enum action names; /* other server names share the client: warn */
        /* TLS: asked (xprtsec=), and the client that gives less (the one it lands on, or one a
         * negotiated version may land on); tls is ACTION_NONE when none gives less */
        enum tls_level tls_want;
        const struct nfs_client *tls_client;
        enum action tls;
        /* nonzero: the nconnect mount.nfs is given instead of the one asked (none, or another
         * value): the client is claimed, not there yet, and whichever mount reaches the kernel
         * first creates it, so every mount of it passes the claimant's value */
        unsigned pass_nconnect;
};

const char *action_to_string(enum action a);
const char *sharing_to_string(enum sharing s);

struct verdict policy_decide(const struct policy_input *in);
/* The TLS the mount gets: its own when it creates a client, else the client's (tls_client's
 * when one a negotiated version may land on gives less). */
enum tls_level verdict_tls_gets(const struct verdict *v);
