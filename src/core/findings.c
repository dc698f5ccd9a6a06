/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/findings.h"

#include <stdarg.h>
#include <stdio.h>

#include "shared/array.h"

void findings_done(struct findings *f)
{
        for (size_t i = 0; i < f->n; i++)
                free(f->v[i].text);
        free(f->v);
        *f = (struct findings){ 0 };
}

int findings_add(struct findings *f, enum severity sev, const char *fmt, ...)
{
        va_list ap;
        char *s;
        int r;

        if (array_grow(&f->v, f->n) < 0)
                return -ENOMEM;
        va_start(ap, fmt);
        r = vasprintf(&s, fmt, ap);
        va_end(ap);
        if (r < 0)
                return -ENOMEM;
        f->v[f->n++] = (struct finding){ sev, s };
        return 0;
}
