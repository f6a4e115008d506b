/*
 * hitq.c - the hit-query subsystem's side of the mutation protocol: what each effect of a
 * change invalidates (blocks to rebuild, answer-grid cells), batches, prepare, copies, memory
 * and the validation of the derived structures against the rows.
 */
#include "internal.h"

#include <string.h>

/* A batch that changes more nodes than this drops the answer grid instead of measuring each. */
#define BATCH_LIMIT 256

ht_status htq_init(ht_tree *t) {
    memset(&t->hq, 0, sizeof t->hq);
    t->hq.answers.root = -1;
    t->hq.answers.sub_base = MAX_CODES;
    return HT_OK;
}

void htq_destroy(ht_tree *t) {
    htq_state *q = &t->hq;
    if (q->blocks && t->alive)
        for (int32_t s = 0; s < t->slots; s++)
            if (t->alive[s]) htq_free_block(t, s);
#define HT_ROW_OP(name) free(q->name);
    HTQ_ROWS(HT_ROW_OP)
#undef HT_ROW_OP
    htq_answers_free(&q->answers);
    free(q->edges);
    free(q->batch.slots);
}

ht_status htq_grow(ht_tree *t, int32_t capacity) {
    htq_state *q = &t->hq;
#define HT_ROW_OP(name)                                                                        \
    {                                                                                          \
        void *p = realloc(q->name, (size_t)capacity * sizeof *q->name);                       \
        if (!p) return HT_E_NO_MEMORY;                                                         \
        q->name = p;                                                                           \
    }
    HTQ_ROWS(HT_ROW_OP)
#undef HT_ROW_OP
    /* New rows start clean (the base marks them used one by one). */
    for (int32_t s = t->capacity; s < capacity; s++) {
        q->blocks[s] = NULL;
        q->dirty[s] = 0;
        q->batched[s] = 0;
    }
    return HT_OK;
}

size_t htq_row_bytes(void) {
    const htq_state *q = NULL;
    size_t row = 0;
#define HT_ROW_OP(name) row += sizeof *q->name;
    HTQ_ROWS(HT_ROW_OP)
#undef HT_ROW_OP
    return row;
}

void htq_mark_all_dirty(ht_tree *t) {
    for (int32_t s = 0; s < t->slots; s++)
        if (t->alive[s] && t->nkids[s] > 0) htq_mark_dirty(&t->hq, s, MOVED_MANY);
}

void htq_node_created(ht_tree *t, int32_t s) {
    /* A reused slot may still be listed as dirty; prepare rebuilds or frees it. */
    t->hq.blocks[s] = NULL;
}

void htq_node_freed(ht_tree *t, int32_t s) { htq_free_block(t, s); }

/* The old reach of `s`: measured now, in a batch only at its first change. Outside a batch, a
 * change that keeps the candidates measures the edges of `s`'s subtree instead, to mark only
 * the cells near them after the change. */
void htq_reach_before(ht_tree *t, int32_t s, uint32_t fx) {
    htq_state *q = &t->hq;
    if (q->edges) q->edges->node = -1;
    if (q->answers.root < 0) return;
    if (q->batch.depth == 0) {
        if ((fx & FX_CANDIDATES) || !htq_answers_edges_before(t, s)) htq_answers_touch(t, s);
        return;
    }
    if (q->batch.overflow || q->batched[s]) return;
    int32_t *p = q->batch.slots;
    if (q->batch.count < BATCH_LIMIT && q->batch.count == q->batch.cap) {
        int32_t cap = q->batch.cap ? q->batch.cap * 2 : 64;
        p = realloc(q->batch.slots, (size_t)cap * sizeof *p);
        if (p) {
            q->batch.slots = p;
            q->batch.cap = cap;
        }
    }
    if (q->batch.count == BATCH_LIMIT || !p) {
        /* Too many (or no memory to list them): the grid goes, once. */
        q->batch.overflow = 1;
        htq_drop_answers(t);
        return;
    }
    htq_answers_touch(t, s);
    q->batched[s] = 1;
    q->batch.slots[q->batch.count++] = s;
}

