/*
 * internal.h - the tree's base rows, the mutation protocol, and the subsystems beside them.
 *
 * `struct ht_tree` is the base rows (one row per slot, structure of arrays: a binding's view
 * tree, links and stored fields of fields.h, plus values derived per row in O(1))
 * and one struct per subsystem that keeps data derived from the rows:
 * - `hq`: the hit-query subsystem (hitq.h: blocks, dirty list, answer grid, batch);
 * - room for a constraint solver beside it (its own struct and files), which reads the rows and
 *   is told of changes through the same protocol, and never touches hit-query internals.
 * Base-row code (tree.c, snapshot.c, convert.c) never touches a subsystem's internals: every
 * change to a row goes through the mutation protocol (tree.c), which tells the subsystems what
 * changed (fields.h's effects) and nothing else.
 *
 * Every non-static function here is hidden from the shared library (only hittest.h is
 * exported) and prefixed: htr_ (rows), htq_ (hit query).
 */
#ifndef HT_INTERNAL_H
#define HT_INTERNAL_H

/* First, so that its no-fused-multiply-add pragma covers every function that follows. */
#include "geom.h"

#include "include/hittest.h"

/* Every system header the library uses, before the visibility switch below (declarations made
 * after it would be marked hidden, and the C library's symbols are not ours). */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Everything declared from here on is internal to the library: not exported from the shared
 * library (public functions carry HT_API, declared above with default visibility). */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(hidden)
#endif

#include "fields.h"

#define SLOT_BITS 24
#define SLOT_MASK ((1u << SLOT_BITS) - 1u)
_Static_assert(SLOT_MASK == HT_SLOT_MASK, "the public slot mask is the handle layout's");
#define GEN_MASK 0x7Fu

/* Internal state bits kept above the public flags in `flags`. */
enum {
    K_IDENTITY = 1u << 9,  /* transform is the identity: conversion is two adds per axis */
    K_SINGULAR = 1u << 10, /* transform has no inverse: the inverse is stored as NaN */
    K_ELIGIBLE = 1u << 11, /* not hidden, interactive, not blocked, alpha >= 0.01 */
    K_FAST = 1u << 12,     /* kid_test: its thresholds decide the region test (hitq.h) */
    PUBLIC_FLAGS = HT_FLAG_ALL
};
_Static_assert(((K_IDENTITY | K_SINGULAR | K_ELIGIBLE | K_FAST) & PUBLIC_FLAGS) == 0,
               "the internal bits sit above the public flags");
/* The flags that make a node and its subtree never hit (with alpha below 0.01). */
#define UNHITTABLE_FLAGS (HT_FLAG_HIDDEN | HT_FLAG_NO_INTERACTION | HT_FLAG_BLOCKED)

#include "hitq.h"

/*
 * Every row array of the base, by name: links and bookkeeping, stored fields (fields.h) and
 * values derived per row. Growing, copying, freeing and measuring the rows go through this, so
 * none can be missed. Define HT_ROW_OP(name), then write HT_FOR_EACH_ROW.
 */
#define HT_LINK_ROWS(X) X(parent) X(first) X(last) X(prev) X(next) X(nkids) X(gen) X(alive)
#define HT_DERIVED_ROWS(X) X(ia) X(ib) X(ic) X(id) X(itx) X(ity) X(offx) X(offy) X(rx0) X(ry0) X(rx1) X(ry1)
#define HT_FIELD_AS_ROW(kind, name, def, rec, fx) HT_ROW_OP(name)
#define HT_FOR_EACH_ROW HT_LINK_ROWS(HT_ROW_OP) HT_DERIVED_ROWS(HT_ROW_OP) HT_STORED_FIELDS(HT_FIELD_AS_ROW)

struct ht_tree {
    int32_t slots;     /* high-water mark: slots [0, slots) have been used */
    int32_t capacity;  /* rows allocated */
    int32_t live;      /* live nodes */
    int32_t free_head, free_tail; /* FIFO of freed slots, linked through next[] */

