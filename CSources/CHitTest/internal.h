/*
 * internal.h - the tree's storage and the helpers the .c files share.
 *
 * Two layers (see ARCHITECTURE.md):
 * - Base arrays, one row per slot, structure of arrays: the mirror of the Swift view tree.
 *   Every setter writes its row in O(1) and marks the parent's derived block dirty.
 * - Derived blocks, one per node with children: the children that can possibly be hit, packed
 *   in search order (topmost first) with everything the walk needs, plus a uniform grid over
 *   the parent's space when there are many of them. Rebuilt lazily by ht_tree_prepare, only for
 *   the parents marked dirty. The walk reads only blocks and never the base arrays of children.
 */
#ifndef HT_INTERNAL_H
#define HT_INTERNAL_H

/* Results must be bit-identical to the Swift reference walk, which never fuses multiply-adds. */
#pragma STDC FP_CONTRACT OFF

#include "include/hittest.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define SLOT_BITS 24
#define SLOT_MASK ((1u << SLOT_BITS) - 1u)
#define GEN_MASK 0x7Fu

/* Internal state bits kept above the public flags in `flags`. */
enum {
    K_IDENTITY = 1u << 8, /* transform is the identity: conversion is two adds per axis */
    K_SINGULAR = 1u << 9, /* transform has no inverse: the inverse is stored as NaN */
    K_ELIGIBLE = 1u << 10, /* not hidden, interactive, alpha >= 0.01 */
    PUBLIC_FLAGS = HT_FLAG_ALL
};

/*
 * One hit-test candidate, packed for the walk (120 bytes). Everything needed to convert a point
 * from the parent's space and test it: the same arithmetic as the Swift reference, in the same
 * order, so the answers are the same to the last bit.
 */
typedef struct kid {
    double cx, cy;                   /* center, in the parent's bounds space */
    double offx, offy;               /* bounds.origin + anchor * bounds.size */
    double x0, y0, x1, y1;           /* region: bounds inset by the hit-test insets, min/max */
    double inv[6];                   /* inverse transform a b c d tx ty (NaN when singular) */
    int32_t slot;
    uint32_t flags; /* public flags | K_* bits */
} kid;

/*
 * The derived block of one parent: candidates in search order, then an optional grid. The grid
 * covers [gx0, gx1] x [gy0, gy1] of the parent's space with nx * ny cells; the cell of a point is
 * floor((x - gx0) * sx) (monotonic, so a box and the points in it land in the same cells). Each
 * cell lists candidate indices in ascending order, i.e. topmost first; `always` lists those whose
 * reach cannot be bounded (hooks, hits outside bounds), for points outside the grid.
 */
typedef struct block {
    int32_t count;          /* candidates in kids[] */
    int32_t nx, ny;         /* grid size; 0 when there is no grid */
    int32_t nalways;        /* entries in always[] */
    double gx0, gy0, gx1, gy1;
    double sx, sy;          /* cells per unit */
    uint32_t *cell_start;   /* nx * ny + 1 offsets into items */
    uint32_t *items;
    uint32_t *always;
    void *grid_memory;      /* one allocation behind cell_start, items and always */
    kid kids[];
} block;

/*
 * The answer grid of one query root: over the root's region, each cell holds the answer that
 * every point of the cell surely gets (a handle, or HT_NULL_NODE), UNSURE where the exact walk
 * must decide, or UNKNOWN where a mutation may have changed the answer and the cell has not
 * been recomputed yet (the walk decides those too). "Surely" is proved by walking the cell's
 * box through the tree with margins far above rounding (answers.c). A mutation marks UNKNOWN
 * only the cells its node can reach; `unknown` says some are, and the next large bulk query
 * (or ht_tree_prepare_points) recomputes just those.
 */
#define UNSURE ((int32_t)-3)
#define UNKNOWN ((int32_t)-4)
typedef struct answer_grid {
    int32_t root; /* slot, -1 when there is no grid */
    int32_t nx, ny, capacity;
    int unknown;  /* some cells are UNKNOWN */
    double gx0, gy0, gx1, gy1, sx, sy;
    int32_t *cells;
} answer_grid;

struct ht_tree {
    int32_t slots;     /* high-water mark: slots [0, slots) have been used */
    int32_t capacity;  /* rows allocated */
    int32_t live;      /* live nodes */
    int32_t free_head, free_tail; /* FIFO of freed slots, linked through next[] */
    int32_t ndirty;    /* entries in dirty_list; the tree is prepared when 0 */

    /* Links (slots, -1 for none). Children form a doubly linked list in back-to-front order. */
    int32_t *parent, *first, *last, *prev, *next, *nkids;
    int32_t *priority;
    int32_t *dirty_list; /* capacity rows: a slot is listed at most once */
    uint8_t *gen, *alive, *dirty;
    uint32_t *flags;

