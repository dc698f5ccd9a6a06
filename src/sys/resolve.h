/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>

#include "core/addr.h"

#define RESOLVE_MAX 16

/*
 * Every address of `host` in getaddrinfo() order, as mount.nfs resolves it (AF_UNSPEC, or
 * the family proto= forces); duplicates removed.  Returns the count, or a negative EAI_*
 * value shifted below -1000 so it never collides with -errno.
 */
int resolve_host(const char *host, int family, struct nfs_addr ret[static RESOLVE_MAX]);
const char *resolve_strerror(int r);