    /* Links (slots, -1 for none): children form a doubly linked list in back-to-front order. */
    int32_t *parent, *first, *last, *prev, *next, *nkids;
    uint8_t *gen, *alive;

    /* Stored fields, as set (fields.h). */
#define HT_DECLARE_FIELD(kind, name, def, rec, fx) HT_CTYPE_##kind *name;
    HT_STORED_FIELDS(HT_DECLARE_FIELD)
#undef HT_DECLARE_FIELD

    /* Derived per row on every set, O(1). */
    double *ia, *ib, *ic, *id, *itx, *ity; /* inverse transform */
    double *offx, *offy;                   /* anchor offset A */
    double *rx0, *ry0, *rx1, *ry1;         /* region */

    /* The stored rows' current addresses, for readers outside (ht_tree_rows): set by
     * htr_grow, the only place the rows move. */
    ht_rows published;

    /* Subsystems: derived data kept by their own code, told of changes by the protocol. */
    htq_state hq; /* hit queries (hitq.h) */
    /* A constraint solver's state goes here, beside `hq`. */
};

/* ---- the hit-query subsystem's side of the mutation protocol (hitq.h), inline: every setter
 * runs it, and a layout pass's batch runs it per moved child ---- */

/* Marks the block of `slot` out of date (no-op for -1), noting in it which child changed:
 * `moved`, a child whose change leaves the candidates and their order (prepare then patches the
 * block), or MOVED_MANY. A second different child makes it MOVED_MANY. */
static inline void htq_mark_dirty(htq_state *q, int32_t slot, int32_t moved) {
    if (slot < 0) return;
    block *b = q->blocks[slot];
    if (!q->dirty[slot]) {
        q->dirty[slot] = 1;
        q->dirty_list[q->ndirty++] = slot;
        if (b) b->moved = moved;
    } else if (b && b->moved != moved) {
        b->moved = MOVED_MANY;
    }
}

/* What a change of `s` with effects `fx` tells its parent's block. */
static inline int32_t htq_moved_child(int32_t s, uint32_t fx) { return (fx & FX_CANDIDATES) ? MOVED_MANY : s; }

/* Before a change of `fx` to `s`: its old reach (hitq.c; nothing to do without an answer grid
 * or pending edges), the old parent's block for a link change. */
static inline void htq_before(ht_tree *t, int32_t s, uint32_t fx) {
    if (fx & FX_REACH) t->hq.reach_changes++; /* a node freed has no htq_after */
    if ((fx & FX_REACH) && (t->hq.edges || t->hq.answers.root >= 0)) htq_reach_before(t, s, fx);
    /* A change that does not depend on the flags (a link change) leaves the parent's block. */
    if ((fx & FX_PARENT_BLOCK) && !(fx & FX_IF_FLAGS_CHANGED))
        htq_mark_dirty(&t->hq, t->parent[s], htq_moved_child(s, fx));
}

/* After it: the blocks the change invalidated, and its new reach in the answer grid. */
static inline void htq_after(ht_tree *t, int32_t s, uint32_t fx) {
    htq_state *q = &t->hq;
    if (fx & FX_PARENT_BLOCK) htq_mark_dirty(q, t->parent[s], htq_moved_child(s, fx));
    if ((fx & FX_OWN_BLOCK) && t->nkids[s] > 0) htq_mark_dirty(q, s, MOVED_MANY);
    /* In a batch the new reach is measured at the end, once per node. */
    if ((fx & FX_REACH) && q->answers.root >= 0 && q->batch.depth == 0 && !htq_answers_edges_after(t, s))
        htq_answers_touch(t, s);
}

/* ---- handles ---- */

static inline ht_node make_handle(const ht_tree *t, int32_t slot) {
    return (ht_node)(((uint32_t)t->gen[slot] << SLOT_BITS) | (uint32_t)slot);
}

