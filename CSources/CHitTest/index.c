/* index.c - derived blocks: each parent's hit-test candidates in search order, and a grid. */
#include "internal.h"

#include <string.h>

/* Fewer candidates than this are scanned in order: a grid lookup costs about as much. */
#define GRID_MIN 12
/* The walk reads a block with a grid through its compact records. */
_Static_assert(TEST_MIN <= GRID_MIN, "a block with a grid has compact records");
#define GRID_MAX_SIDE 4096
/* Transforms worse conditioned than this get no box (they are tested everywhere). */
#define MAX_CONDITION 1e6


/* A candidate's boxes in its parent's space. */
typedef struct cand_box {
    ht_box reach; /* conservative: every point of the child's reach is inside */
    int covers;   /* plain and axis-aligned: every point of `inner` surely hits it (or below) */
    ht_box inner; /* the tight box shrunk by the slack */
} cand_box;

void htq_release_block(block *b) {
    if (!b) return;
    free(b->grid_memory);
    free(b);
}

void htq_free_block(ht_tree *t, int32_t s) {
    htq_release_block(t->hq.blocks[s]);
    t->hq.blocks[s] = NULL;
}

/*
 * Where, in its parent's space, can candidate `x` (or its subtree) be the answer? BOX_NEVER
 * when nowhere (ineligible, empty region, singular transform), BOX_UNBOUNDED when it cannot be
 * bounded (a hook decides, or hits outside its bounds are allowed), else a conservative box.
 * `m6` is its forward transform (not read when the record says identity).
 */
static int kid_box(const kid *x, const double m6[6], cand_box *b) {
    uint32_t f = x->flags;
    if (f & HT_FLAG_ASK_HIT_TEST) return BOX_UNBOUNDED; /* called whatever its state, as UIKit */
    if (!(f & K_ELIGIBLE)) return BOX_NEVER;
    if (f & (HT_FLAG_ASK_POINT_INSIDE | HT_FLAG_OUTSIDE_HITS)) return BOX_UNBOUNDED;
    if (f & K_SINGULAR) return BOX_NEVER; /* the converted point is NaN: never inside */
    if (!(x->x0 < x->x1 && x->y0 < x->y1)) return BOX_NEVER;
    double cond = 1;
    int identity = (f & K_IDENTITY) != 0;
    if (!identity)
        cond = (fabs(m6[0]) + fabs(m6[1]) + fabs(m6[2]) + fabs(m6[3])) *
               (fabs(x->inv[0]) + fabs(x->inv[1]) + fabs(x->inv[2]) + fabs(x->inv[3]));
    if (!(cond <= MAX_CONDITION)) return BOX_UNBOUNDED;
    /* Points reach the child through the computed inverse: the slack grows with the condition. */
    ht_map map = {x->cx, x->cy, x->offx, x->offy, m6, identity, 1};
    ht_box wide, tight;
    double m;
    if (!ht_box_map((ht_box){x->x0, x->y0, x->x1, x->y1}, &map, cond, &wide, &tight, &m))
        return BOX_UNBOUNDED;
    b->reach = wide;
    /* A plain axis-aligned child surely returns itself or a descendant for a point inside. */
    b->covers = identity && !(f & HT_FLAG_PASS_THROUGH);
    b->inner = ht_box_widen(tight, -m);
    return BOX_BOUNDED;
}

/* The boxes of child `s` from its row. */
static int child_box(const ht_tree *t, int32_t s, cand_box *b) {
    kid x;
    htq_row_kid(t, s, &x);
    double m6[6] = ROW_TRANSFORM(t, s);
    return kid_box(&x, m6, b);
}

int htq_reach_box(const ht_tree *t, int32_t slot, ht_box *out) {
    cand_box b;
    int kind = child_box(t, slot, &b);
    *out = b.reach;
    return kind;
}

typedef struct cand {
    int32_t slot, priority, order;
} cand;

