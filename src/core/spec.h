/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* "host:/path" or "[v6addr]:/path"; the host as typed, brackets removed. */
struct nfs_spec {
        char *host;
        char *path;
};

int nfs_spec_parse(const char *spec, struct nfs_spec *ret);
void nfs_spec_done(struct nfs_spec *s);
