/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * Takes the exclusive lock of one server endpoint (<rundir>/<name>.lock), waiting for
 * another helper holding it.  Returns the fd to keep open, or -errno.
 */
int lock_server(const char *rundir, const char *name);