static int by_priority(const void *pa, const void *pb) {
    const cand *a = pa, *b = pb;
    if (a->priority != b->priority) return a->priority > b->priority ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* UIKit's search order, the one definition (blocks and the traced walk use it): the last
 * subview first, and among siblings a higher priority before a lower one. */
ht_status htq_search_order(const ht_tree *t, int32_t p, int32_t *out) {
    int32_t n = 0, prioritised = 0;
    for (int32_t c = t->last[p]; c >= 0; c = t->prev[c]) {
        out[n++] = c;
        prioritised |= t->priority[c] != 0;
    }
    if (!prioritised) return HT_OK;
    cand *cands = malloc((size_t)n * sizeof *cands);
    if (!cands) return HT_E_NO_MEMORY;
    for (int32_t k = 0; k < n; k++) cands[k] = (cand){out[k], t->priority[out[k]], k};
    qsort(cands, (size_t)n, sizeof *cands, by_priority);
    for (int32_t k = 0; k < n; k++) out[k] = cands[k].slot;
    free(cands);
    return HT_OK;
}

/* The walk's record of child `s`, from its row. */
void htq_row_kid(const ht_tree *t, int32_t s, kid *x) {
    x->slot = s;
    x->flags = t->flags[s];
    x->cx = t->cx[s];
    x->cy = t->cy[s];
    x->offx = t->offx[s];
    x->offy = t->offy[s];
    x->x0 = t->rx0[s];
    x->y0 = t->ry0[s];
    x->x1 = t->rx1[s];
    x->y1 = t->ry1[s];
    x->inv[0] = t->ia[s];
    x->inv[1] = t->ib[s];
    x->inv[2] = t->ic[s];
    x->inv[3] = t->id[s];
    x->inv[4] = t->itx[s];
    x->inv[5] = t->ity[s];
}

static inline int32_t cell_of(double v, double g0, double scale, int32_t n) {
    return grid_cell((v - g0) * scale, n);
}

/* The cells of `b`'s grid that list candidate `x` of kind `kind` (every cell for an unbounded
 * one): their columns r[0]..r[1] and rows r[2]..r[3]; 0 when none (outside the grid). */
static int cell_range(const block *b, const cand_box *x, int kind, int32_t r[4]) {
    r[0] = 0, r[1] = b->nx - 1, r[2] = 0, r[3] = b->ny - 1;
    if (kind != BOX_BOUNDED) return 1;
    if (ht_box_disjoint_closed(x->reach, (ht_box){b->gx0, b->gy0, b->gx1, b->gy1})) return 0;
    r[0] = cell_of(x->reach.x0, b->gx0, b->sx, b->nx);
    r[1] = cell_of(x->reach.x1, b->gx0, b->sx, b->nx);
    r[2] = cell_of(x->reach.y0, b->gy0, b->sy, b->ny);
    r[3] = cell_of(x->reach.y1, b->gy0, b->sy, b->ny);
    return 1;
}

static inline int in_range(const int32_t r[4], int32_t ix, int32_t iy) {
    return r[0] <= ix && ix <= r[1] && r[2] <= iy && iy <= r[3];
}

/* A grid's cell size and the slack around its cells. */
typedef struct cell_geom {
    double cw, ch, eps;
} cell_geom;

static cell_geom cell_geom_of(const block *b) {
    return (cell_geom){(b->gx1 - b->gx0) / b->nx, (b->gy1 - b->gy0) / b->ny,
                       ht_box_slack((ht_box){b->gx0, b->gy0, b->gx1, b->gy1})};
}

/* Does candidate `x` surely cover cell (ix, iy) of `b` (whose geometry is `cg`), so that
 * nothing after it in search order can be reached there? */
static int covers_cell(const block *b, const cell_geom *cg, const cand_box *x, int kind, int32_t ix,
                       int32_t iy) {
    if (kind != BOX_BOUNDED || !x->covers) return 0;
    double cx0 = b->gx0 + ix * cg->cw - cg->eps, cx1 = b->gx0 + (ix + 1) * cg->cw + cg->eps;
    double cy0 = b->gy0 + iy * cg->ch - cg->eps, cy1 = b->gy0 + (iy + 1) * cg->ch + cg->eps;
    return x->inner.x0 <= cx0 && cx1 < x->inner.x1 && x->inner.y0 <= cy0 && cy1 < x->inner.y1;
}

/*
 * Fills the grid's cells (or only counts them when `items` is NULL). Candidates go in search
 * order, so each cell's list is topmost first; a cell stops taking candidates once one surely
 * covers it, since nothing below can then be reached there. Returns the number of items.
 */
static size_t fill_cells(const block *b, const cand_box *boxes, const int *kinds, uint8_t *covered,
                         uint32_t *counts, uint32_t *items) {
    int32_t nx = b->nx;
    cell_geom cg = cell_geom_of(b);
    size_t total = 0;
    memset(covered, 0, (size_t)nx * (size_t)b->ny);
    for (int32_t k = 0; k < b->count; k++) {
        int32_t r[4];
        const cand_box *x = &boxes[k];
        if (!cell_range(b, x, kinds[k], r)) continue;
        int may_cover = kinds[k] == BOX_BOUNDED && x->covers;
        for (int32_t iy = r[2]; iy <= r[3]; iy++) {
            for (int32_t ix = r[0]; ix <= r[1]; ix++) {
                size_t c = (size_t)iy * (size_t)nx + (size_t)ix;
                if (covered[c]) continue;
                if (items) items[counts[c]++] = (uint32_t)k;
                else counts[c]++;
                total++;
                if (may_cover && covers_cell(b, &cg, x, kinds[k], ix, iy)) covered[c] = 1;
            }
        }
    }
    return total;
}

/* Many wide boxes over a fine grid: a grid holding more items than this is coarsened. */
static size_t items_limit(int32_t count) { return 16 * (size_t)count + 65536; }

/* The grid's first size for `bounded` boxes over a w x h extent (build_grid halves it while
 * the items exceed items_limit). */
static void grid_size(int32_t bounded, double w, double h, int32_t *nxo, int32_t *nyo) {
    double target = bounded;
    double fx = (w > 0 && h > 0) ? sqrt(target * w / h) : (w > 0 ? target : 1);
    int32_t nx = fx < 1 ? 1 : (fx > GRID_MAX_SIDE ? GRID_MAX_SIDE : (int32_t)ceil(fx));
    double fy = (h > 0) ? ceil(target / nx) : 1;
    int32_t ny = fy < 1 ? 1 : (fy > GRID_MAX_SIDE ? GRID_MAX_SIDE : (int32_t)fy);
    if (w == 0) nx = 1;
    *nxo = nx;
    *nyo = ny;
}

/* Builds the grid of `b` from the candidates' boxes; on failure `b` has no grid. */
static ht_status build_grid(block *b, const cand_box *boxes, const int *kinds) {
    double gx0 = INFINITY, gy0 = INFINITY, gx1 = -INFINITY, gy1 = -INFINITY;
    int32_t bounded = 0;
    for (int32_t k = 0; k < b->count; k++) {
        if (kinds[k] != BOX_BOUNDED) continue;
        bounded++;
        const ht_box *r = &boxes[k].reach;
        gx0 = r->x0 < gx0 ? r->x0 : gx0;
        gy0 = r->y0 < gy0 ? r->y0 : gy0;
        gx1 = r->x1 > gx1 ? r->x1 : gx1;
        gy1 = r->y1 > gy1 ? r->y1 : gy1;
    }
    /* The grid lies over the children's extent, in the parent's own space, and is not clipped
     * by the parent's region: nothing in a block depends on the parent's own row (its bounds,
     * insets, flags), only on its children's, so a scroll (a bounds-origin change, which moves
     * the region over the children) leaves the block valid. Points outside the parent's region
     * never reach the grid (the walk tests the region first), and points outside the grid
     * reach only `always`, whatever the region. */
    if (bounded < GRID_MIN / 2 || !(gx0 <= gx1 && gy0 <= gy1)) return HT_OK;
    double w = gx1 - gx0, h = gy1 - gy0;
    if (!isfinite(w) || !isfinite(h)) return HT_OK;
    int32_t nx, ny;
    grid_size(bounded, w, h, &nx, &ny);
    for (;;) {
        b->nx = nx;
        b->ny = ny;
        b->gx0 = gx0;
        b->gy0 = gy0;
        b->gx1 = gx1;
        b->gy1 = gy1;
        b->sx = w > 0 ? nx / w : 0;
        b->sy = h > 0 ? ny / h : 0;
        size_t ncells = (size_t)nx * (size_t)ny;
        uint8_t *covered = malloc(ncells);
        uint32_t *counts = calloc(ncells, sizeof *counts);
        if (!covered || !counts) {
            free(covered);
            free(counts);
            b->nx = b->ny = 0;
            return HT_E_NO_MEMORY;
        }
        size_t total = fill_cells(b, boxes, kinds, covered, counts, NULL);
        /* Many wide boxes over a fine grid: coarsen rather than store them everywhere. */
        if (total > items_limit(b->count) && (nx > 1 || ny > 1)) {
            free(covered);
            free(counts);
            nx = nx > 1 ? nx / 2 : 1;
            ny = ny > 1 ? ny / 2 : 1;
            continue;
        }
        size_t words = ncells + 1 + total + (size_t)b->nalways;
        uint32_t *mem = malloc(words * sizeof *mem);
        if (!mem) {
            free(covered);
            free(counts);
            b->nx = b->ny = 0;
            return HT_E_NO_MEMORY;
        }
        b->grid_memory = mem;
        b->cell_start = mem;
        b->items = mem + ncells + 1;
        b->always = b->items + total;
        uint32_t run = 0;
        for (size_t c = 0; c < ncells; c++) {
            b->cell_start[c] = run;
            run += counts[c];
            counts[c] = b->cell_start[c];
        }
        b->cell_start[ncells] = run;
        fill_cells(b, boxes, kinds, covered, counts, b->items);
        int32_t a = 0;
        for (int32_t k = 0; k < b->count; k++)
            if (kinds[k] == BOX_UNBOUNDED) b->always[a++] = (uint32_t)k;
        free(covered);
        free(counts);
        return HT_OK;
    }
}

/* Doubles in their order as integers (-0 and +0 alike), and back. */
static int64_t dkey(double d) {
    int64_t i;
    memcpy(&i, &d, sizeof i);
    return i >= 0 ? i : INT64_MIN - i;
}

static double dval(int64_t k) {
    int64_t i = k >= 0 ? k : INT64_MIN - k;
    double d;
    memcpy(&d, &i, sizeof d);
    return d;
}

/* Both exits of `threshold` with a threshold found: *out = x; 0 when x is not finite. */
static int threshold_found(double x, double *out) {
    *out = x;
    return isfinite(*out);
}

/* The next double above / below a finite `x` (nextafter, inline: blocks are rebuilt often). */
static inline double next_up(double x) { return dval(dkey(x) + 1); }
static inline double next_down(double x) { return dval(dkey(x) - 1); }

/* The smallest double t with t + a (rounded) >= v, or a non-finite value when it cannot be
 * found quickly. t + a rounds to v or above exactly when it is at least the midpoint between v
 * and the double below it, so the answer is within a few ulps of (v - a) + that half gap, even
 * when v - a cancels (then it is exact): step from there one double at a time. */
static double first_passing(double a, double v) {
    double half_gap = (next_down(v) - v) / 2;
    double t = (v - a) + half_gap;
    if (!isfinite(t)) return NAN;
    int passes = t + a >= v;
    for (int step = 0; step < 16; step++) {
        double u = passes ? next_down(t) : next_up(t);
        if (!isfinite(u)) return NAN;
        int upasses = u + a >= v;
        if (passes && !upasses) return t; /* t passes, the double below it does not */
        if (!passes && upasses) return u;
        t = u;
    }
    return NAN;
}

/* The smallest finite x whose image (x - c) + o is >= v (the walk's conversion of an identity
 * transform, then its region test). The image is monotonic in x, and so is each rounded step:
 * (x - c) + o >= v exactly when x - c >= T, T the smallest double t with t + o >= v, and that
 * exactly when x >= the smallest double x with x + (-c) >= T (x - c and x + (-c) are the same
 * operation). Each is found by first_passing; when that gives up (extreme values), by bisection
 * over all doubles. 0 when no finite x is the threshold (every finite x passes, or none does). */
static int threshold(double c, double o, double v, double *out) {
    int64_t lo = dkey(-DBL_MAX), hi = dkey(DBL_MAX);
    if (!isfinite(c) || !isfinite(o) || !isfinite(v)) return 0;
    if ((-DBL_MAX - c) + o >= v || !((DBL_MAX - c) + o >= v)) return 0;
    double tt = first_passing(o, v);
    double x = isfinite(tt) ? first_passing(-c, tt) : NAN;
    if (isfinite(x) && (x - c) + o >= v && !((next_down(x) - c) + o >= v))
        return threshold_found(x, out);
    /* image(lo) < v <= image(hi). The span of keys does not fit an int64_t: it is taken as
     * unsigned. */
    while ((uint64_t)hi - (uint64_t)lo > 1) {
        int64_t mid = (int64_t)((uint64_t)lo + ((uint64_t)hi - (uint64_t)lo) / 2);
        if ((dval(mid) - c) + o >= v) hi = mid;
        else lo = mid;
    }
    return threshold_found(dval(hi), out);
}

/* `x` is the threshold of (c, o, v): its image reaches v, the double below it does not. */
static int is_threshold(double c, double o, double v, double x) {
    return isfinite(x) && (x - c) + o >= v && !((nextafter(x, -INFINITY) - c) + o >= v);
}

int htq_block_tests_ok(const block *b) {
    if (!b->tests) return b->count < TEST_MIN;
    for (int32_t k = 0; k < b->count; k++) {
        const kid *x = &b->kids[k];
        const kid_test *r = &b->tests[k];
        if (r->slot != x->slot || (r->flags & ~(uint32_t)K_FAST) != x->flags) return 0;
        if (!(r->flags & K_FAST)) continue;
        if (!(x->flags & K_IDENTITY) || !is_threshold(x->cx, x->offx, x->x0, r->tx0) ||
            !is_threshold(x->cx, x->offx, x->x1, r->tx1) || !is_threshold(x->cy, x->offy, x->y0, r->ty0) ||
            !is_threshold(x->cy, x->offy, x->y1, r->ty1))
            return 0;
    }
    return 1;
}

/* The compact record of candidate `x` (see kid_test). */
static kid_test make_test(const kid *x) {
    kid_test r = {0, 0, 0, 0, x->slot, x->flags};
    uint32_t f = x->flags;
    if ((f & K_IDENTITY) && (f & K_ELIGIBLE) && !(f & (HT_FLAG_ASK_HIT_TEST | HT_FLAG_ASK_POINT_INSIDE)) &&
        threshold(x->cx, x->offx, x->x0, &r.tx0) && threshold(x->cx, x->offx, x->x1, &r.tx1) &&
        threshold(x->cy, x->offy, x->y0, &r.ty0) && threshold(x->cy, x->offy, x->y1, &r.ty1))
        r.flags |= K_FAST;
    return r;
}

/* Bytes of a block of `count` candidates before its grid: header, kids, compact records. */
static size_t block_head(int32_t count) {
    return sizeof(block) + (size_t)count * (sizeof(kid) + (count >= TEST_MIN ? sizeof(kid_test) : 0));
}

ht_status htq_make_block(const ht_tree *t, int32_t p, block **out) {
    return htq_remake_block(t, p, NULL, out);
}

ht_status htq_remake_block(const ht_tree *t, int32_t p, const block *old, block **out) {
    *out = NULL;
    int32_t n = t->nkids[p];
    if (n == 0) return HT_OK;
    int32_t *slots = malloc((size_t)n * sizeof *slots);
    cand_box *boxes = malloc((size_t)n * sizeof *boxes);
    int *kinds = malloc((size_t)n * sizeof *kinds);
    block *b = NULL;
    ht_status st = HT_E_NO_MEMORY;
    if (!slots || !boxes || !kinds) goto done;
    if ((st = htq_search_order(t, p, slots)) != HT_OK) goto done;
    st = HT_E_NO_MEMORY;
    /* The candidates: the children that can be hit somewhere, in search order. */
    int32_t count = 0;
    for (int32_t k = 0; k < n; k++) {
        int kind = child_box(t, slots[k], &boxes[count]);
        if (kind == BOX_NEVER) continue;
        kinds[count] = kind;
        slots[count++] = slots[k];
    }
    b = malloc(block_head(count));
    if (!b) goto done;
    memset(b, 0, sizeof *b);
    b->moved = MOVED_NONE;
    b->count = count;
    b->tests = count >= TEST_MIN ? (kid_test *)(void *)&b->kids[count] : NULL;
    for (int32_t k = 0; k < count; k++) {
        kid *x = &b->kids[k];
        htq_row_kid(t, slots[k], x);
        if (kinds[k] == BOX_UNBOUNDED) b->nalways++;
        /* A record depends only on its kid: one unchanged at the same place is reused (a move
         * of one of 20,000 candidates rebuilds the block). */
        if (b->tests && old && old->tests && k < old->count && memcmp(&old->kids[k], x, sizeof *x) == 0)
            b->tests[k] = old->tests[k];
        else if (b->tests)
            b->tests[k] = make_test(x);
    }
    if (count >= GRID_MIN) {
        st = build_grid(b, boxes, kinds);
        if (st != HT_OK) goto done;
    }
    *out = b;
    b = NULL;
    st = HT_OK;
done:
    htq_release_block(b);
    free(slots);
    free(boxes);
    free(kinds);
    return st;
}

static size_t grid_words(const block *b) {
    if (b->nx == 0) return 0;
    return (size_t)b->nx * (size_t)b->ny + 1 + b->cell_start[(size_t)b->nx * (size_t)b->ny] +
           (size_t)b->nalways;
}

size_t htq_block_bytes(const block *b) {
    return block_head(b->count) + grid_words(b) * sizeof(uint32_t);
}

ht_status htq_copy_block(const block *b, block **out) {
    size_t head = block_head(b->count);
    block *c = malloc(head);
    if (!c) return HT_E_NO_MEMORY;
    memcpy(c, b, head);
    if (c->tests) c->tests = (kid_test *)(void *)&c->kids[c->count];
    if (b->nx != 0) {
        size_t words = grid_words(b);
        uint32_t *mem = malloc(words * sizeof *mem);
        if (!mem) {
            free(c);
            return HT_E_NO_MEMORY;
        }
        memcpy(mem, b->grid_memory, words * sizeof *mem);
        c->grid_memory = mem;
        c->cell_start = mem;
        c->items = mem + (b->items - b->cell_start);
        c->always = mem + (b->always - b->cell_start);
    }
    *out = c;
    return HT_OK;
}

/* A cell's new list while a block is patched: `n` items from `at` in the patch's buffer. */
typedef struct cell_list {
    size_t cell, at, n;
} cell_list;

typedef struct item_buf {
    uint32_t *items;
    size_t n, cap;
} item_buf;

static int push_item(item_buf *q, uint32_t k) {
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 256;
        uint32_t *p = realloc(q->items, cap * sizeof *p);
        if (!p) return 0;
        q->items = p;
        q->cap = cap;
    }
    q->items[q->n++] = k;
    return 1;
}