/* Ends the deferral of a batch: every listed node's new reach is invalidated. */
static void batch_flush(ht_tree *t) {
    htq_state *q = &t->hq;
    for (int32_t i = 0; i < q->batch.count; i++) {
        int32_t s = q->batch.slots[i];
        q->batched[s] = 0;
        if (t->alive[s] && q->answers.root >= 0) htq_answers_touch(t, s);
    }
    q->batch.count = 0;
    q->batch.overflow = 0;
}

ht_status ht_tree_begin_batch(ht_tree *t) {
    if (!t) return HT_E_INVALID_ARGUMENT;
    if (htq_busy(t)) return HT_E_BUSY;
    t->hq.batch.depth++;
    return HT_OK;
}

ht_status ht_tree_end_batch(ht_tree *t) {
    if (!t) return HT_E_INVALID_ARGUMENT;
    if (htq_busy(t)) return HT_E_BUSY;
    if (t->hq.batch.depth == 0) return HT_E_INVALID_ARGUMENT;
    if (--t->hq.batch.depth == 0) batch_flush(t);
    return HT_OK;
}

ht_status ht_tree_prepare(ht_tree *t) {
    if (!t) return HT_E_INVALID_ARGUMENT;
    htq_state *q = &t->hq;
    if (q->hooked && q->ndirty) return HT_E_BUSY; /* cannot happen: hooks cannot mutate */
    while (q->ndirty > 0) {
        int32_t s = q->dirty_list[q->ndirty - 1];
        if (t->alive[s]) {
            ht_status st = htq_build_block(t, s);
            if (st != HT_OK) return st; /* still dirty: queries keep refusing until it works */
        } else {
            htq_free_block(t, s);
        }
        q->dirty[s] = 0;
        q->ndirty--;
    }
    return HT_OK;
}

/* Brings the answer grid of `node` up to date; its sub-grids now when `all`, else when the
 * bulk points announced (`points` more now) pay for them. */
static ht_status prepare_points(ht_tree *t, ht_node node, size_t points, int all) {
    int32_t slot;
    ht_status st = resolve(t, node, &slot);
    if (st != HT_OK) return st;
    if ((st = ht_tree_prepare(t)) != HT_OK) return st;
    if (t->hq.hooked) return HT_E_BUSY; /* the running hit test reads the grid */
    /* Inside a batch the deferred reaches are applied first, so that the grid built or
     * refreshed now is not missing any later change. */
    if (t->hq.batch.depth > 0) batch_flush(t);
    const answer_grid *g = &t->hq.answers;
    /* A grid the single queries started is coarser: bulk queries get a full one. */
    if (!(g->root == slot && g->codes) || g->lazy) {
        if ((st = htq_build_answers(t, slot)) != HT_OK) return st;
    } else {
        htq_refresh_answers(t, all);
    }
    htq_answers_announce(t, points, all);
    return HT_OK;
}

ht_status ht_tree_prepare_points(ht_tree *t, ht_node node) { return prepare_points(t, node, 0, 1); }

/* Single queries (since the tree was made, or since a change dropped the grid) before they
 * start an answer grid: a grid that a wide change keeps dropping (a scroll at every frame) is
 * started again only every so many queries, and small changes, which only mark cells, let it be. */
#define CALM_QUERIES 64
/* ... and before the grid moves from the node it was made for to another query root. */
#define MOVE_QUERIES 1024

int32_t htq_learn_answer(ht_tree *t, int32_t root, double x, double y) {
    htq_state *q = &t->hq;
    answer_grid *g = &q->answers;
    if (q->batch.depth > 0) return UNSURE;
    if (!(g->root == root && g->codes)) {
        if (q->calm < UINT32_MAX) q->calm++;
        if (q->calm < (g->root < 0 ? CALM_QUERIES : MOVE_QUERIES)) return UNSURE;
        /* Out of memory, or a root that gets no grid: the walk answers, as without one. */
        if (htq_start_answers(t, root) != HT_OK || g->root != root) {
            q->calm = 0;
            return UNSURE;
        }
    }
    return htq_answer_at(t, x, y);
}

