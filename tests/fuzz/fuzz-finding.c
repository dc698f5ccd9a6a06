/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The finding printer and the escapes (shared/escape.c, core/status.c): whatever bytes a mount
 * point or a finding's text holds, the line printed is one line of valid UTF-8 with no control
 * byte, and a Prometheus label value is one quoted string the text format reads back.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/status.h"
#include "core/statusprom.h"
#include "shared/escape.h"
#include "fuzz.h"

/* "..." with only \\, \" and \n escapes inside, and nothing after the closing quote. */
static void check_label_value(const char *s, size_t n)
{
        size_t i = 1;

        if (n < 2 || s[0] != '"')
                abort();
        for (; i < n && s[i] != '"'; i++)
                if (s[i] == '\\' && (++i >= n || !strchr("\\\"n", s[i])))
                        abort();
        if (i != n - 1)
                abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        char *text = fuzz_string(data, size), *line, *esc, *buf = NULL;
        size_t len = 0;

        if (!text)
                return 0;
        /* the code and the target are fixed strings and paths; the text is the input's */
        struct status_finding f = {
                .sev = SEV_WARNING, .code = F_NCONNECT_INHERITED, .target = text, .text = text
        };
        if ((line = status_finding_line(&f))) {
                fuzz_check_utf8(line, strlen(line), false);
                free(line);
        }
        if ((esc = escape_text(text, ESCAPE_CONTROL))) {
                /* log.c's rule: no control byte stays; the rest of the bytes do */
                for (const char *p = esc; *p; p++)
                        if ((unsigned char)*p < 0x20 || *p == 0x7f)
                                abort();
                free(esc);
        }
        struct strbuf out = { 0 };
        prom_label_value(&out, text);
        if ((buf = strbuf_steal(&out, &len))) {
                fuzz_check_utf8(buf, len, false);
                check_label_value(buf, len);
                free(buf);
        }
        free(text);
        return 0;
}
