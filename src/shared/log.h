/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "shared/macro.h"

/* All output goes to stderr prefixed with the program name; info only with -v. */
void report_set_verbose(int v);
int report_verbose(void);
void log_error(const char *fmt, ...) _printf_(1, 2);
void log_warning(const char *fmt, ...) _printf_(1, 2);
void log_info(const char *fmt, ...) _printf_(1, 2);
