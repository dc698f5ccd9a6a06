/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/addr.h"
#include "core/request.h"

/* One NFS mount as /proc/self/mountinfo shows it. */
struct nfs_mount {
        char *target;
        char *source;
        dev_t dev;              /* the superblock's anonymous device: the bdi name */
        struct nfs_addr addr;   /* addr=: the client's server address */
        unsigned port;
        char transport[8];
        char xprtsec[8];
        struct nfs_version vers;
        unsigned nconnect;      /* 1 when not shown */
        unsigned long rsize;
};

/* The kernel's key of an nfs_client (NOTES.md): what decides sharing. */
struct client_key {
        struct nfs_addr addr;
        unsigned port;
        char transport[8];
        char xprtsec[8];
        struct nfs_version vers;
};

/* One client: visible through mounts of this mount namespace, or only in /proc/fs/nfsfs. */
struct nfs_client {
        struct client_key key;
        bool hidden;            /* in nfsfs, no mount here shows it: nconnect unknown */
        bool other_netns;       /* mounts here show it, nfsfs of this netns does not: the
                                 * mount was made from another network namespace */
        unsigned nconnect;      /* 0 when unknown */
        size_t *mounts;         /* indices into clients.mounts */
        size_t nmounts;
};

struct clients {
        struct nfs_mount *mounts;
        size_t nmounts;
        struct nfs_client *v;
        size_t n;
};

void clients_done(struct clients *c);
void nfs_mount_done(struct nfs_mount *m);

/*
 * From one mountinfo entry: fstype, super options, target, source and device.  Returns 0 and
 * fills *ret, or -ENOENT when it is not an NFS mount the kernel keys on an address.
 */
int nfs_mount_from_entry(const char *fstype, const char *super_opts, const char *target,
                         const char *source, dev_t dev, struct nfs_mount *ret);
int clients_add_mount(struct clients *c, struct nfs_mount *m); /* takes ownership */
/* Groups mounts into clients; call after the last clients_add_mount(). */
int clients_group(struct clients *c);
/*
 * Adds the clients of /proc/fs/nfsfs/servers that no mount here accounts for (another mount
 * namespace), and marks the clients of mounts here that the file does not list (made from
 * another network namespace: the kernel keeps clients per netns).  Returns the number of
 * malformed lines skipped.
 */
int clients_add_nfsfs_servers(struct clients *c, const char *text);

bool client_key_equal(const struct client_key *a, const struct client_key *b);
struct client_key client_key_of(const struct nfs_mount *m);
/* The client serves this address, port, transport and TLS policy (any version). */
bool client_endpoint_equal(const struct client_key *k, const struct nfs_request *req,
                           const struct nfs_addr *a);

/* The client a mount with this request to this address will share, or NULL. */
struct client_match {
        const struct nfs_client *client; /* NULL: a new client */
        /* version left to negotiation: the clients of the endpoint it may land on */
        const struct nfs_client *maybe[8];
        size_t nmaybe;
};

void clients_match(const struct clients *c, const struct nfs_request *req,
                   const struct nfs_addr *addr, struct client_match *ret);

/* The superblock devices of /proc/fs/nfsfs/volumes ("v3 0a630001 801 0:31 1:0 no"). */
int nfsfs_volumes_parse(const char *text, dev_t **ret, size_t *ret_n);