ht_status ht_tree_prepare_points_for(ht_tree *t, ht_node node, size_t points) {
    return prepare_points(t, node, points, 0);
}

ht_status htq_clone(ht_tree *c, const ht_tree *t) {
    /* Blocks are copied (the source is prepared); the answer grid is not: the copy builds its
     * own when prepared for points. */
    for (int32_t s = 0; s < t->slots; s++) {
        c->hq.dirty[s] = 0;
        c->hq.batched[s] = 0;
        c->hq.blocks[s] = NULL;
    }
    for (int32_t s = 0; s < t->slots; s++) {
        if (!t->alive[s] || !t->hq.blocks[s]) continue;
        if (htq_copy_block(t->hq.blocks[s], &c->hq.blocks[s]) != HT_OK) return HT_E_NO_MEMORY;
    }
    return HT_OK;
}

size_t htq_memory(const ht_tree *t) {
    size_t bytes = 0;
    for (int32_t s = 0; s < t->slots; s++)
        if (t->alive[s] && t->hq.blocks[s]) bytes += htq_block_bytes(t->hq.blocks[s]);
    bytes += htq_answers_bytes(&t->hq.answers);
    bytes += (size_t)t->hq.batch.cap * sizeof *t->hq.batch.slots;
    if (t->hq.edges) bytes += sizeof *t->hq.edges;
    return bytes;
}

/* Cells of the answer grid checked against the exact walk by validation. */
#define VALIDATE_CELLS 512
/* Candidate lists checked, and the entries of each whose edges give test points. */
#define VALIDATE_LISTS 256
#define VALIDATE_ENTRIES 8

static int by_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The coordinates validation tests a list at along one axis: the cell's edges and centre, and
 * every edge of the first entries (where a margin too small would show), each with the double
 * on either side. Returns how many (at most 3 * (3 + 4 * VALIDATE_ENTRIES)). */
static int list_coords(const list_entry *e, const uint32_t *ix, int n, int axis, double lo, double hi,
                       double *out) {
    int m = 0;
    double base[3 + 4 * VALIDATE_ENTRIES];
    base[m++] = lo;
    base[m++] = (lo + hi) / 2;
    base[m++] = hi;
    for (int j = 0; j < n && j < VALIDATE_ENTRIES; j++) {
        base[m++] = e[ix[j]].outer[axis];
        base[m++] = -e[ix[j]].outer[axis + 2];
        base[m++] = e[ix[j]].inner[axis];
        base[m++] = -e[ix[j]].inner[axis + 2];
    }
    int k = 0;
    for (int i = 0; i < m; i++) {
        double v = base[i];
        if (!isfinite(v)) continue;
        double near[3] = {nextafter(v, -INFINITY), v, nextafter(v, INFINITY)};
        for (int j = 0; j < 3; j++)
            if (near[j] >= lo && near[j] <= hi) out[k++] = near[j];
    }
    qsort(out, (size_t)k, sizeof *out, by_double);
    return k;
}

/*
 * The candidate lists (hitq.h): slots and rooms consistent with the bitmap; for a sample of
 * the lists of settled cells, the answer the list gives every test point of its cell that it
 * decides (not left to the walk) is the exact walk's. Test points: the cell's corners and
 * centre and the edges of its entries (list_coords).
 */