/*
 * The new list of cell (ix, iy) of `b` when candidate `k` moved from box `was` to `now` (both
 * bounded), every other candidate unchanged: the old list without `k`, `k` put back in search
 * order where its new range reaches the cell, cut after the first candidate that surely covers
 * the cell. Where `k` covered the cell before, the old list ended at it and the candidates that
 * follow are found again from their rows. Exactly what fill_cells makes from the new boxes.
 */
static ht_status patch_cell(const ht_tree *t, const block *b, const cell_geom *cg, int32_t k,
                            const cand_box *was, const cand_box *now, const int32_t rnow[4],
                            int32_t ix, int32_t iy, item_buf *out) {
    size_t c = (size_t)iy * (size_t)b->nx + (size_t)ix;
    const uint32_t *l = b->items + b->cell_start[c];
    size_t n = b->cell_start[c + 1] - b->cell_start[c];
    int put = in_range(rnow, ix, iy), listed = 0;
    for (size_t i = 0; i < n; i++) {
        if (l[i] == (uint32_t)k) {
            listed = 1;
            continue;
        }
        if (put && (uint32_t)k < l[i]) {
            put = 0;
            if (!push_item(out, (uint32_t)k)) return HT_E_NO_MEMORY;
            if (covers_cell(b, cg, now, BOX_BOUNDED, ix, iy)) return HT_OK;
        }
        if (!push_item(out, l[i])) return HT_E_NO_MEMORY;
    }
    if (put) {
        /* After every listed candidate: unless the old list ended at one covering the cell. */
        if (!listed && n > 0) {
            cand_box last;
            int kind = child_box(t, b->kids[l[n - 1]].slot, &last);
            if (covers_cell(b, cg, &last, kind, ix, iy)) return HT_OK;
        }
        if (!push_item(out, (uint32_t)k)) return HT_E_NO_MEMORY;
        if (covers_cell(b, cg, now, BOX_BOUNDED, ix, iy)) return HT_OK;
    }
    if (!(listed && covers_cell(b, cg, was, BOX_BOUNDED, ix, iy))) return HT_OK;
    for (int32_t j = k + 1; j < b->count; j++) {
        cand_box x;
        int32_t r[4];
        int kind = child_box(t, b->kids[j].slot, &x);
        if (!cell_range(b, &x, kind, r) || !in_range(r, ix, iy)) continue;
        if (!push_item(out, (uint32_t)j)) return HT_E_NO_MEMORY;
        if (covers_cell(b, cg, &x, kind, ix, iy)) return HT_OK;
    }
    return HT_OK;
}

