/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>

/* Who runs the helper: the process's credentials, asked here so the front makes no system
 * call of its own. */

/* Running with privileges another user granted (setuid or setgid binary, file capabilities). */
bool creds_privileged_exec(void);
/* A user other than root runs the setuid helper: their input is not the admin's. */
bool creds_untrusted_caller(void);
/* The real user id: who ran the setuid helper. */
unsigned creds_caller_uid(void);
/* The real user is root (mount(8) run by root, udev): only such a run leaves records. */
bool creds_caller_is_root(void);
/* The effective user is root: what it reads as policy must be root's. */
bool creds_effective_root(void);