/* Resolves a handle to a live slot, or says why not. */
static inline ht_status resolve(const ht_tree *t, ht_node h, int32_t *slot) {
    if (!t) return HT_E_INVALID_ARGUMENT;
    if (h < 0) return HT_E_BAD_NODE;
    int32_t s = (int32_t)((uint32_t)h & SLOT_MASK);
    uint32_t g = (uint32_t)h >> SLOT_BITS;
    if (s >= t->slots || g > GEN_MASK) return HT_E_BAD_NODE;
    if (!t->alive[s] || t->gen[s] != g) return HT_E_STALE_NODE;
    *slot = s;
    return HT_OK;
}

/* The forward transform of row `s` (a b c d tx ty), for to_parent. */
#define ROW_TRANSFORM(t, s) {(t)->xa[s], (t)->xb[s], (t)->xc[s], (t)->xd[s], (t)->xtx[s], (t)->xty[s]}
/* The inverse transform of row `s`, for to_local. */
#define ROW_INVERSE(t, s) {(t)->ia[s], (t)->ib[s], (t)->ic[s], (t)->id[s], (t)->itx[s], (t)->ity[s]}

/* The region of row `s`. */
static inline ht_box row_region(const ht_tree *t, int32_t s) {
    return (ht_box){t->rx0[s], t->ry0[s], t->rx1[s], t->ry1[s]};
}

static inline int all_finite(const double *v, int n) {
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i])) return 0;
    return 1;
}

/* Hit tests with hooks are running: mutations must be refused (HT_E_BUSY). */
static inline int htq_busy(const ht_tree *t) { return t->hq.hooked > 0; }

/* The derived blocks are up to date (no node marked since the last ht_tree_prepare). */
static inline int htq_prepared(const ht_tree *t) { return t->hq.ndirty == 0; }

/* The answer grid, if it is usable by queries from `root`: built for that root, and no batch
 * open (a batch defers part of its invalidation to its end). */
static inline const answer_grid *htq_grid_for(const ht_tree *t, int32_t root) {
    const answer_grid *g = &t->hq.answers;
    return (g->root == root && g->codes && t->hq.batch.depth == 0) ? g : NULL;
}

/* The grid's answer for (x, y), settling its cell first when UNKNOWN (htq_settle_at): a node,
 * HT_NULL_NODE, or UNSURE (the walk decides). The grid exists, and the derived blocks are
 * prepared. Inline: a single query whose cell is settled makes no call. On a lazy grid a query
 * its cell does not decide pays rent, and the rent due buys the full grid (htq_promote). */
static inline int32_t htq_answer_at(ht_tree *t, double x, double y) {
    answer_grid *g = &t->hq.answers;
    size_t c;
    int32_t a = cell_lookup_at(g, x, y, &c);
    if (a >= HT_NULL_NODE) return a;
    if (g->lazy && ++g->rent >= g->rent_due) return htq_promote(t, x, y);
    if (a == UNKNOWN && (a = htq_settle_at(t, x, y)) == UNKNOWN) return UNSURE;
    if (a != UNSURE || c == SIZE_MAX) return a;
    a = list_lookup_in(g, c, x, y);
    return a == UNSURE && g->lists_append ? htq_list_due(t, c, x, y) : a;
}

/* What a single query that may write (ht_tree_hit_test_caching) learns from the grid of `root`:
 * the grid's answer when it has one for `root` (inline), else htq_learn_answer's. The tree is
 * prepared. */
static inline int32_t htq_learned_answer(ht_tree *t, int32_t root, double x, double y) {
    return htq_grid_for(t, root) ? htq_answer_at(t, x, y) : htq_learn_answer(t, root, x, y);
}

/* ---- base rows (tree.c) ---- */

ht_status htr_grow(ht_tree *t, int32_t capacity);
void htr_derive_row(ht_tree *t, int32_t s); /* inverse, region and eligibility from the set values */
/* Bytes per row of the base arrays. */
size_t htr_row_bytes(void);

#endif