/* The items of `b`'s grid once the lists of `cells` are replaced by theirs. */
static size_t spliced_items(const block *b, const cell_list *cells, size_t ncl) {
    size_t total = b->cell_start[(size_t)b->nx * (size_t)b->ny];
    for (size_t i = 0; i < ncl; i++)
        total = total - (b->cell_start[cells[i].cell + 1] - b->cell_start[cells[i].cell]) + cells[i].n;
    return total;
}

/* The grid of `b` with the lists of `cells` (in ascending cell order) replaced by theirs in
 * `buf`, in one new allocation (the old one freed); HT_E_NO_MEMORY leaves `b` as it was. */
static ht_status splice_grid(block *b, const cell_list *cells, size_t ncl, const item_buf *buf) {
    size_t ncells = (size_t)b->nx * (size_t)b->ny;
    size_t total = spliced_items(b, cells, ncl);
    uint32_t *mem = malloc((ncells + 1 + total + (size_t)b->nalways) * sizeof *mem);
    if (!mem) return HT_E_NO_MEMORY;
    uint32_t *start = mem, *items = mem + ncells + 1;
    size_t run = 0, next = 0;
    for (size_t c = 0; c < ncells; c++) {
        start[c] = (uint32_t)run;
        const uint32_t *from = b->items + b->cell_start[c];
        size_t n = b->cell_start[c + 1] - b->cell_start[c];
        if (next < ncl && cells[next].cell == c) {
            from = buf->items + cells[next].at;
            n = cells[next].n;
            next++;
        }
        memcpy(items + run, from, n * sizeof *items);
        run += n;
    }
    start[ncells] = (uint32_t)run;
    memcpy(items + run, b->always, (size_t)b->nalways * sizeof *items);
    free(b->grid_memory);
    b->grid_memory = mem;
    b->cell_start = start;
    b->items = items;
    b->always = items + run;
    return HT_OK;
}

