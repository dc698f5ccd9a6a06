/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>

#include "core/config.h"

/* Largest config file read, in bytes. */
#define CONFIG_FILE_MAX (1024 * 1024)
/* Most drop-in files read. */
#define CONFIG_DROPINS_MAX 256

/*
 * The config file and its drop-ins (<config>.d/NAME.conf, sorted).  When `check_owner`, a file
 * not owned by root or writable by group/other is skipped with an error entry.  A missing
 * file is no error.  0, or -ENOMEM.
 */
int load_config(const char *path, bool check_owner, struct config *c);