static ht_status validate_lists(const ht_tree *t, const answer_grid *g) {
    if (!g->list_head) return HT_OK;
    size_t ncells = (size_t)g->nx * (size_t)g->ny, words = (ncells + 63) / 64;
    int32_t run = 0;
    if (g->cell_slot) {
        /* A lazy grid's slots: each given to one cell, numbered in the order given. */
        for (size_t c = 0; c < ncells; c++) {
            if (g->cell_slot[c] > g->nlists || !g->lists_append) return HT_E_CORRUPT;
            run += g->cell_slot[c] > 0;
        }
    } else {
        for (size_t w = 0; w < words; w++) {
            if (g->listrank[w] != run) return HT_E_CORRUPT;
            for (uint64_t v = g->listbits[w]; v; v &= v - 1) run++;
        }
    }
    uint32_t end = list_start(g, g->nlists);
    if (run != g->nlists || (!g->lists_append && list_start(g, 0) != 0) || g->nentries < 1 ||
        g->nentries > g->entries_cap || (size_t)end + LIST_GROUP - 1 > g->items_cap)
        return HT_E_CORRUPT;
    for (int32_t k = 0; k < g->nlists; k++) {
        /* Lists built whole keep to their rooms; appended ones to the pool. */
        uint32_t start = list_start(g, k), len = list_len(g, k);
        uint32_t room = g->lists_append ? end - (start < end ? start : end) : list_start(g, k + 1) - start;
        if ((!g->lists_append && list_start(g, k + 1) < start) || (len <= LIST_MAX && len > room))
            return HT_E_CORRUPT;
    }
    for (uint32_t j = 0; j < end + LIST_GROUP - 1; j++)
        if (g->items[j] >= g->nentries) return HT_E_CORRUPT;
    /* The hash names each node's latest entry, and that entry is the node's. */
    uint32_t named = 0;
    for (uint32_t h = 0; h < g->hash_slots; h++) {
        uint32_t i = g->entry_hash[h];
        if (i == 0) continue;
        if (i >= g->nentries || g->entry_node[i] < 0) return HT_E_CORRUPT;
        named++;
    }
    if (named != g->hash_used) return HT_E_CORRUPT;
    int32_t stride = g->nlists / VALIDATE_LISTS;
    stride = stride < 1 ? 1 : stride;
    double cw = (g->gx1 - g->gx0) / g->nx, ch = (g->gy1 - g->gy0) / g->ny;
    double xs[3 * (3 + 4 * VALIDATE_ENTRIES)], ys[3 * (3 + 4 * VALIDATE_ENTRIES)];
    for (size_t c = 0; c < ncells; c++) {
        int32_t k = list_slot(g, c);
        if (k < 0 || k % stride != 0 || list_len(g, k) > LIST_MAX) continue;
        int32_t a = htq_cell(g, c);
        if (a != UNSURE && a != SUBGRID) continue; /* UNKNOWN: not read until settled again */
        int32_t ix = (int32_t)(c % (size_t)g->nx), iy = (int32_t)(c / (size_t)g->nx);
        const uint32_t *items = g->items + list_start(g, k);
        int n = (int)list_len(g, k);
        int nxs = list_coords(g->entries, items, n, 0, g->gx0 + ix * cw, g->gx0 + (ix + 1) * cw, xs);
        int nys = list_coords(g->entries, items, n, 1, g->gy0 + iy * ch, g->gy0 + (iy + 1) * ch, ys);
        for (int i = 0; i < nxs; i++) {
            for (int j = 0; j < nys; j++) {
                double x = xs[i], y = ys[j];
                if (!(x >= g->gx0 && x < g->gx1 && y >= g->gy0 && y < g->gy1) ||
                    grid_index(x, y, g->gx0, g->gy0, g->sx, g->sy, g->nx, g->ny) != c)
                    continue;
                int32_t got = list_answer(g, k, x, y);
                if (got < HT_NULL_NODE) continue; /* left to the walk */
                ht_node walked;
                ht_status st = htq_walk_plain(t, g->root, x, y, &walked);
                if (st != HT_OK) return st;
                if (walked != got) return HT_E_CORRUPT;
            }
        }
    }
    return HT_OK;
}

/*
 * The derived structures against the rows: the dirty list and flags agree; every block of a
 * node not marked dirty is what a rebuild from the rows would make now; a sample of the answer
 * grid's sure cells (every one for small grids) gives, at the cell's corners and center, what
 * the exact walk gives; the batch list is consistent.
 */
