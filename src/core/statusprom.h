/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "core/clients.h"
#include "core/status.h"
#include "core/strbuf.h"

/* The prefix of every metric. */
#define PROM_PREFIX "nfs_tuned_"

/*
 * The report in the Prometheus text format for node_exporter's textfile collector, with its
 * label names (mountpoint as node_filesystem_*, export, mountaddr and protocol as
 * node_mountstats_nfs_*): one series per mount point (the top mount of a stacked mount
 * point) and a gauge per mount figure, the figures of each NFS client and (`transports`)
 * each of its transports once, findings counted by code and mount point, a success gauge per
 * input.  Appended to `out` (the front writes it): 0 or -ENOMEM.
 */
int status_prometheus(struct strbuf *out, const struct status_report *rep, const struct clients *c,
                      const struct status_inputs *in, const char *version, bool transports);
/* When status could not decide (the mount table unreadable): `status_success 0` and the inputs
 * only, so an alert fires instead of the last good file being served on. */
int status_prometheus_failed(struct strbuf *out, const struct status_inputs *in,
                             const char *version);

/*
 * A Prometheus label value, quoted: escape_text(ESCAPE_UTF8) (shared/escape.h), then the text
 * format's own escapes of backslash and double quote.
 */
void prom_label_value(struct strbuf *out, const char *value);
