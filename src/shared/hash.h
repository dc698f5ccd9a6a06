/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* FNV-1a over bytes, chained through `h` (start with HASH_INIT). */
#define HASH_INIT UINT64_C(14695981039346656037)
static inline uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
        for (const unsigned char *b = p; n--; b++)
                h = (h ^ *b) * UINT64_C(1099511628211);
        return h;
}

/*
 * An index from hashes to ids (positions in an array the caller owns): open addressing, kept
 * at most half full, so lookups and inserts are O(1) on average and a table of n entries is
 * built in O(n).  The caller compares the candidates a hash yields.
 */
struct hindex_slot {
        uint64_t hash;
        size_t id1; /* id + 1; 0: empty */
};

struct hindex {
        struct hindex_slot *v;
        size_t cap, n;
};

static inline void hindex_done(struct hindex *h)
{
        free(h->v);
        *h = (struct hindex){ 0 };
}

static inline void hindex_put_(struct hindex_slot *v, size_t cap, uint64_t hash, size_t id1)
{
        size_t i = hash & (cap - 1);
        while (v[i].id1)
                i = (i + 1) & (cap - 1);
        v[i] = (struct hindex_slot){ hash, id1 };
}

/* 0 or -ENOMEM. */
static inline int hindex_add(struct hindex *h, uint64_t hash, size_t id)
{
        if (2 * (h->n + 1) > h->cap) {
                size_t cap = h->cap ? h->cap * 2 : 16;
                struct hindex_slot *v = calloc(cap, sizeof(*v));
                if (!v)
                        return -ENOMEM;
                for (size_t i = 0; i < h->cap; i++)
                        if (h->v[i].id1)
                                hindex_put_(v, cap, h->v[i].hash, h->v[i].id1);
                free(h->v);
                h->v = v;
                h->cap = cap;
        }
        hindex_put_(h->v, h->cap, hash, id + 1);
        h->n++;
        return 0;
}

/* The ids stored under `hash`: start with *pos = 0; false when there are no more. */
static inline bool hindex_next(const struct hindex *h, uint64_t hash, size_t *pos, size_t *ret_id)
{
        if (!h->cap)
                return false;
        size_t i = (*pos ? *pos : (hash & (h->cap - 1)) + 1) - 1;
        for (; h->v[i].id1; i = (i + 1) & (h->cap - 1))
                if (h->v[i].hash == hash) {
                        *ret_id = h->v[i].id1 - 1;
                        *pos = ((i + 1) & (h->cap - 1)) + 1;
                        return true;
                }
        return false;
}