    /* Geometry, as set. */
    double *cx, *cy, *bx, *by, *bw, *bh, *anx, *any;
    double *xa, *xb, *xc, *xd, *xtx, *xty;
    double *alpha, *in_top, *in_left, *in_bottom, *in_right;
    /* Derived per row on every set, O(1). */
    double *ia, *ib, *ic, *id, *itx, *ity; /* inverse transform */
    double *offx, *offy;                   /* anchor offset A */
    double *rx0, *ry0, *rx1, *ry1;         /* region */

    block **blocks;

    answer_grid answers;
    int32_t hooked; /* hit tests with hooks in progress: no mutation, no rebuild of derived data */
};

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

/* ---- the conversions: one definition, used by the walk, conversion and blocks ---- */

/* parent space -> local bounds space of a node whose parameters are given. */
static inline void to_local(double x, double y, double cx, double cy, double offx, double offy,
                            const double inv[6], int identity, double *lx, double *ly) {
    double qx = x - cx, qy = y - cy, dx, dy;
    if (identity) {
        dx = qx;
        dy = qy;
    } else {
        dx = inv[0] * qx + inv[2] * qy + inv[4];
        dy = inv[1] * qx + inv[3] * qy + inv[5];
    }
    *lx = dx + offx;
    *ly = dy + offy;
}

/* local bounds space -> parent space: center + M (p - off) + t. The inverse of to_local. */
static inline void to_parent(double x, double y, double cx, double cy, double offx, double offy,
                             const double m[6], int identity, double *px, double *py) {
    double dx = x - offx, dy = y - offy;
    if (identity) {
        *px = cx + dx;
        *py = cy + dy;
    } else {
        *px = cx + (m[0] * dx + m[2] * dy + m[4]);
        *py = cy + (m[1] * dx + m[3] * dy + m[5]);
    }
}

/* The forward transform of row `s` (a b c d tx ty), for to_parent. */
#define ROW_TRANSFORM(t, s) {(t)->xa[s], (t)->xb[s], (t)->xc[s], (t)->xd[s], (t)->xtx[s], (t)->xty[s]}

/* The grid cell of fractional coordinate `f` (a point's offset times cells per unit), clamped to
 * [0, n). Monotonic, so a box and every point in it land in the same range of cells; the block
 * grids and the answer grid's box walk must both use exactly this. */
static inline int32_t grid_cell(double f, int32_t n) {
    return f > 0 ? (f < (double)n ? (int32_t)f : n - 1) : 0;
}

static inline int region_contains(double x0, double y0, double x1, double y1, double x, double y) {
    return x >= x0 && x < x1 && y >= y0 && y < y1;
}

/* ---- shared by the .c files ---- */

/* Marks the block of `slot` out of date (no-op for -1 or an already dirty slot). */
static inline void mark_dirty(ht_tree *t, int32_t slot) {
    if (slot < 0 || t->dirty[slot]) return;
    t->dirty[slot] = 1;
    t->dirty_list[t->ndirty++] = slot;
}

static inline int all_finite(const double *v, int n) {
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i])) return 0;
    return 1;
}

/* tree.c */
ht_status grow_rows(ht_tree *t, int32_t capacity);
void derive_row(ht_tree *t, int32_t s); /* inverse, region and eligibility from the set values */

/* answers.c */
ht_status build_answers(ht_tree *t, int32_t root);
void refresh_answers(ht_tree *t); /* recomputes the UNKNOWN cells (derived blocks prepared) */
void answers_touch(ht_tree *t, int32_t slot); /* before and after every change to `slot` */
static inline int answers_valid(const ht_tree *t, int32_t root) {
    return t->answers.root == root && t->answers.cells;
}

/* The cell of (x, y): its answer, or UNSURE outside the grid (NaN included). */
static inline int32_t cell_lookup(const answer_grid *g, double x, double y) {
    if (!(x >= g->gx0 && x < g->gx1 && y >= g->gy0 && y < g->gy1)) return UNSURE;
    double fx = (x - g->gx0) * g->sx, fy = (y - g->gy0) * g->sy;
    int32_t ix = fx < (double)g->nx ? (int32_t)fx : g->nx - 1;
    int32_t iy = fy < (double)g->ny ? (int32_t)fy : g->ny - 1;
    return g->cells[(size_t)iy * (size_t)g->nx + (size_t)ix];
}

/* The answer grid's sure answer for (x, y) from `root`, or UNSURE. */
static inline int32_t grid_answer(const ht_tree *t, int32_t root, double x, double y) {
    return answers_valid(t, root) ? cell_lookup(&t->answers, x, y) : UNSURE;
}

/* index.c */
enum { BOX_NEVER = 0, BOX_BOUNDED = 1, BOX_UNBOUNDED = 2 };
/* Where, in its parent's space, `slot` or its subtree can be the answer (x0 y0 x1 y1). */
int node_reach_box(const ht_tree *t, int32_t slot, double out[4]);
ht_status build_block(ht_tree *t, int32_t slot);
void free_block(ht_tree *t, int32_t slot);
ht_status copy_block(const block *b, block **out);
size_t block_bytes(const block *b);

#endif
