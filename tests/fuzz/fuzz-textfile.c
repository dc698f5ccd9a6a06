/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The Prometheus textfile (core/statusprom.c) over mounts and transports made from the input:
 * lines "TARGET<TAB>SOURCE<TAB>SUPER-OPTIONS" are mounts, every line is also fed to the
 * mountstats parser (so "device ... mounted on ..." and "xprt:" lines give transports), and
 * the whole is analysed as status does.  The file must stay what node_exporter reads: valid
 * UTF-8, no control byte but the line ends, each line a comment or NAME{LABELS} VALUE.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "core/clients.h"
#include "core/config.h"
#include "shared/escape.h"
#include "core/status.h"
#include "core/statusprom.h"
#include "fuzz.h"

#define MOUNTS_MAX 64

/* NAME{name="value",...} VALUE, or NAME VALUE; the label values' escapes well-formed. */
static void check_series(const char *l, size_t n)
{
        size_t i = strspn(l, "abcdefghijklmnopqrstuvwxyz_");

        if (i == 0 || i >= n)
                abort();
        if (l[i] == '{') {
                for (i++; i < n && l[i] != '}';) {
                        i += strspn(l + i, "abcdefghijklmnopqrstuvwxyz_");
                        if (i + 1 >= n || l[i] != '=' || l[i + 1] != '"')
                                abort();
                        for (i += 2; i < n && l[i] != '"'; i++)
                                if (l[i] == '\\' && (++i >= n || !strchr("\\\"n", l[i])))
                                        abort();
                        if (++i >= n)
                                abort();
                        if (l[i] == ',')
                                i++;
                }
                if (i >= n)
                        abort();
                i++;
        }
        if (l[i] != ' ' || i + 1 >= n)
                abort();
}

static void check_file(const char *text, size_t len)
{
        fuzz_check_utf8(text, len, true);
        for (const char *p = text; p < text + len;) {
                const char *e = memchr(p, '\n', (size_t)(text + len - p));
                if (!e)
                        abort(); /* every line ends */
                if (*p != '#')
                        check_series(p, (size_t)(e - p));
                p = e + 1;
        }
}

static void add_mount(struct clients *c, char *line, unsigned dev)
{
        char *src = strchr(line, '\t'), *opts;
        struct nfs_mount m;

        if (!src || !(opts = strchr(src + 1, '\t')))
                return;
        *src++ = '\0';
        *opts++ = '\0';
        if (nfs_mount_from_entry(dev % 2 ? "nfs4" : "nfs", opts, line, src, makedev(0, dev), &m) ==
                    0 &&
            clients_add_mount(c, &m) < 0)
                nfs_mount_done(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        char *text = fuzz_string(data, size), *out_text = NULL;
        struct clients c = { 0 };
        struct mountstats ms = { 0 };
        struct config conf = { 0 };
        struct status_report rep = { 0 };
        struct status_inputs in = { 0 };
        struct status_facts facts[MOUNTS_MAX + 1] = { 0 };
        unsigned dev = 40;
        size_t len = 0;

        if (!text)
                return 0;
        for (char *save = NULL, *l = strtok_r(text, "\n", &save); l;
             l = strtok_r(NULL, "\n", &save)) {
                if (mountstats_feed(&ms, l) < 0)
                        break;
                if (c.nmounts < MOUNTS_MAX)
                        add_mount(&c, l, dev++);
        }
        if (clients_group(&c) < 0)
                goto out;
        for (size_t i = 0; i < c.nmounts; i++) {
                facts[i].stats = mountstats_take(&ms, c.mounts[i].target);
                facts[i].offline = facts[i].stats && i % 3 ? (int)(i % 2) : -1;
                facts[i].live = facts[i].offline < 0 ? -1 : (int)(i % 5);
                facts[i].ra_now = (long)(i * 128) - 1;
        }
        (void)status_inputs_add(&in, (enum status_input)(size % IN__MAX), "x");
        if (status_analyse_mounts(&c, facts, &conf, 4, &rep) < 0)
                goto out;
        struct strbuf b = { 0 };
        (void)status_prometheus(&b, &rep, &c, &in, "v", size % 2 == 0);
        if ((out_text = strbuf_steal(&b, &len)))
                check_file(out_text, len);
out:
        free(out_text);
        status_report_done(&rep);
        status_inputs_done(&in);
        config_done(&conf);
        mountstats_done(&ms);
        clients_done(&c);
        free(text);
        return 0;
}
