/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>

#include "core/config.h"

/* Largest config file read, in bytes. */
#define CONFIG_FILE_MAX (1024 * 1024)
/* Most drop-in files read. */
#define CONFIG_DROPINS_MAX 256
/* a vendor file the admin masks, as load_config() lists it: "VENDOR" MASKED_BY "ADMIN" */
#define MASKED_BY ": masked by "

/*
 * The layered configuration, later files overriding earlier ones key by key: the vendor's and
 * the image's drop-ins (`vendor_dir`/NAME.conf, sorted), less those that a file of the same
 * name in <path>.d masks; then `path`; then its drop-ins (<path>.d/NAME.conf, sorted; a link
 * to /dev/null there only masks).  When `check_owner`, a file not owned by root or writable
 * by group/other is skipped with an error entry.  A missing file is no error.  Each file read
 * or masked is listed in c->sources.  0, or -ENOMEM.
 */
int load_config(const char *vendor_dir, const char *path, bool check_owner, struct config *c);
