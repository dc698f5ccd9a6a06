/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>

/* The NFS version as the request, mountinfo and the option table read it. */
#define NFS4_MINOR_MAX 2

/* major 0: left to negotiation; minor -1: any v4 minor, negotiated. */
struct nfs_version {
        int major;
        int minor;
};

/* "3", "4.1", "4 (minor negotiated)", "negotiated" */
const char *nfs_version_to_string(struct nfs_version v, char *buf, size_t n);
/* Parses a version ("3", "4.1"): vers= of an option or of a mountinfo line. */
int nfs_version_parse(const char *s, struct nfs_version *ret);