ht_status htq_validate(const ht_tree *t) {
    const htq_state *q = &t->hq;
    if (q->ndirty < 0 || q->ndirty > t->slots) return HT_E_CORRUPT;
    int32_t marked = 0;
    for (int32_t s = 0; s < t->slots; s++) marked += q->dirty[s] != 0;
    if (marked != q->ndirty) return HT_E_CORRUPT;
    for (int32_t i = 0; i < q->ndirty; i++) {
        int32_t s = q->dirty_list[i];
        if (s < 0 || s >= t->slots || !q->dirty[s]) return HT_E_CORRUPT;
    }
    int32_t batched = 0;
    for (int32_t s = 0; s < t->slots; s++) batched += q->batched[s] != 0;
    if (batched != q->batch.count || (q->batch.depth == 0 && q->batch.count != 0))
        return HT_E_CORRUPT;
    for (int32_t s = 0; s < t->slots; s++) {
        if (!t->alive[s] || q->dirty[s]) continue;
        /* A clean node's parent may be dirty, which says nothing about this node's block. */
        block *fresh = NULL;
        ht_status st = htq_make_block(t, s, &fresh);
        if (st != HT_OK) return st;
        int same = (!fresh && (!q->blocks[s] || q->blocks[s]->count == 0)) ||
                   (fresh && q->blocks[s] && htq_blocks_equal(fresh, q->blocks[s]));
        if (q->blocks[s] && !htq_block_tests_ok(q->blocks[s])) same = 0;
        htq_release_block(fresh);
        if (!same) return HT_E_CORRUPT;
    }
    const answer_grid *g = &q->answers;
    if (g->root < 0 || !g->codes || !htq_prepared(t) || q->batch.depth > 0) return HT_OK;
    if (g->root >= t->slots || !t->alive[g->root]) return HT_E_CORRUPT;
    size_t ncells = (size_t)g->nx * (size_t)g->ny;
    /* Every cell not yet settled lies in the rectangle a refresh looks at. */
    for (size_t c = 0; c < ncells; c++) {
        if (g->codes[c] != CODE_UNKNOWN && g->codes[c] != CODE_SEEN) continue;
        int32_t ix = (int32_t)(c % (size_t)g->nx), iy = (int32_t)(c / (size_t)g->nx);
        if (!g->unknown || ix < g->ux0 || ix > g->ux1 || iy < g->uy0 || iy > g->uy1) return HT_E_CORRUPT;
    }
    size_t stride = ncells / VALIDATE_CELLS;
    stride = stride < 1 ? 1 : stride;
    double cw = (g->gx1 - g->gx0) / g->nx, ch = (g->gy1 - g->gy0) / g->ny;
    for (size_t c = 0; c < ncells; c += stride) {
        int32_t a = htq_cell(g, c);
        if (a < HT_NULL_NODE && a != SUBGRID) continue; /* UNSURE or UNKNOWN: the walk decides */
        int32_t ix = (int32_t)(c % (size_t)g->nx), iy = (int32_t)(c / (size_t)g->nx);
        /* The cell's corners and centre; with a sub-grid, every sub-cell's corners and centre. */
        double f[2 * SUB + 1];
        int nf = 0;
        if (a == SUBGRID) {
            for (int i = 0; i <= 2 * SUB; i++) f[nf++] = (double)i / (2 * SUB);
        } else {
            f[nf++] = 0;
            f[nf++] = 0.5;
            f[nf++] = 1;
        }
        for (int i = 0; i < nf; i++) {
            for (int j = 0; j < nf; j++) {
                double x = g->gx0 + (ix + f[i]) * cw, y = g->gy0 + (iy + f[j]) * ch;
                int32_t got = cell_lookup(g, x, y);
                if (got < HT_NULL_NODE) continue; /* outside the grid, or left to the walk */
                ht_node walked;
                ht_status st = htq_walk_plain(t, g->root, x, y, &walked);
                if (st != HT_OK) return st;
                if (walked != got) return HT_E_CORRUPT;
            }
        }
    }
    return validate_lists(t, g);
}
