/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* shared/hash.h: FNV-1a and the hash index behind the client and mountstats lookups. */
#include <string.h>

#include "shared/hash.h"
#include "unit.h"

/* FNV-1a 64 reference values (the algorithm's published test vectors). */
static const struct {
        const char *in;
        uint64_t h;
} vectors[] = {
        { "", UINT64_C(0xcbf29ce484222325) },
        { "a", UINT64_C(0xaf63dc4c8601ec8c) },
        { "foobar", UINT64_C(0x85944171f73967e8) },
};

START_TEST(test_fnv1a)
{
        const char *in = vectors[_i].in;
        ck_assert_uint_eq(hash_bytes(HASH_INIT, in, strlen(in)), vectors[_i].h);
}
END_TEST

/* Chaining: hashing "foo" then "bar" is hashing "foobar" (server, then export, then ...). */
START_TEST(test_fnv1a_chain)
{
        uint64_t h = hash_bytes(HASH_INIT, "foo", 3);
        ck_assert_uint_eq(hash_bytes(h, "bar", 3), hash_bytes(HASH_INIT, "foobar", 6));
        ck_assert_uint_ne(hash_bytes(HASH_INIT, "ab", 2), hash_bytes(HASH_INIT, "ba", 2));
}
END_TEST

/* Every id stored under `hash`, as a bit set (ids < 64), and how many times each came. */
static uint64_t lookup(const struct hindex *h, uint64_t hash, unsigned *ret_count)
{
        size_t pos = 0, id;
        uint64_t seen = 0;
        unsigned count = 0;
        while (hindex_next(h, hash, &pos, &id)) {
                ck_assert_uint_lt(id, 64);
                seen |= UINT64_C(1) << id;
                count++;
        }
        *ret_count = count;
        return seen;
}

START_TEST(test_hindex_empty)
{
        struct hindex h = { 0 };
        unsigned count;
        ck_assert_uint_eq(lookup(&h, 42, &count), 0);
        ck_assert_uint_eq(count, 0);
        hindex_done(&h);
}
END_TEST

/*
 * Ids under equal hashes (a collision the caller resolves), under hashes that land in the
 * last slot and wrap to the first, through the growths at 8, 16 and 32 entries.
 */
START_TEST(test_hindex_collisions)
{
        struct hindex h = { 0 };
        unsigned count;
        for (size_t id = 0; id < 40; id++) {
                /* ids 0..9 share hash 15, 10..19 hash 31; the rest one each */
                uint64_t hash = id < 10 ? 15 : id < 20 ? 31 : 1000 + id;
                ck_assert_int_eq(hindex_add(&h, hash, id), 0);
                ck_assert_uint_ge(h.cap, 2 * h.n); /* at most half full */
        }
        ck_assert_uint_eq(h.n, 40);
        ck_assert_uint_eq(lookup(&h, 15, &count), UINT64_C(0x3ff));
        ck_assert_uint_eq(count, 10);
        ck_assert_uint_eq(lookup(&h, 31, &count), UINT64_C(0x3ff) << 10);
        ck_assert_uint_eq(count, 10);
        for (size_t id = 20; id < 40; id++) {
                ck_assert_uint_eq(lookup(&h, 1000 + id, &count), UINT64_C(1) << id);
                ck_assert_uint_eq(count, 1);
        }
        ck_assert_uint_eq(lookup(&h, 16, &count), 0); /* a neighbour of a full run */
        ck_assert_uint_eq(count, 0);
        hindex_done(&h);
        ck_assert_ptr_null(h.v);
        ck_assert_uint_eq(h.n + h.cap, 0);
}
END_TEST

/* Many entries keyed by their hashed names: every one found again, and only it. */
START_TEST(test_hindex_many)
{
        enum { N = 5000 };
        struct hindex h = { 0 };
        char name[32];
        for (size_t id = 0; id < N; id++) {
                int len = snprintf(name, sizeof(name), "server%zu:/export", id);
                ck_assert_int_eq(hindex_add(&h, hash_bytes(HASH_INIT, name, (size_t)len), id), 0);
        }
        for (size_t id = 0; id < N; id++) {
                int len = snprintf(name, sizeof(name), "server%zu:/export", id);
                size_t pos = 0, got, found = 0;
                while (hindex_next(&h, hash_bytes(HASH_INIT, name, (size_t)len), &pos, &got))
                        found += got == id;
                ck_assert_uint_eq(found, 1);
        }
        hindex_done(&h);
}
END_TEST

static Suite *make_suite(void)
{
        Suite *s = suite_create("hash");
        TCase *tc = tcase_create("shared");
        tcase_add_loop_test(tc, test_fnv1a, 0, ELEMS(vectors));
        tcase_add_test(tc, test_fnv1a_chain);
        tcase_add_test(tc, test_hindex_empty);
        tcase_add_test(tc, test_hindex_collisions);
        tcase_add_test(tc, test_hindex_many);
        suite_add_tcase(s, tc);
        return s;
}

UNIT_MAIN(make_suite)
