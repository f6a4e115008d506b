/*
 * fuzz_snapshot.c - libFuzzer harness for the snapshot loader: any bytes must load cleanly or
 * be refused with a status, never crash or read out of bounds. Bytes that load must give a
 * tree that validates, answers hit tests, and saves back to the same bytes.
 *
 *   scripts/fuzz.sh snapshot 60
 */
#include <hittest.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ht_tree *t;
    ht_status st = ht_tree_load(data, size, &t);
    if (st != HT_OK) {
        if (st != HT_E_CORRUPT && st != HT_E_NO_MEMORY) abort();
        return 0;
    }
    if (ht_tree_validate(t) != HT_OK) abort();
    if (ht_tree_prepare(t) != HT_OK) abort();
    if (ht_tree_validate(t) != HT_OK) abort();
    ht_node out;
    for (ht_node h = 0; h < 64; h++) {
        ht_status s = ht_tree_hit_test(t, h, 10, 10, NULL, &out);
        if (s != HT_OK && s != HT_E_BAD_NODE && s != HT_E_STALE_NODE) abort();
    }
    void *again;
    size_t len;
    if (ht_tree_save(t, &again, &len) != HT_OK) abort();
    if (len != size || memcmp(again, data, size) != 0) abort();
    ht_free(again);
    ht_tree_destroy(t);
    return 0;
}
