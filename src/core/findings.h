/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>

#include "shared/macro.h"
#include "shared/severity.h"

struct finding {
        enum severity sev;
        char *text;
};

struct findings {
        struct finding *v;
        size_t n;
};

void findings_done(struct findings *f);
/* 0 or -ENOMEM. */
int findings_add(struct findings *f, enum severity sev, const char *fmt, ...) _printf_(3, 4);
