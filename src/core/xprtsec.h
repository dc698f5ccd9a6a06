/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/*
 * The words of the xprtsec= option (nfs(5)), one table (core/xprtsec.c) that the option check,
 * the claims, the records, the client key and `nfs-tuned status` all read: each word's place
 * is its protection, weakest first.
 */
enum tls_level { TLS_NONE, TLS_TLS, TLS_MTLS }; /* weakest first */

/* The table's own text of an xprtsec word (static), or NULL when `v` is none of them or NULL. */
const char *xprtsec_word(const char *v);
/* The protection of an xprtsec= value: "" and "none" are none; an unknown word counts as none. */
enum tls_level tls_level_of(const char *xprtsec);
const char *tls_level_to_string(enum tls_level l);
