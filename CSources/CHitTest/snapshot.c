/*
 * snapshot.c - the binary snapshot file: a tree saved by one process and loaded by another.
 *
 * Layout (all little-endian):
 *   header, 32 bytes: magic "HTSNAPSH", u32 version (1), u32 header size (32), u32 slots,
 *                     u32 live nodes, u64 FNV-1a 64 checksum of the records
 *   records, one per slot, RECORD_BYTES each:
 *     u8 alive, u8 generation, u16 zero,
 *     i32 parent, first, last, prev, next, child count,
 *     then the stored fields of fields.h in its order (i32 priority, u32 flags, f64 center x y,
 *     bounds x y w h, anchor x y, transform a b c d tx ty, alpha, insets top left bottom right)
 *   A dead slot's record is all zeros but its generation.
 * Handles survive a round trip: slots and generations are kept. Loading checks everything
 * (sizes, magic, version, checksum, ranges, finiteness, every link, acyclicity) before the tree
 * is handed out; anything off is HT_E_CORRUPT and nothing is leaked.
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>

#define HEADER_BYTES 32u
#define LINK_WORDS 6
#define KIND_BYTES_I32 4u
#define KIND_BYTES_FLAGS 4u
#define KIND_BYTES_F64 8u
#define FIELD_BYTES(kind, name, def, rec, fx) +KIND_BYTES_##kind
#define RECORDS_AT (4u + 4u * LINK_WORDS)
#define RECORD_BYTES (RECORDS_AT HT_STORED_FIELDS(FIELD_BYTES))
static const char MAGIC[8] = {'H', 'T', 'S', 'N', 'A', 'P', 'S', 'H'};

static void put_u32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put_u64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put_f64(uint8_t *p, double v) {
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    put_u64(p, u);
}
static uint32_t get_u32(const uint8_t *p) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)p[i] << (8 * i);
    return v;
}
static uint64_t get_u64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}
static double get_f64(const uint8_t *p) {
    uint64_t u = get_u64(p);
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

static uint64_t fnv1a(const uint8_t *p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* Writers and readers of one stored field of each kind; a reader returns 0 for a value that
 * the field cannot hold. */
static void put_I32(uint8_t *p, int32_t v) { put_u32(p, (uint32_t)v); }
static void put_FLAGS(uint8_t *p, uint32_t v) { put_u32(p, v & (uint32_t)PUBLIC_FLAGS); }
static void put_F64(uint8_t *p, double v) { put_f64(p, v); }
static int get_I32(const uint8_t *p, int32_t *v) {
    *v = (int32_t)get_u32(p);
    return 1;
}
static int get_FLAGS(const uint8_t *p, uint32_t *v) {
    *v = get_u32(p);
    return (*v & ~(uint32_t)HT_FLAG_ALL) == 0;
}
static int get_F64(const uint8_t *p, double *v) {
    *v = get_f64(p);
    return isfinite(*v);
}

ht_status ht_tree_save(const ht_tree *t, void **out_buffer, size_t *out_length) {
    if (!t || !out_buffer || !out_length) return HT_E_INVALID_ARGUMENT;
    size_t n = HEADER_BYTES + (size_t)t->slots * RECORD_BYTES;
    uint8_t *buf = calloc(n, 1);
    if (!buf) return HT_E_NO_MEMORY;
    for (int32_t s = 0; s < t->slots; s++) {
        uint8_t *r = buf + HEADER_BYTES + (size_t)s * RECORD_BYTES;
        r[1] = t->gen[s];
        if (!t->alive[s]) continue;
        r[0] = 1;
        int32_t links[LINK_WORDS] = {t->parent[s], t->first[s], t->last[s],
                                     t->prev[s],   t->next[s],  t->nkids[s]};
        for (int i = 0; i < LINK_WORDS; i++) put_u32(r + 4 + 4 * i, (uint32_t)links[i]);
        size_t at = RECORDS_AT;
#define PUT_FIELD(kind, name, def, rec, fx)                                                    \
    put_##kind(r + at, t->name[s]);                                                            \
    at += KIND_BYTES_##kind;
        HT_STORED_FIELDS(PUT_FIELD)
#undef PUT_FIELD
    }
    memcpy(buf, MAGIC, 8);
    put_u32(buf + 8, 1);
    put_u32(buf + 12, HEADER_BYTES);
    put_u32(buf + 16, (uint32_t)t->slots);
    put_u32(buf + 20, (uint32_t)t->live);
    put_u64(buf + 24, fnv1a(buf + HEADER_BYTES, n - HEADER_BYTES));
    *out_buffer = buf;
    *out_length = n;
    return HT_OK;
}

