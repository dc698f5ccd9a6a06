/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/xprtsec.h"

#include "shared/macro.h"

static const char *const words[] = {
        [TLS_NONE] = "none",
        [TLS_TLS] = "tls",
        [TLS_MTLS] = "mtls",
};

const char *xprtsec_word(const char *v)
{
        for (size_t i = 0; v && i < ELEMENTSOF(words); i++)
                if (streq(v, words[i]))
                        return words[i];
        return NULL;
}

enum tls_level tls_level_of(const char *xprtsec)
{
        for (size_t i = 0; xprtsec && i < ELEMENTSOF(words); i++)
                if (streq(xprtsec, words[i]))
                        return (enum tls_level)i;
        return TLS_NONE;
}

const char *tls_level_to_string(enum tls_level l)
{
        return words[l];
}