/*
 * Patches the block of `p` after one child, `s`, changed in a way that keeps the candidates
 * and their order (block->moved): its record, its compact record and the lists of the cells its
 * old or new box reaches, so that the block equals what htq_make_block would build now
 * (ht_tree_validate checks it). *done = 0 when the change reaches further (its old box needs a
 * transform the record does not keep, its kind changed, the grid's extent or size would
 * change): the caller builds the block anew.
 */
static ht_status patch_block(const ht_tree *t, block *b, int32_t s, int *done) {
    *done = 0;
    int32_t k = 0;
    while (k < b->count && (b->tests ? b->tests[k].slot : b->kids[k].slot) != s) k++;
    cand_box now;
    int kind = child_box(t, s, &now);
    if (k == b->count) {
        *done = kind == BOX_NEVER; /* not a candidate before (flags unchanged), nor now */
        return HT_OK;
    }
    kid x;
    htq_row_kid(t, s, &x);
    const kid *old = &b->kids[k];
    if (x.flags != old->flags || !(old->flags & K_IDENTITY)) return HT_OK;
    static const double identity6[6] = {1, 0, 0, 1, 0, 0};
    cand_box was;
    if (kid_box(old, identity6, &was) != kind || kind == BOX_NEVER) return HT_OK;
    int32_t bounded = b->count - b->nalways;
    if (b->nx == 0 && b->count >= GRID_MIN && bounded >= GRID_MIN / 2) return HT_OK;
    if (b->nx > 0 && kind == BOX_BOUNDED) {
        /* The grid lies over the union of the bounded boxes: the same union, and the same size
         * (a block whose grid was coarsened is built anew). */
        const ht_box *o = &was.reach, *r = &now.reach;
        if (!(b->gx0 <= r->x0 && r->x1 <= b->gx1 && b->gy0 <= r->y0 && r->y1 <= b->gy1)) return HT_OK;
        if (!((b->gx0 < o->x0 || r->x0 == o->x0) && (o->x1 < b->gx1 || r->x1 == o->x1) &&
              (b->gy0 < o->y0 || r->y0 == o->y0) && (o->y1 < b->gy1 || r->y1 == o->y1)))
            return HT_OK;
        int32_t nx, ny;
        grid_size(bounded, b->gx1 - b->gx0, b->gy1 - b->gy0, &nx, &ny);
        if (nx != b->nx || ny != b->ny) return HT_OK;
        int32_t rw[4], rn[4];
        cell_range(b, &was, kind, rw);
        cell_range(b, &now, kind, rn);
        int32_t ix0 = rw[0] < rn[0] ? rw[0] : rn[0], ix1 = rw[1] > rn[1] ? rw[1] : rn[1];
        int32_t iy0 = rw[2] < rn[2] ? rw[2] : rn[2], iy1 = rw[3] > rn[3] ? rw[3] : rn[3];
        size_t span = (size_t)(ix1 - ix0 + 1) * (size_t)(iy1 - iy0 + 1), ncl = 0;
        cell_geom cg = cell_geom_of(b);
        cell_list *cells = malloc(span * sizeof *cells);
        item_buf buf = {NULL, 0, 0};
        ht_status st = cells ? HT_OK : HT_E_NO_MEMORY;
        /* Row by row: the cells in ascending order, as splice_grid takes them. */
        for (int32_t iy = iy0; iy <= iy1 && st == HT_OK; iy++)
            for (int32_t ix = ix0; ix <= ix1 && st == HT_OK; ix++) {
                if (!in_range(rw, ix, iy) && !in_range(rn, ix, iy)) continue;
                size_t at = buf.n;
                st = patch_cell(t, b, &cg, k, &was, &now, rn, ix, iy, &buf);
                cells[ncl++] = (cell_list){(size_t)iy * (size_t)b->nx + (size_t)ix, at, buf.n - at};
            }
        /* More items than a grid of this size may hold: a build would coarsen it. */
        int fits = st == HT_OK && spliced_items(b, cells, ncl) <= items_limit(b->count);
        if (fits) st = splice_grid(b, cells, ncl, &buf);
        free(cells);
        free(buf.items);
        if (st != HT_OK || !fits) return st;
    }
    b->kids[k] = x;
    if (b->tests) b->tests[k] = make_test(&x);
    *done = 1;
    return HT_OK;
}

