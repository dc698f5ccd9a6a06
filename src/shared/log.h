/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "shared/macro.h"
#include "shared/severity.h"

/*
 * All output goes to stderr prefixed with the program name, and after log_open_syslog() to
 * syslog as well (the udev mode: udev keeps a program's stderr at debug level only); info
 * only when verbose.
 */
/* The name that leads each line on stderr (default mount.nfs-tuned). */
void log_set_name(const char *name);
void log_set_verbose(int v);
void log_open_syslog(const char *ident);
int log_verbose(void);
void log_at(enum severity sev, const char *fmt, ...) _printf_(2, 3);
#define log_error(...) log_at(SEV_ERROR, __VA_ARGS__)
#define log_warning(...) log_at(SEV_WARNING, __VA_ARGS__)
#define log_info(...) log_at(SEV_INFO, __VA_ARGS__)
