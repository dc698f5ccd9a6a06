/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>

/* "host:/path" or "[v6addr]:/path"; the host as typed, brackets removed. */
struct nfs_spec {
        char *host;
        char *path;
};

int nfs_spec_parse(const char *spec, struct nfs_spec *ret);
void nfs_spec_done(struct nfs_spec *s);
/* The spec's host is `host` (case-insensitive), as mountinfo's source shows it. */
bool nfs_spec_host_is(const char *spec, const char *host);