ht_status htq_build_block(ht_tree *t, int32_t p) {
    block *b = t->hq.blocks[p];
    if (b && b->moved >= 0) {
        int done;
        ht_status st = patch_block(t, b, b->moved, &done);
        if (st != HT_OK) return st;
        b->moved = MOVED_NONE;
        if (done) {
            t->hq.builds++;
            t->hq.patches++;
            return HT_OK;
        }
    }
    ht_status st = htq_remake_block(t, p, b, &b);
    if (st != HT_OK) return st;
    htq_free_block(t, p);
    t->hq.blocks[p] = b;
    t->hq.builds++;
    return HT_OK;
}

int htq_blocks_equal(const block *a, const block *b) {
    if (a->count != b->count || a->nx != b->nx || a->ny != b->ny || a->nalways != b->nalways)
        return 0;
    if (memcmp(a->kids, b->kids, (size_t)a->count * sizeof(kid)) != 0) return 0;
    if (!a->tests != !b->tests) return 0;
    if (a->tests && memcmp(a->tests, b->tests, (size_t)a->count * sizeof(kid_test)) != 0) return 0;
    if (a->nx == 0) return 1;
    double ga[6] = {a->gx0, a->gy0, a->gx1, a->gy1, a->sx, a->sy};
    double gb[6] = {b->gx0, b->gy0, b->gx1, b->gy1, b->sx, b->sy};
    if (memcmp(ga, gb, sizeof ga) != 0) return 0;
    size_t words = grid_words(a);
    return words == grid_words(b) &&
           memcmp(a->grid_memory, b->grid_memory, words * sizeof(uint32_t)) == 0;
}