void ht_free(void *buffer) { free(buffer); }

/* No node is its own ancestor: follow parents with three colours, iteratively. */
static ht_status check_acyclic(const ht_tree *t) {
    uint8_t *state = calloc((size_t)t->slots + 1, 1);
    int32_t *path = malloc(((size_t)t->slots + 1) * sizeof *path);
    ht_status st = HT_OK;
    if (!state || !path) {
        st = HT_E_NO_MEMORY;
        goto done;
    }
    for (int32_t s = 0; s < t->slots && st == HT_OK; s++) {
        if (!t->alive[s] || state[s]) continue;
        int32_t n = 0;
        int32_t a = s;
        while (a >= 0 && state[a] == 0) {
            state[a] = 1; /* on the current path */
            path[n++] = a;
            a = t->parent[a];
        }
        if (a >= 0 && state[a] == 1) st = HT_E_CORRUPT;
        for (int32_t i = 0; i < n; i++) state[path[i]] = 2;
    }
done:
    free(state);
    free(path);
    return st;
}

ht_status ht_tree_load(const void *buffer, size_t length, ht_tree **out_tree) {
    if (!buffer || !out_tree) return HT_E_INVALID_ARGUMENT;
    const uint8_t *buf = buffer;
    if (length < HEADER_BYTES || memcmp(buf, MAGIC, 8) != 0) return HT_E_CORRUPT;
    if (get_u32(buf + 8) != 1 || get_u32(buf + 12) != HEADER_BYTES) return HT_E_CORRUPT;
    uint32_t slots = get_u32(buf + 16), live = get_u32(buf + 20);
    if (slots > HT_MAX_NODES || live > slots) return HT_E_CORRUPT;
    if (length != HEADER_BYTES + (size_t)slots * RECORD_BYTES) return HT_E_CORRUPT;
    if (fnv1a(buf + HEADER_BYTES, length - HEADER_BYTES) != get_u64(buf + 24)) return HT_E_CORRUPT;

    ht_tree *t;
    ht_status st = ht_tree_create((int32_t)slots, &t);
    if (st != HT_OK) return st;
    st = HT_E_CORRUPT;
    t->slots = (int32_t)slots;
    for (int32_t s = 0; s < t->slots; s++) {
        const uint8_t *r = buf + HEADER_BYTES + (size_t)s * RECORD_BYTES;
        t->alive[s] = 0;
        t->gen[s] = r[1];
        t->parent[s] = t->first[s] = t->last[s] = t->prev[s] = t->next[s] = -1;
        t->nkids[s] = 0;
        if (r[1] > GEN_MASK || r[2] || r[3] || r[0] > 1) goto fail;
        if (!r[0]) {
            /* A dead slot's record is zero but for its generation: nothing else may hide there. */
            for (size_t k = 4; k < RECORD_BYTES; k++)
                if (r[k]) goto fail;
            continue;
        }
        int32_t links[LINK_WORDS];
        for (int i = 0; i < LINK_WORDS; i++) links[i] = (int32_t)get_u32(r + 4 + 4 * i);
        for (int i = 0; i < 5; i++)
            if (links[i] < -1 || links[i] >= t->slots) goto fail;
        if (links[5] < 0 || links[5] >= t->slots) goto fail;
        size_t at = RECORDS_AT;
#define GET_FIELD(kind, name, def, rec, fx)                                                    \
    if (!get_##kind(r + at, &t->name[s])) goto fail;                                           \
    at += KIND_BYTES_##kind;
        HT_STORED_FIELDS(GET_FIELD)
#undef GET_FIELD
        t->alive[s] = 1;
        t->parent[s] = links[0];
        t->first[s] = links[1];
        t->last[s] = links[2];
        t->prev[s] = links[3];
        t->next[s] = links[4];
        t->nkids[s] = links[5];
        htr_derive_row(t, s);
    }
    /* Free slots, oldest first; then the live count. */
    t->free_head = t->free_tail = -1;
    t->live = 0;
    for (int32_t s = 0; s < t->slots; s++) {
        if (t->alive[s]) {
            t->live++;
            continue;
        }
        t->next[s] = -1;
        if (t->free_tail >= 0) t->next[t->free_tail] = s;
        else t->free_head = s;
        t->free_tail = s;
    }
    if ((uint32_t)t->live != live) goto fail;
    /* Links: every child list consistent with parents and counts, and no cycles. */
    for (int32_t s = 0; s < t->slots; s++) {
        if (!t->alive[s]) continue;
        int32_t p = t->parent[s];
        if (p >= 0 && !t->alive[p]) goto fail;
        int32_t n = 0, prev = -1;
        for (int32_t c = t->first[s]; c >= 0; c = t->next[c]) {
            if (!t->alive[c] || t->parent[c] != s || t->prev[c] != prev || ++n > t->nkids[s]) goto fail;
            prev = c;
        }
        if (n != t->nkids[s] || t->last[s] != prev) goto fail;
        if (p < 0 && (t->prev[s] >= 0 || t->next[s] >= 0)) goto fail;
    }
    /* Every node that names a parent is in that parent's list: count the claims. Each list
     * holds exactly nkids distinct children of its owner (checked above), so equal counts
     * leave no node outside its parent's list. */
    {
        int32_t *claims = calloc((size_t)t->slots + 1, sizeof *claims);
        if (!claims) {
            st = HT_E_NO_MEMORY;
            goto fail;
        }
        int ok = 1;
        for (int32_t s = 0; s < t->slots; s++)
            if (t->alive[s] && t->parent[s] >= 0) claims[t->parent[s]]++;
        for (int32_t s = 0; s < t->slots && ok; s++)
            if (t->alive[s] && claims[s] != t->nkids[s]) ok = 0;
        free(claims);
        if (!ok) goto fail;
    }
    if ((st = check_acyclic(t)) != HT_OK) goto fail;
    htq_mark_all_dirty(t); /* derived structures are built when the tree is prepared */
    if ((st = ht_tree_validate(t)) != HT_OK) goto fail;
    *out_tree = t;
    return HT_OK;
fail:
    t->slots = 0; /* no blocks were built */
    ht_tree_destroy(t);
    return st == HT_E_NO_MEMORY ? st : HT_E_CORRUPT;
}

ht_status ht_tree_save_file(const ht_tree *t, const char *path) {
    if (!t || !path) return HT_E_INVALID_ARGUMENT;
    void *buf;
    size_t n;
    ht_status st = ht_tree_save(t, &buf, &n);
    if (st != HT_OK) return st;
    FILE *f = fopen(path, "wb");
    if (!f) {
        free(buf);
        return HT_E_IO;
    }
    size_t written = fwrite(buf, 1, n, f);
    int closed = fclose(f);
    free(buf);
    return (written == n && closed == 0) ? HT_OK : HT_E_IO;
}

ht_status ht_tree_load_file(const char *path, ht_tree **out_tree) {
    if (!path || !out_tree) return HT_E_INVALID_ARGUMENT;
    FILE *f = fopen(path, "rb");
    if (!f) return HT_E_IO;
    /* Read to the end in growing blocks, not by the size ftell reports: a directory opens on some
     * systems and reports a size no allocation can meet (its read fails: HT_E_IO), and a pipe
     * has no size at all. */
    ht_status st = HT_OK;
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            size_t grown = cap ? cap * 2 : 65536;
            uint8_t *b = grown > cap ? realloc(buf, grown) : NULL;
            if (!b) {
                st = HT_E_NO_MEMORY;
                break;
            }
            buf = b;
            cap = grown;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) st = HT_E_IO;
            break;
        }
    }
    if (st == HT_OK) st = ht_tree_load(buf, n, out_tree);
    free(buf);
    fclose(f);
    return st;
}
