/*
 * answers.c - the answer grid: most bulk points answered by one lookup.
 *
 * For each cell of a grid over the query root's region, a box walk decides whether every point
 * of the cell gets the same answer from UIKit's walk. The box is carried down the tree like a
 * point: into each child's space (the bounding box of its mapped corners, widened by a margin
 * that dwarfs any rounding of the exact per-point arithmetic), and at each level a box that is
 * wholly inside a region behaves like every point in it, and a box wholly outside like none.
 * Anything less clear-cut (a box across an edge, a hook, a pass-through view) makes the cell
 * UNSURE, and its points take the exact walk. So the grid never decides a point differently
 * from the walk; it only skips the walk where the outcome is already known.
 *
 * An UNSURE cell also gets a candidate list (hitq.h): the same box walk, which lists, in the
 * walk's order, the nodes that take some of the box's points and not others, each as its
 * region folded into the root's space with margins; a point of the cell is then decided by
 * the first entry that may hold it, and only points within a margin of an edge (or in a
 * subtree the lists do not fold: hooks, rotations) take the exact walk.
 */
#include "internal.h"

#include <string.h>

#define MAX_CELLS 262144
#define MIN_CELLS 4096
#define SAMPLE_CELLS 1024
/* Answer-grid cells per node of the tree (finer for bigger trees, within MAX_CELLS). */
#ifndef CELLS_PER_NODE
#define CELLS_PER_NODE 64
#endif
/* ... and in a grid the single queries start, coarser: its cells are computed one by one as
 * points land in them, so fewer cells reach most points sooner. */
#ifndef LAZY_CELLS_PER_NODE
#define LAZY_CELLS_PER_NODE 16
#endif
/* Rent per cell of the full grid that buys a lazy grid's replacement by the full one (ski
 * rental: the build is paid once the queries have lost about as much without it, which bounds
 * their cost at twice the better of never building it and building it at once). Rent is counted
 * in units of about 20 ns. The full grid costs some 70 to 175 ns a cell to build (hittest-bench
 * --quick, the answer grid: app 6.55 ms for 93,120 cells, pin-map 45.9 ms for 262,144), about
 * 100 ns on the whole: 5 units. A single query the lazy grid leaves to a list or the walk costs
 * some 20 ns more than one a cell decides (its cells' lists answer most such queries: measured
 * on uniform points, a never-promoted lazy grid against the full one, the difference over the
 * share left undecided: 14 to 26 ns on app and the table scenes): 1 unit. Settling a cell costs
 * some 220 ns, making its list some 180 ns (app, 100,000 new points: the time beyond the
 * steady state's over the cells settled or listed): SETTLE_RENT and LIST_BUILD_RENT units. A
 * scene that keeps changing drops or refreshes its lazy grid before the rent comes due. */
#ifndef RENT_PER_CELL
#define RENT_PER_CELL 5
#endif
#define SETTLE_RENT 11
#define LIST_BUILD_RENT 9
/* Queries a lazy grid's cell settled not sure leaves undecided (the walk) before its candidate
 * list is made (htq_list_due): a list costs a few cell walks, so a cell that a tap or two reach
 * does not pay for one, a cell a stream of points crowds does at once. */
#ifndef LIST_RENT
#define LIST_RENT 4
#endif
#define MAX_BOX_DEPTH 128
#define SCAN_LIMIT 64
/* Scratch for unions of cell lists (box_candidates), items per answer-grid build. */
#define UNION_CAP 16384
/* A union of more items than this is not worth it: the cell is left UNSURE. */
#define UNION_MAX 1024
/* A change whose reach covers more than 1/LAZY_DROP_SHARE of a started grid's cells drops it. */
#define LAZY_DROP_SHARE 8

/* ---- lifted regions, kept while the tree does not change ---- */

/*
 * Regions carried into the root's space (lift), kept while the tree does not change: for one
 * pass over many cells (a refresh, a build of the lists), or by a lazy grid between the changes
 * (its cells are listed one at a time, as single queries reach them). A node's lifted region is
 * the same for every cell whose list names it, so each is lifted once, not once per cell.
 */
typedef struct lift_memo {
    int32_t *slots;  /* the node of each entry in use */
    uint32_t *stamp; /* an entry is in use when its stamp is `now` (memo_clear: now + 1) */
    ht_box *boxes;   /* outer, inner per entry */
    uint8_t *ok;     /* what lift returned */
    uint32_t bits, used, now;
} lift_memo;

typedef struct scratch {
    uint32_t *buf;
    size_t cap, used;
    lift_memo *memo; /* NULL: every lift computed */
} scratch;

/* A memo of 2^bits entries, all free; 0 (and no memo) without memory. */
static int memo_make(lift_memo *m, uint32_t bits) {
    size_t n = (size_t)1 << bits;
    m->slots = malloc(n * sizeof *m->slots);
    m->stamp = calloc(n, sizeof *m->stamp);
    m->boxes = malloc(2 * n * sizeof *m->boxes);
    m->ok = malloc(n);
    m->bits = bits;
    m->used = 0;
    m->now = 1;
    if (!m->slots || !m->stamp || !m->boxes || !m->ok) {
        free(m->slots);
        free(m->stamp);
        free(m->boxes);
        free(m->ok);
        return 0;
    }
    return 1;
}

/* Every entry free again, in O(1) (a new stamp; the stamps are zeroed when it wraps). */
static void memo_clear(lift_memo *m) {
    m->used = 0;
    if (++m->now == 0) {
        memset(m->stamp, 0, ((size_t)1 << m->bits) * sizeof *m->stamp);
        m->now = 1;
    }
}

static void memo_free(lift_memo *m) {
    free(m->slots);
    free(m->stamp);
    free(m->boxes);
    free(m->ok);
}

/* ---- the palette: answers <-> 16-bit codes ---- */

static inline uint32_t answer_hash(int32_t a, int32_t cap) {
    return ((uint32_t)a * 2654435761u) & (uint32_t)(cap - 1);
}

static void lists_free(answer_grid *g) {
    free(g->listbits);
    free(g->listrank);
    free(g->cell_slot);
    free(g->list_head);
    free(g->items);
    free(g->entries);
    free(g->entry_node);
    free(g->entry_hash);
    g->listbits = NULL;
    g->listrank = NULL;
    g->cell_slot = NULL;
    g->list_head = NULL;
    g->items = NULL;
    g->entries = NULL;
    g->entry_node = NULL;
    g->entry_hash = NULL;
    g->nlists = g->list_cap = 0;
    g->lists_append = 0;
    g->items_cap = 0;
    g->nentries = g->entries_cap = g->entries_built = 0;
    g->hash_slots = g->hash_used = 0;
}

void htq_answers_free(answer_grid *g) {
    lists_free(g);
    if (g->memo) memo_free(g->memo);
    free(g->memo);
    g->memo = NULL;
    free(g->codes);
    free(g->palette);
    free(g->hash);
    free(g->subbits);
    free(g->subrank);
    free(g->sub);
    free(g->scratch);
    g->scratch = NULL;
    g->codes = NULL;
    g->palette = NULL;
    g->hash = NULL;
    g->subbits = NULL;
    g->subrank = NULL;
    g->sub = NULL;
    g->capacity = g->npalette = g->palette_cap = g->hash_cap = g->nsub = 0;
    g->subs_pending = 0;
    g->announced = 0;
    g->sub_base = MAX_CODES;
}

/* Words of the sub-grid bitmap for `cells` cells. */
static size_t sub_words(size_t cells) { return (cells + 63) / 64; }

size_t htq_answers_bytes(const answer_grid *g) {
    size_t words = g->subbits ? sub_words((size_t)g->capacity) : 0;
    size_t lists = 0;
    if (g->list_head)
        lists = (g->listbits ? sub_words((size_t)g->nx * (size_t)g->ny) * (sizeof *g->listbits + sizeof *g->listrank)
                             : (size_t)g->nx * (size_t)g->ny * sizeof *g->cell_slot) +
                ((size_t)(g->list_cap ? g->list_cap : g->nlists + 1)) * sizeof *g->list_head +
                (size_t)g->items_cap * sizeof *g->items +
                (size_t)g->entries_cap * (sizeof *g->entries + sizeof *g->entry_node) +
                (size_t)g->hash_slots * sizeof *g->entry_hash;
    /* The single queries' scratch and memo, kept between their calls. */
    size_t kept = (g->scratch ? UNION_CAP * sizeof *g->scratch : 0) +
                  (g->memo ? ((size_t)1 << g->memo->bits) * (sizeof *g->memo->slots + sizeof *g->memo->stamp +
                                                             2 * sizeof *g->memo->boxes + sizeof *g->memo->ok)
                           : 0);
    return kept + lists + (size_t)g->capacity * sizeof *g->codes + (size_t)g->palette_cap * sizeof *g->palette +
           (size_t)g->hash_cap * sizeof *g->hash + words * (sizeof *g->subbits + sizeof *g->subrank) +
           (size_t)g->nsub * SUB_CELLS * sizeof *g->sub;
}

/* Empties the palette (keeping UNSURE, UNKNOWN and SUBGRID). */
static void palette_reset(answer_grid *g) {
    g->npalette = FIRST_CODE;
    if (g->hash) memset(g->hash, 0, (size_t)g->hash_cap * sizeof *g->hash);
}

/* Rehashes into a table of `cap` entries (a power of two); 0 on no memory. */
static int palette_rehash(answer_grid *g, int32_t cap) {
    uint16_t *h = calloc((size_t)cap, sizeof *h);
    if (!h) return 0;
    free(g->hash);
    g->hash = h;
    g->hash_cap = cap;
    for (int32_t c = FIRST_CODE; c < g->npalette; c++) {
        uint32_t i = answer_hash(g->palette[c], cap);
        while (h[i]) i = (i + 1) & (uint32_t)(cap - 1);
        h[i] = (uint16_t)c;
    }
    return 1;
}

/* The code of answer `a` (a handle or HT_NULL_NODE, UNSURE, UNKNOWN), adding it to the palette;
 * CODE_UNSURE when the palette is full or out of memory (the walk then decides: still exact). */
static uint16_t code_of(answer_grid *g, int32_t a) {
    if (a == UNSURE) return CODE_UNSURE;
    if (a == UNKNOWN) return CODE_UNKNOWN;
    if (a == SUBGRID) return CODE_SUBGRID;
    if (g->hash_cap) {
        uint32_t i = answer_hash(a, g->hash_cap);
        while (g->hash[i]) {
            if (g->palette[g->hash[i]] == a) return g->hash[i];
            i = (i + 1) & (uint32_t)(g->hash_cap - 1);
        }
    }
    if (g->npalette >= g->sub_base) return CODE_UNSURE;
    if (g->npalette == g->palette_cap) {
        int32_t cap = g->palette_cap * 2;
        cap = cap > MAX_CODES ? MAX_CODES : cap;
        int32_t *p = realloc(g->palette, (size_t)cap * sizeof *p);
        if (!p) return CODE_UNSURE;
        g->palette = p;
        g->palette_cap = cap;
    }
    /* At most half full. */
    if (2 * (g->npalette + 1) > g->hash_cap && !palette_rehash(g, g->hash_cap ? 2 * g->hash_cap : 1024))
        return CODE_UNSURE;
    uint16_t code = (uint16_t)g->npalette++;
    g->palette[code] = a;
    uint32_t i = answer_hash(a, g->hash_cap);
    while (g->hash[i]) i = (i + 1) & (uint32_t)(g->hash_cap - 1);
    g->hash[i] = code;
    return code;
}

/* ---- unions of cell lists ---- */

static int by_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Appends `n` items to the scratch; 0 when there is no room. */
static int scratch_add(scratch *s, const uint32_t *items, size_t n) {
    if (s->cap - s->used < n) return 0;
    memcpy(s->buf + s->used, items, n * sizeof *items);
    s->used += n;
    return 1;
}

/* `b` (parent space) mapped into the child's bounds space: a box that holds the image of each
 * of its points as the walk converts it (to_local); 0 if not finite. Widened by the slack rule,
 * but for a translation: there each coordinate goes through (x - cx) + offx, two rounded steps
 * that never reverse an order, so the images of the box's corners bound those of its points
 * exactly, and a box whose edges meet a view's edges exactly (a full-screen view in a window,
 * a cell on a row boundary) is still proved inside or outside it. */
static int map_box(const kid *k, ht_box b, ht_box *out) {
    int identity = (k->flags & K_IDENTITY) != 0;
    ht_map map = {k->cx, k->cy, k->offx, k->offy, k->inv, identity, 0};
    ht_box tight;
    if (!ht_box_map(b, &map, 1, out, &tight, NULL)) return 0;
    if (identity) *out = tight;
    return 1;
}

static inline int box_inside(ht_box b, double x0, double y0, double x1, double y1) {
    return ht_box_inside(b, (ht_box){x0, y0, x1, y1});
}

static inline int box_outside(ht_box b, double x0, double y0, double x1, double y1) {
    return ht_box_outside(b, (ht_box){x0, y0, x1, y1});
}

/*
 * The candidates of `blk` that a box `b` in its parent's space can meet, as the walk would
 * list them for its points: one cell's list, the always list, or the union, in search order,
 * of the lists of every cell the box spans (plus the always list for a box partly outside the
 * grid), built in `s`. The union is exact: every point of the box is in one of those cells
 * (grid_cell is monotonic) or outside the grid, and a candidate that is in the union but not in
 * a point's own list cannot take that point (its reach misses the point's cell, or a candidate
 * earlier in the union surely takes every point of that cell first). Returns 0 when that cannot
 * be said (too many items): the cell stays UNSURE.
 */
static int box_candidates(const block *blk, ht_box b, scratch *s, const uint32_t **items,
                          int32_t *n) {
    *items = NULL;
    *n = blk->count;
    if (blk->nx == 0) return 1;
    /* The walk's in-grid test is x >= gx0 && x <= gx1 (closed). */
    if (b.x1 < blk->gx0 || b.x0 > blk->gx1 || b.y1 < blk->gy0 || b.y0 > blk->gy1) {
        *items = blk->always;
        *n = blk->nalways;
        return 1;
    }
    int partly = !(b.x0 >= blk->gx0 && b.x1 <= blk->gx1 && b.y0 >= blk->gy0 && b.y1 <= blk->gy1);
    /* grid_cell clamps, so the cells of the part inside the grid are these. */
    int32_t ix0 = grid_cell((b.x0 - blk->gx0) * blk->sx, blk->nx);
    int32_t ix1 = grid_cell((b.x1 - blk->gx0) * blk->sx, blk->nx);
    int32_t iy0 = grid_cell((b.y0 - blk->gy0) * blk->sy, blk->ny);
    int32_t iy1 = grid_cell((b.y1 - blk->gy0) * blk->sy, blk->ny);
    if (!partly && ix0 == ix1 && iy0 == iy1) {
        size_t c = (size_t)iy0 * (size_t)blk->nx + (size_t)ix0;
        *items = blk->items + blk->cell_start[c];
        *n = (int32_t)(blk->cell_start[c + 1] - blk->cell_start[c]);
        return 1;
    }
    if (blk->count <= SCAN_LIMIT) return 1; /* every candidate, in order: a superset too */
    size_t start = s->used;
    if ((int64_t)(ix1 - ix0 + 1) * (iy1 - iy0 + 1) > UNION_MAX) return 0;
    for (int32_t iy = iy0; iy <= iy1; iy++) {
        for (int32_t ix = ix0; ix <= ix1; ix++) {
            size_t c = (size_t)iy * (size_t)blk->nx + (size_t)ix;
            size_t k = blk->cell_start[c + 1] - blk->cell_start[c];

            if (s->used - start + k > UNION_MAX || !scratch_add(s, blk->items + blk->cell_start[c], k)) {
                s->used = start;
                return 0;
            }
        }
    }
    if (partly && (s->used - start + (size_t)blk->nalways > UNION_MAX ||
                   !scratch_add(s, blk->always, (size_t)blk->nalways))) {
        s->used = start;
        return 0;
    }
    uint32_t *u = s->buf + start;
    size_t m = s->used - start;
    qsort(u, m, sizeof *u, by_u32);
    size_t w = 0;
    for (size_t i = 0; i < m; i++)
        if (w == 0 || u[i] != u[w - 1]) u[w++] = u[i];
    s->used = start + w;
    *items = u;
    *n = (int32_t)w;
    return 1;
}

typedef struct box_frame {
    ht_box b; /* in the frame node's space */
    const block *blk;
    const uint32_t *items;
    int32_t pos, n, slot;
    size_t mark; /* scratch in use before this frame's union */
} box_frame;

/* What a node that searches no (more) children answers for every point. */
static inline int32_t own_answer(const ht_tree *t, int32_t slot) {
    return (t->flags[slot] & HT_FLAG_PASS_THROUGH) ? HT_NULL_NODE : make_handle(t, slot);
}

enum { NO_CHILD = -1, CHILD_UNSURE = -2 };

/* The next child of frame `f` that every point of its box enters (its slot, with the box in its
 * space in `*kb`); NO_CHILD when every remaining child misses the whole box; CHILD_UNSURE when a
 * child takes some points and not others, or has a test that lives in a hook. */
static int32_t next_child(box_frame *f, ht_box *kb) {
    while (f->pos < f->n) {
        const kid *k = &f->blk->kids[f->items ? f->items[f->pos] : (uint32_t)f->pos];
        f->pos++;
        if (k->flags & (HT_FLAG_ASK_HIT_TEST | HT_FLAG_ASK_POINT_INSIDE | HT_FLAG_OUTSIDE_HITS))
            return CHILD_UNSURE;
        if (!map_box(k, f->b, kb)) return CHILD_UNSURE;
        if (box_outside(*kb, k->x0, k->y0, k->x1, k->y1)) continue;
        if (!box_inside(*kb, k->x0, k->y0, k->x1, k->y1)) return CHILD_UNSURE;
        return k->slot;
    }
    return NO_CHILD;
}

/*
 * The answer every point of `b` gets from `root` (which contains all of `b`, is eligible and
 * has no hooks), or UNSURE: the point walk of hit_test.c with a box for the point. A child that
 * wholly contains the box is entered, one that wholly misses it is skipped, anything else is
 * UNSURE. A pass-through child that nothing below takes answers nil, and the search goes on
 * with its next sibling, as it does for a point.
 */
static int32_t sure_answer(const ht_tree *t, int32_t root, ht_box b, scratch *s) {
    box_frame st[MAX_BOX_DEPTH];
    int depth = 0;
    int32_t slot = root;
    int entering = 1;
    for (;;) {
        int32_t answer;
        if (entering) {
            const block *blk = t->hq.blocks[slot];
            if ((t->flags[slot] & HT_FLAG_CAPTURES) || !blk || blk->count == 0) {
                answer = own_answer(t, slot);
            } else {
                if (depth == MAX_BOX_DEPTH) return UNSURE;
                box_frame *f = &st[depth++];
                f->mark = s->used;
                if (!box_candidates(blk, b, s, &f->items, &f->n)) return UNSURE;
                f->b = b;
                f->blk = blk;
                f->pos = 0;
                f->slot = slot;
                entering = 0;
                continue;
            }
        } else {
            box_frame *f = &st[depth - 1];
            int32_t next = next_child(f, &b);
            if (next == CHILD_UNSURE) return UNSURE;
            if (next >= 0) {
                slot = next;
                entering = 1;
                continue;
            }
            depth--;
            s->used = f->mark;
            answer = own_answer(t, f->slot);
        }
        if (answer != HT_NULL_NODE || depth == 0) return answer; /* any hit is final */
        entering = 0; /* nil: the parent's search goes on */
    }
}

/* The answer every point of box `b` (in the root's space) that the grid is asked for surely
 * gets, or UNSURE. The grid is asked only for points of its domain, [gx0, gx1) x [gy0, gy1)
 * (every lookup tests it first), so the box is cut to the domain's closed hull of those points
 * first: a cell on the domain's edge is not left unsure by the part of its widened box that lies
 * outside, where no point is ever looked up. (The domain is the root's region when the grid is
 * laid out; a change of the root's region is judged as any other, against the cut box.) */
static int32_t box_answer(const ht_tree *t, const answer_grid *g, ht_box b, scratch *s) {
    int32_t root = g->root;
    if (!(t->flags[root] & K_ELIGIBLE)) return HT_NULL_NODE;
    b.x0 = fmax(b.x0, g->gx0);
    b.y0 = fmax(b.y0, g->gy0);
    b.x1 = fmin(b.x1, nextafter(g->gx1, -INFINITY));
    b.y1 = fmin(b.y1, nextafter(g->gy1, -INFINITY));
    if (!(b.x0 <= b.x1 && b.y0 <= b.y1)) return UNSURE; /* no point of it is asked (or NaN) */
    double x0 = t->rx0[root], y0 = t->ry0[root], x1 = t->rx1[root], y1 = t->ry1[root];
    if (box_outside(b, x0, y0, x1, y1)) return HT_NULL_NODE;
    if (!box_inside(b, x0, y0, x1, y1)) return UNSURE;
    s->used = 0;
    return sure_answer(t, root, b, s);
}

/* A box that holds every point that maps to a cell in columns ix0..ix1, rows iy0..iy1 of `g`
 * (the mapping is monotonic, and so are these bounds in the cell numbers: the box of a block of
 * cells holds each of its cells' boxes). */
static ht_box cells_box(const answer_grid *g, int32_t ix0, int32_t ix1, int32_t iy0, int32_t iy1) {
    double cw = (g->gx1 - g->gx0) / g->nx, ch = (g->gy1 - g->gy0) / g->ny;
    double slack = ht_box_slack((ht_box){g->gx0, g->gy0, g->gx1, g->gy1});
    return (ht_box){g->gx0 + ix0 * cw - slack, g->gy0 + iy0 * ch - slack, g->gx0 + (ix1 + 1) * cw + slack,
                    g->gy0 + (iy1 + 1) * ch + slack};
}

/* The answer every point of cell (ix, iy) of `g` surely gets, or UNSURE. */
static int32_t cell_answer(const ht_tree *t, const answer_grid *g, int32_t ix, int32_t iy,
                           scratch *s) {
    return box_answer(t, g, cells_box(g, ix, ix, iy, iy), s);
}

/* ---- candidate lists (hitq.h) ---- */

/* Deeper than this below the root, a cell gets no list (the walk decides). */
#define MAX_LIST_DEPTH 64

static const ht_box EMPTY_BOX = {INFINITY, INFINITY, -INFINITY, -INFINITY};
static const ht_box ALL_BOX = {-INFINITY, -INFINITY, INFINITY, INFINITY};

static inline int box_empty(ht_box b) { return !(b.x0 <= b.x1 && b.y0 <= b.y1); }

static inline ht_box box_meet(ht_box a, ht_box b) {
    return (ht_box){fmax(a.x0, b.x0), fmax(a.y0, b.y0), fmin(a.x1, b.x1), fmin(a.y1, b.y1)};
}

/* Each axis maps on its own (a translation, a scale): a rectangle stays a rectangle. */
static int axis_aligned(const ht_tree *t, int32_t s) {
    return (t->flags[s] & K_IDENTITY) || (t->xb[s] == 0 && t->xc[s] == 0 && t->ib[s] == 0 && t->ic[s] == 0);
}

/* The extra factor of the slack rule for points that reach `s` through its computed inverse
 * (as index.c's child_box takes it). */
static double row_condition(const ht_tree *t, int32_t s) {
    if (t->flags[s] & K_IDENTITY) return 1;
    return (fabs(t->xa[s]) + fabs(t->xb[s]) + fabs(t->xc[s]) + fabs(t->xd[s])) *
           (fabs(t->ia[s]) + fabs(t->ib[s]) + fabs(t->ic[s]) + fabs(t->id[s]));
}

/* `outer` and `inner`, boxes in the bounds space of `p` (the grid's root or a descendant whose
 * chain up to the root is axis-aligned), carried into the root's space level by level: `outer`
 * widened and `inner` shrunk by the slack rule at each level. 0 when a box is not finite. */
static int lift(const ht_tree *t, int32_t root, int32_t p, ht_box *outer, ht_box *inner) {
    for (int depth = 0; p != root; depth++) {
        if (p < 0 || depth > MAX_LIST_DEPTH) return 0;
        double m6[6] = ROW_TRANSFORM(t, p);
        double cond = row_condition(t, p);
        ht_map map = {t->cx[p], t->cy[p], t->offx[p], t->offy[p], m6, (t->flags[p] & K_IDENTITY) != 0, 1};
        if (!ht_box_map(*outer, &map, cond, outer, NULL, NULL)) return 0;
        if (!box_empty(*inner)) {
            ht_box wide, tight;
            double m;
            if (!ht_box_map(*inner, &map, cond, &wide, &tight, &m)) return 0;
            *inner = ht_box_widen(tight, -m);
        }
        p = t->parent[p];
    }
    return 1;
}

/* The region of `c` carried into the root's space (lift), through `m` when not NULL. */
static int lift_region(const ht_tree *t, int32_t root, int32_t c, ht_box *outer, ht_box *inner, lift_memo *m) {
    uint32_t i = 0, n = 0;
    if (m) {
        n = (uint32_t)1 << m->bits;
        i = ((uint32_t)c * 2654435761u) >> (32 - m->bits);
        while (m->stamp[i] == m->now && m->slots[i] != c) i = (i + 1) & (n - 1);
        if (m->stamp[i] == m->now) {
            *outer = m->boxes[2 * i];
            *inner = m->boxes[2 * i + 1];
            return m->ok[i];
        }
    }
    *outer = row_region(t, c);
    *inner = *outer;
    int ok = lift(t, root, c, outer, inner);
    if (m && m->used < n / 2) { /* half full at most: probes stay short */
        m->slots[i] = c;
        m->stamp[i] = m->now;
        m->boxes[2 * i] = *outer;
        m->boxes[2 * i + 1] = *inner;
        m->ok[i] = (uint8_t)ok;
        m->used++;
    }
    return ok;
}

typedef struct list_build {
    list_entry *e;
    int32_t *key; /* the node of each entry */
    int n;
    ht_box cell; /* every point of the cell is in it (root space) */
    int done;    /* an entry surely takes every point of the cell: nothing after it matters */
} list_build;

/* Appends an entry (outer and inner in the root's space): none when its outer misses the
 * cell (no point of the cell reaches the node). 0 when the list is full. */
static int emit(list_build *L, int32_t node, ht_box outer, ht_box inner, int32_t answer) {
    if (ht_box_disjoint_closed(outer, L->cell)) return 1;
    if (L->n == LIST_MAX) return 0;
    L->key[L->n] = node;
    list_entry *e = &L->e[L->n++];
    *e = (list_entry){{outer.x0, outer.y0, -outer.x1, -outer.y1}, {INFINITY, INFINITY, INFINITY, INFINITY},
                      answer, 0};
    if (!box_empty(inner)) {
        e->inner[0] = inner.x0;
        e->inner[1] = inner.y0;
        e->inner[2] = -inner.x1;
        e->inner[3] = -inner.y1;
    }
    /* The test the lookup makes, on the cell's corners: every point of the cell passes it. */
    L->done = in_entry_box(e->inner, L->cell.x0, L->cell.y0) && in_entry_box(e->inner, L->cell.x1, L->cell.y1);
    return 1;
}

typedef struct list_frame {
    ht_box b;      /* the cell's box in the frame node's space */
    ht_box co, ci; /* where a point reaches the node's children, in the root's space */
    const block *blk;
    const uint32_t *items;
    int32_t pos, n, slot;
    size_t mark;   /* scratch in use before this frame's union */
} list_frame;

/*
 * The candidate list of the cell whose points all lie in `cell` (root space) into `out`
 * (LIST_MAX entries, the node of each in `keys`): the walk over the cell's box, as sure_answer, but where a child takes
 * some points of the box and not others, its subtree's entries are listed (post-order) and the
 * search goes on. A child whose entry misses the box is skipped with its subtree (every node in
 * it needs the point inside the child's region). Returns the list's length; -1 when the cell
 * gets none (too many entries, too deep, a union too big, a box not finite).
 */
static int make_list(const ht_tree *t, int32_t root, ht_box cell, list_entry *out, int32_t *keys,
                     scratch *s) {
    list_frame st[MAX_LIST_DEPTH];
    list_build L = {out, keys, 0, cell, 0};
    const block *rb = t->hq.blocks[root];
    uint32_t rf = t->flags[root];
    if (!(rf & K_ELIGIBLE) || (rf & (HT_FLAG_CAPTURES | HT_FLAG_ASK_HIT_TEST | HT_FLAG_ASK_POINT_INSIDE |
                                     HT_FLAG_OUTSIDE_HITS)) || !rb || rb->count == 0)
        return -1; /* the grid is sure everywhere: no list needed */
    s->used = 0;
    int depth = 1;
    /* Every point looked up is inside the grid, which is the root's region. */
    st[0] = (list_frame){cell, ALL_BOX, ALL_BOX, rb, NULL, 0, 0, root, 0};
    if (!box_candidates(rb, cell, s, &st[0].items, &st[0].n)) return -1;
    while (depth > 0 && !L.done) {
        list_frame *f = &st[depth - 1];
        if (f->pos == f->n) {
            /* The node's children are listed: its own entry (post-order). */
            depth--;
            s->used = f->mark;
            if (depth > 0 && !(t->flags[f->slot] & HT_FLAG_PASS_THROUGH) &&
                !emit(&L, f->slot, f->co, f->ci, make_handle(t, f->slot)))
                return -1;
            continue;
        }
        const kid *k = &f->blk->kids[f->items ? f->items[f->pos] : (uint32_t)f->pos];
        f->pos++;
        uint32_t fl = k->flags;
        int32_t c = k->slot;
        if (fl & (HT_FLAG_ASK_HIT_TEST | HT_FLAG_ASK_POINT_INSIDE | HT_FLAG_OUTSIDE_HITS)) {
            /* Not folded: wherever a point reaches the child, the walk decides. */
            if (!emit(&L, c, f->co, EMPTY_BOX, UNSURE)) return -1;
            continue;
        }
        if (!(fl & K_ELIGIBLE)) continue; /* blocks list only hooked ones */
        ht_box eo, ei;
        if (!axis_aligned(t, c)) {
            /* Not folded: its subtree answers only within its reach. */
            ei = EMPTY_BOX;
            if (htq_reach_box(t, c, &eo) != BOX_BOUNDED) eo = ALL_BOX;
            else if (!lift(t, root, f->slot, &eo, &ei)) return -1;
            if (!emit(&L, c, box_meet(eo, f->co), EMPTY_BOX, UNSURE)) return -1;
            continue;
        }
        if (!lift_region(t, root, c, &eo, &ei, s->memo)) return -1;
        eo = box_meet(eo, f->co);
        ei = box_meet(ei, f->ci);
        if (ht_box_disjoint_closed(eo, cell)) continue;
        const block *cb = t->hq.blocks[c];
        if ((fl & HT_FLAG_CAPTURES) || !cb || cb->count == 0) {
            if (!(fl & HT_FLAG_PASS_THROUGH) && !emit(&L, c, eo, ei, make_handle(t, c))) return -1;
            continue;
        }
        if (depth == MAX_LIST_DEPTH) return -1;
        list_frame *g = &st[depth];
        if (!map_box(k, f->b, &g->b)) return -1;
        g->mark = s->used;
        if (!box_candidates(cb, g->b, s, &g->items, &g->n)) return -1;
        g->co = eo;
        g->ci = ei;
        g->blk = cb;
        g->pos = 0;
        g->slot = c;
        depth++;
    }
    return L.n;
}

/* The box of cell `c` as cell_answer makes it, clipped to the grid (the lookup takes only
 * points inside it). */
static ht_box list_cell_box(const answer_grid *g, size_t c) {
    int32_t ix = (int32_t)(c % (size_t)g->nx), iy = (int32_t)(c / (size_t)g->nx);
    double cw = (g->gx1 - g->gx0) / g->nx, ch = (g->gy1 - g->gy0) / g->ny;
    double slack = ht_box_slack((ht_box){g->gx0, g->gy0, g->gx1, g->gy1});
    ht_box b = {g->gx0 + ix * cw - slack, g->gy0 + iy * ch - slack, g->gx0 + (ix + 1) * cw + slack,
                g->gy0 + (iy + 1) * ch + slack};
    return box_meet(b, (ht_box){g->gx0, g->gy0, g->gx1, g->gy1});
}

static inline uint32_t node_hash(int32_t node, uint32_t slots) {
    return ((uint32_t)node * 2654435761u) & (slots - 1);
}

/* Where node `node` is (or would go) in the hash. */
static uint32_t hash_find(const answer_grid *g, int32_t node) {
    uint32_t h = node_hash(node, g->hash_slots);
    while (g->entry_hash[h] && g->entry_node[g->entry_hash[h]] != node) h = (h + 1) & (g->hash_slots - 1);
    return h;
}

/* The hash at `slots` places (a power of two, over twice the nodes in it); 0 on no memory. */
static int hash_resize(answer_grid *g, uint32_t slots) {
    uint32_t *old = g->entry_hash, n = g->hash_slots;
    g->entry_hash = calloc(slots, sizeof *g->entry_hash);
    if (!g->entry_hash) {
        g->entry_hash = old;
        return 0;
    }
    g->hash_slots = slots;
    for (uint32_t i = 0; i < n; i++)
        if (old[i]) g->entry_hash[hash_find(g, g->entry_node[old[i]])] = old[i];
    free(old);
    return 1;
}

/* The index of entry `e` of node `node` in the table: the node's latest entry when it is the
 * same, else `e` appended (and made the node's latest). 0 when out of memory. */
static uint32_t intern(answer_grid *g, int32_t node, const list_entry *e) {
    if (2 * (g->hash_used + 1) > g->hash_slots && !hash_resize(g, g->hash_slots ? 2 * g->hash_slots : 256))
        return 0;
    uint32_t h = hash_find(g, node), i = g->entry_hash[h];
    if (i != 0 && memcmp(&g->entries[i], e, sizeof *e) == 0) return i;
    if (g->nentries == g->entries_cap) {
        if (g->entries_cap >= UINT32_MAX / 2) return 0;
        uint32_t cap = 2 * g->entries_cap;
        list_entry *p = realloc(g->entries, (size_t)cap * sizeof *p);
        if (p) g->entries = p;
        int32_t *q = p ? realloc(g->entry_node, (size_t)cap * sizeof *q) : NULL;
        if (!q) return 0;
        g->entry_node = q;
        g->entries_cap = cap;
    }
    g->entries[g->nentries] = *e;
    g->entry_node[g->nentries] = node;
    g->hash_used += i == 0;
    g->entry_hash[h] = g->nentries;
    return g->nentries++;
}

/* Makes the list of cell `c` and interns its entries into `out` (the indices); its length, or
 * -1 when the cell gets none. */
static int cell_list(const ht_tree *t, answer_grid *g, size_t c, uint32_t *out, scratch *s) {
    list_entry tmp[LIST_MAX];
    int32_t keys[LIST_MAX];
    int n = make_list(t, g->root, list_cell_box(g, c), tmp, keys, s);
    for (int j = 0; j < n; j++)
        if ((out[j] = intern(g, keys[j], &tmp[j])) == 0) return -1;
    return n;
}

/* Empty lists for `g`: its default answer, no slot (a bitmap, or for appended lists a slot
 * number per cell), an entry table holding only entry 0. 0 out of memory (then the grid has no
 * lists: still exact). */
static int lists_begin(const ht_tree *t, answer_grid *g, int appended) {
    lists_free(g);
    uint32_t root_flags = t->flags[g->root];
    g->list_default = (root_flags & K_ELIGIBLE) && !(root_flags & HT_FLAG_PASS_THROUGH)
                          ? make_handle(t, g->root) : HT_NULL_NODE;
    size_t ncells = (size_t)g->nx * (size_t)g->ny, words = sub_words(ncells);
    if (appended) {
        g->cell_slot = calloc(ncells, sizeof *g->cell_slot);
    } else {
        g->listbits = calloc(words, sizeof *g->listbits);
        g->listrank = calloc(words, sizeof *g->listrank);
    }
    g->entries = malloc(256 * sizeof *g->entries);
    g->entry_node = malloc(256 * sizeof *g->entry_node);
    if (!(appended ? g->cell_slot != NULL : g->listbits && g->listrank) || !g->entries || !g->entry_node) {
        lists_free(g);
        return 0;
    }
    g->entries_cap = 256;
    g->entries[0] = (list_entry){{INFINITY, INFINITY, INFINITY, INFINITY}, {INFINITY, INFINITY, INFINITY, INFINITY},
                                 UNSURE, 0};
    g->entry_node[0] = -1;
    g->nentries = 1;
    return 1;
}

/* The slots' ranks from the bitmap. */
static void lists_rank(answer_grid *g) {
    int32_t run = 0;
    for (size_t w = 0; w < sub_words((size_t)g->nx * (size_t)g->ny); w++) {
        g->listrank[w] = run;
        run += popcount64(g->listbits[w]);
    }
}

/* Gives every cell that is not sure (UNSURE, or a sub-grid) a list slot with its list (cells
 * whose list cannot be made get none). Out of memory, the grid has no lists (still exact). */
static void build_lists(const ht_tree *t, answer_grid *g, scratch *s) {
    if (!lists_begin(t, g, 0)) return;
    size_t ncells = (size_t)g->nx * (size_t)g->ny;
    size_t cap = 0, used = 0, lcap = 0;
    uint32_t tmp[LIST_MAX];
    for (size_t c = 0; c < ncells; c++) {
        int32_t a = htq_cell(g, c);
        if (a != UNSURE && a != SUBGRID) continue;
        int n = cell_list(t, g, c, tmp, s);
        if (n < 0 || used + (size_t)n + LIST_GROUP > LIST_ITEMS_MAX) continue;
        if (used + (size_t)n + LIST_GROUP > cap) {
            size_t ncap = cap ? 2 * cap : 1024;
            uint32_t *p = realloc(g->items, ncap * sizeof *p);
            if (!p) goto fail;
            g->items = p;
            cap = ncap;
        }
        if ((size_t)g->nlists + 2 > lcap) {
            size_t ncap = lcap ? 2 * lcap : 256;
            uint32_t *hd = realloc(g->list_head, ncap * sizeof *hd);
            if (!hd) goto fail;
            g->list_head = hd;
            lcap = ncap;
        }
        memcpy(g->items + used, tmp, (size_t)n * sizeof *tmp);
        g->list_head[g->nlists] = (uint32_t)used << 8 | (uint32_t)n;
        g->nlists++;
        used += (size_t)n;
        g->listbits[c >> 6] |= UINT64_C(1) << (c & 63);
    }
    if (g->nlists == 0) goto fail; /* nothing to list: no lists */
    g->list_head[g->nlists] = (uint32_t)used << 8;
    /* The spares after the last list name entry 0 (read by a group, masked off). */
    for (size_t j = used; j < used + LIST_GROUP - 1; j++) g->items[j] = 0;
    uint32_t *p = realloc(g->items, (used + LIST_GROUP - 1) * sizeof *p);
    if (p) g->items = p;
    g->items_cap = (uint32_t)(p ? used + LIST_GROUP - 1 : cap);
    g->entries_built = g->nentries;
    lists_rank(g);
    return;
fail:
    lists_free(g);
}

/* A lazy grid's lists (htq_start_answers): none yet; a cell settled not sure gets a slot
 * (lazy_slot), and its list is appended to the pool when made (relist). Out of memory, none. */
static void start_lists(const ht_tree *t, answer_grid *g) {
    if (!lists_begin(t, g, 1)) return;
    g->list_head = malloc(256 * sizeof *g->list_head);
    g->items = malloc(LIST_APPEND_MIN * sizeof *g->items);
    if (!g->list_head || !g->items) {
        lists_free(g);
        return;
    }
    g->list_cap = 256;
    g->list_head[0] = 0; /* the pool's end */
    for (uint32_t j = 0; j < LIST_GROUP - 1; j++) g->items[j] = 0;
    g->items_cap = LIST_APPEND_MIN;
    g->nlists = 0;
    g->lists_append = 1;
    g->entries_built = g->nentries;
}

/* The slot of cell `c` of a lazy grid, given one when it has none (slots are never taken back
 * until the lists start over); -1 when there is no room (the walk decides its points). */
static int32_t lazy_slot(answer_grid *g, size_t c) {
    int32_t k = list_slot(g, c);
    if (k >= 0 || g->nlists >= LAZY_SLOTS_MAX) return k;
    if (g->nlists + 2 > g->list_cap) {
        int32_t cap = 2 * g->list_cap;
        uint32_t *p = realloc(g->list_head, (size_t)cap * sizeof *p);
        if (!p) return -1;
        g->list_head = p;
        g->list_cap = cap;
    }
    k = g->nlists++;
    g->list_head[k + 1] = g->list_head[k]; /* the pool's end moves up a place */
    g->list_head[k] = LIST_NONE;
    g->cell_slot[c] = (uint16_t)(k + 1);
    return k;
}

/* An appended pool's lists copied to a new pool of the same size, in slot order, without the
 * items no list names any more (a list appended later may sit below an earlier slot's, so they
 * are not moved in place). 0 when the new pool cannot be had (the old one is kept). */
static int compact_lists(answer_grid *g) {
    uint32_t *p = malloc((size_t)g->items_cap * sizeof *p);
    if (!p) return 0;
    uint32_t used = 0;
    for (int32_t k = 0; k < g->nlists; k++) {
        uint32_t n = list_len(g, k);
        if (n > LIST_MAX) { /* no list (a LIST_LATER keeps its count) */
            if (n == LIST_NONE) g->list_head[k] = LIST_NONE;
            continue;
        }
        memcpy(p + used, g->items + list_start(g, k), (size_t)n * sizeof *p);
        g->list_head[k] = used << 8 | n;
        used += n;
    }
    g->list_head[g->nlists] = used << 8;
    for (uint32_t j = used; j < used + LIST_GROUP - 1; j++) p[j] = 0;
    free(g->items);
    g->items = p;
    return 1;
}

/* Room for `n` more items at the end of an appended pool (and the spares after them): the pool
 * compacted when most of it is stale, else grown. 0 when it cannot be had. */
static int append_room(answer_grid *g, uint32_t n) {
    uint32_t end = list_start(g, g->nlists);
    if ((size_t)end + n + LIST_GROUP - 1 <= g->items_cap) return 1;
    uint32_t live = 0;
    for (int32_t k = 0; k < g->nlists; k++)
        if (list_len(g, k) <= LIST_MAX) live += list_len(g, k);
    if (2 * (size_t)live + LIST_APPEND_MIN <= end && compact_lists(g)) {
        end = list_start(g, g->nlists);
        if ((size_t)end + n + LIST_GROUP - 1 <= g->items_cap) return 1;
    }
    size_t cap = 2 * (size_t)g->items_cap;
    while (cap < (size_t)end + n + LIST_GROUP - 1) cap *= 2;
    if (cap > LIST_ITEMS_MAX) return 0;
    uint32_t *p = realloc(g->items, cap * sizeof *p);
    if (!p) return 0;
    g->items = p;
    g->items_cap = (uint32_t)cap;
    return 1;
}

/* Cell `c`, settled again: its list (if it has a slot) made anew, or LIST_NONE when the cell
 * needs none or its list no longer fits: its room (lists built whole), or the pool (lists
 * appended, which a list longer than the old one is). */
static void relist(const ht_tree *t, answer_grid *g, size_t c, scratch *s) {
    int32_t k = list_slot(g, c);
    if (k < 0) return;
    int32_t a = htq_cell(g, c);
    uint32_t tmp[LIST_MAX];
    int n = a == UNSURE || a == SUBGRID ? cell_list(t, g, c, tmp, s) : -1;
    uint32_t start = list_start(g, k), old = list_len(g, k);
    uint32_t room = g->lists_append ? (old > LIST_MAX ? 0 : old) : list_start(g, k + 1) - start;
    if (n >= 0 && (uint32_t)n > room && g->lists_append && append_room(g, (uint32_t)n)) {
        /* Appended: the old items stay until a compaction drops them. */
        start = list_start(g, g->nlists);
        room = (uint32_t)n;
        g->list_head[g->nlists] = (start + room) << 8;
        for (uint32_t j = start + room; j < start + room + LIST_GROUP - 1; j++) g->items[j] = 0;
    }
    if (n < 0 || (uint32_t)n > room) {
        /* A room keeps its start (lists built whole); LIST_LATER's start was its count. */
        g->list_head[k] = (g->lists_append && old > LIST_MAX ? 0 : start) << 8 | LIST_NONE;
        return;
    }
    memcpy(g->items + start, tmp, (size_t)n * sizeof *tmp);
    g->list_head[k] = start << 8 | (uint32_t)n;
}

/* Fills sub-grid `out` of cell (ix, iy): each sub-cell's box, like a cell's (sub_of maps a
 * point to sub-cell j when its fractional coordinate times SUB is in [SUB * i + j, + 1)).
 * Each quarter (2 x 2 sub-cells) is walked first as the union of its sub-cells' boxes: when
 * all of it surely gets one answer, so does each of its sub-cells (their boxes lie inside it),
 * and only the quarters that are not sure walk their sub-cells. Returns the one answer of all
 * sub-cells when they agree, else SUBGRID. */
static int32_t fill_sub(ht_tree *t, answer_grid *g, int32_t ix, int32_t iy, uint16_t *out,
                        scratch *s) {
    double cw = (g->gx1 - g->gx0) / ((double)g->nx * SUB), ch = (g->gy1 - g->gy0) / ((double)g->ny * SUB);
    double slack = ht_box_slack((ht_box){g->gx0, g->gy0, g->gx1, g->gy1});
    ht_box box[SUB_CELLS];
    int32_t ans[SUB_CELLS];
    for (int32_t jy = 0; jy < SUB; jy++) {
        for (int32_t jx = 0; jx < SUB; jx++) {
            int32_t kx = ix * SUB + jx, ky = iy * SUB + jy;
            box[jy * SUB + jx] = (ht_box){g->gx0 + kx * cw - slack, g->gy0 + ky * ch - slack,
                                          g->gx0 + (kx + 1) * cw + slack, g->gy0 + (ky + 1) * ch + slack};
        }
    }
    for (int32_t qy = 0; qy < SUB; qy += 2) {
        for (int32_t qx = 0; qx < SUB; qx += 2) {
            const int32_t j[4] = {qy * SUB + qx, qy * SUB + qx + 1, (qy + 1) * SUB + qx,
                                  (qy + 1) * SUB + qx + 1};
            ht_box q = box[j[0]];
            for (int k = 1; k < 4; k++) {
                q.x0 = fmin(q.x0, box[j[k]].x0);
                q.y0 = fmin(q.y0, box[j[k]].y0);
                q.x1 = fmax(q.x1, box[j[k]].x1);
                q.y1 = fmax(q.y1, box[j[k]].y1);
            }
            int32_t a = box_answer(t, g, q, s);
            for (int k = 0; k < 4; k++) ans[j[k]] = a >= HT_NULL_NODE ? a : box_answer(t, g, box[j[k]], s);
        }
    }
    int32_t same = 1;
    for (int32_t k = 0; k < SUB_CELLS; k++) {
        same &= ans[k] == ans[0];
        out[k] = code_of(g, ans[k]);
    }
    return same ? ans[0] : SUBGRID;
}

/* Cell `c`'s code after its own box walk gave `a`: a sure answer as is; otherwise, when the
 * cell has a sub-grid slot, the sub-grid recomputed in place when `fill`, else UNSURE. */
static uint16_t settle_cell(ht_tree *t, answer_grid *g, size_t c, int32_t a, int fill, scratch *s) {
    if (a >= HT_NULL_NODE || !g->subbits || !(g->subbits[c >> 6] >> (c & 63) & 1)) return code_of(g, a);
    if (!fill) {
        /* Left UNSURE (its list decides, or the walk): the sub-grids are pending again, rebuilt
         * once the points announced from here on pay for them. */
        if (!g->subs_pending) {
            g->subs_pending = 1;
            g->announced = 0;
        }
        return code_of(g, a);
    }
    int32_t k = htq_sub_index(g, c);
    uint16_t *sub = g->sub + (size_t)k * SUB_CELLS;
    int32_t r = fill_sub(t, g, (int32_t)(c % (size_t)g->nx), (int32_t)(c / (size_t)g->nx), sub, s);
    return r == SUBGRID && g->sub_base < MAX_CODES ? sub_code(k) : code_of(g, r);
}

/* Cells settled together: the box of a tile of TILE x TILE cells is walked first; when every
 * point of it surely gets one answer, so does every point of each of its cells, which take that
 * answer without a walk of their own (a scene's interiors, away from its edges, settle 16 cells
 * a walk); the cells of a tile that is not sure are walked one by one. */
#define TILE 4

static int unsettled(uint16_t code) { return code == CODE_UNKNOWN || code == CODE_SEEN; }

/* Settles every UNKNOWN (or SEEN) cell of `g` in columns ix0..ix1 and rows iy0..iy1, tile by
 * tile (TILE); with `lists`, gives each its candidate list again (relist); `fill` as for
 * settle_cell. */
static void settle_cells(ht_tree *t, answer_grid *g, int32_t ix0, int32_t ix1, int32_t iy0, int32_t iy1,
                         int lists, int fill, scratch *s) {
    for (int32_t ty = iy0 - iy0 % TILE; ty <= iy1; ty += TILE) {
        int32_t y0 = ty < iy0 ? iy0 : ty, y1 = ty + TILE - 1 > iy1 ? iy1 : ty + TILE - 1;
        for (int32_t tx = ix0 - ix0 % TILE; tx <= ix1; tx += TILE) {
            int32_t x0 = tx < ix0 ? ix0 : tx, x1 = tx + TILE - 1 > ix1 ? ix1 : tx + TILE - 1;
            int n = 0;
            for (int32_t iy = y0; iy <= y1; iy++)
                for (int32_t ix = x0; ix <= x1; ix++)
                    n += unsettled(g->codes[(size_t)iy * (size_t)g->nx + (size_t)ix]);
            if (n == 0) continue;
            int32_t tile = n > 1 ? box_answer(t, g, cells_box(g, x0, x1, y0, y1), s) : UNSURE;
            for (int32_t iy = y0; iy <= y1; iy++)
                for (int32_t ix = x0; ix <= x1; ix++) {
                    size_t c = (size_t)iy * (size_t)g->nx + (size_t)ix;
                    if (!unsettled(g->codes[c])) continue;
                    int32_t a = tile >= HT_NULL_NODE ? tile : cell_answer(t, g, ix, iy, s);
                    g->codes[c] = settle_cell(t, g, c, a, fill, s);
                    if (lists) relist(t, g, c, s);
                }
        }
    }
}

/* Cell `c` has a list that leaves only points within a margin of an edge to the walk (no
 * entry stands for a subtree it does not fold): a sub-grid would add memory, not answers. */
static int list_decides(const answer_grid *g, size_t c) {
    int32_t k = list_slot(g, c);
    if (k < 0 || list_len(g, k) > LIST_MAX) return 0;
    for (uint32_t j = 0; j < list_len(g, k); j++) {
        const list_entry *e = &g->entries[g->items[list_start(g, k) + j]];
        if (!(e->inner[0] <= -e->inner[2])) return 0;
    }
    return 1;
}

/* Palette codes kept free for answers added after the sub-grids take their codes. */
#define SUB_CODE_ROOM 1024

/* Most sub-grids a grid gets (SUB_CELLS codes each: 4 MiB). */
#define MAX_SUBGRIDS 131072

/* Gives every UNSURE cell a sub-grid, unless its sub-cells all agree (then the cell takes
 * their one answer, or stays UNSURE) or its candidate list decides it (list_decides). Out of
 * memory, cells stay as they are. */
static void build_subgrids(ht_tree *t, answer_grid *g, scratch *s) {
    size_t ncells = (size_t)g->nx * (size_t)g->ny, words = sub_words(ncells);
    /* The sub-grids of an earlier build (a refresh left others pending): their cells are
     * UNSURE again, and get their sub-grids anew with the rest. */
    if (g->nsub > 0)
        for (size_t c = 0; c < ncells; c++)
            if (g->codes[c] == CODE_SUBGRID || g->codes[c] >= g->sub_base) g->codes[c] = CODE_UNSURE;
    free(g->subbits);
    free(g->subrank);
    free(g->sub);
    g->subbits = calloc(words, sizeof *g->subbits);
    g->subrank = calloc(words, sizeof *g->subrank);
    g->sub = NULL;
    g->nsub = 0;
    g->sub_base = MAX_CODES;
    int32_t cap = 0;
    uint16_t tmp[SUB_CELLS];
    if (!g->subbits || !g->subrank) goto fail;
    for (size_t c = 0; c < ncells; c++) {
        int32_t a = htq_cell(g, c);
        if (a >= HT_NULL_NODE || a == UNKNOWN || a == SUBGRID || list_decides(g, c)) continue;
        int32_t r = fill_sub(t, g, (int32_t)(c % (size_t)g->nx), (int32_t)(c / (size_t)g->nx), tmp, s);
        if (r != SUBGRID) {
            g->codes[c] = code_of(g, r); /* all alike: no sub-grid */
            continue;
        }
        if (g->nsub == MAX_SUBGRIDS) continue;
        if (g->nsub == cap) {
            int32_t ncap = cap ? cap * 2 : 1024;
            uint16_t *p = realloc(g->sub, (size_t)ncap * SUB_CELLS * sizeof *p);
            if (!p) continue;
            g->sub = p;
            cap = ncap;
        }
        memcpy(g->sub + (size_t)g->nsub * SUB_CELLS, tmp, sizeof tmp);
        g->nsub++;
        g->subbits[c >> 6] |= UINT64_C(1) << (c & 63);
        g->codes[c] = CODE_SUBGRID;
    }
    int32_t run = 0;
    for (size_t w = 0; w < words; w++) {
        g->subrank[w] = run;
        run += popcount64(g->subbits[w]);
    }
    if (g->nsub > 0 && g->nsub < cap) {
        uint16_t *p = realloc(g->sub, (size_t)g->nsub * SUB_CELLS * sizeof *p);
        if (p) g->sub = p;
    }
    /* Room above the palette (and some for answers a refresh adds): the sub-grids' cells get
     * codes that name them. */
    if (g->nsub > 0 && (int64_t)MAX_CODES - g->nsub >= (int64_t)g->npalette + SUB_CODE_ROOM) {
        g->sub_base = MAX_CODES - g->nsub;
        for (size_t c = 0; c < ncells; c++)
            if (g->codes[c] == CODE_SUBGRID) g->codes[c] = sub_code(htq_sub_index(g, c));
    }
    return;
fail:
    free(g->subbits);
    free(g->subrank);
    g->subbits = NULL;
    g->subrank = NULL;
}

/* Lays out a grid over `root`'s region with about `per_node` cells per node (cells, palette
 * emptied, sub-grids dropped), every cell still to be computed; *made = 0 when the root gets no
 * grid (its own test is not a plain region, or it has nothing to hit). */
/* The cells of a grid with about `per_node` cells per node: finer for bigger trees (more edges
 * to straddle), within a fixed memory budget. */
static int32_t grid_cells(const ht_tree *t, int64_t per_node) {
    int64_t want = (int64_t)t->live * per_node;
    return want < MIN_CELLS ? MIN_CELLS : (want > MAX_CELLS ? MAX_CELLS : (int32_t)want);
}

static ht_status lay_out(ht_tree *t, int32_t root, int64_t per_node, int *made) {
    answer_grid *g = &t->hq.answers;
    g->root = -1;
    t->hq.calm = 0; /* single queries count again from here (htq_learn_answer) */
    *made = 0;
    uint32_t f = t->flags[root];
    double x0 = t->rx0[root], y0 = t->ry0[root], x1 = t->rx1[root], y1 = t->ry1[root];
    double w = x1 - x0, h = y1 - y0;
    if ((f & (HT_FLAG_ASK_HIT_TEST | HT_FLAG_ASK_POINT_INSIDE | HT_FLAG_OUTSIDE_HITS)) ||
        !(w > 0 && h > 0) || !isfinite(w) || !isfinite(h))
        return HT_OK;
    int32_t cells = grid_cells(t, per_node);
    /* Clamped as a double: an extreme aspect ratio makes the square root overflow an int. */
    double fx = ceil(sqrt((double)cells * w / h));
    int32_t nx = fx >= 1 ? (fx < (double)cells ? (int32_t)fx : cells) : 1;
    int32_t ny = cells / nx;
    ny = ny < 1 ? 1 : ny;
    int32_t ncells = nx * ny;
    if (g->capacity < ncells) {
        uint16_t *mem = realloc(g->codes, (size_t)ncells * sizeof *mem);
        if (!mem) return HT_E_NO_MEMORY;
        g->codes = mem;
        g->capacity = ncells;
    }
    if (!g->palette) {
        g->palette = malloc(256 * sizeof *g->palette);
        if (!g->palette) return HT_E_NO_MEMORY;
        g->palette_cap = 256;
        g->palette[CODE_UNSURE] = UNSURE;
        g->palette[CODE_UNKNOWN] = UNKNOWN;
        g->palette[CODE_SUBGRID] = SUBGRID;
        g->palette[CODE_SEEN] = UNKNOWN;
    }
    /* The old sub-grids' codes go with them (the palette may use every code again). */
    g->sub_base = MAX_CODES;
    palette_reset(g);
    free(g->subbits);
    free(g->subrank);
    free(g->sub);
    g->subbits = NULL;
    g->subrank = NULL;
    g->sub = NULL;
    g->nsub = 0;
    g->announced = 0;
    lists_free(g);
    /* The single queries' memo is made again by the lists that need it (a full grid's do not). */
    if (g->memo) memo_free(g->memo);
    free(g->memo);
    g->memo = NULL;
    g->nx = nx;
    g->ny = ny;
    g->gx0 = x0;
    g->gy0 = y0;
    g->gx1 = x1;
    g->gy1 = y1;
    g->sx = nx / w;
    g->sy = ny / h;
    for (size_t c = 0; c < (size_t)ncells; c++) g->codes[c] = CODE_UNKNOWN;
    g->root = root;
    *made = 1;
    return HT_OK;
}

ht_status htq_build_answers(ht_tree *t, int32_t root) {
    answer_grid *g = &t->hq.answers;
    int made;
    ht_status st = lay_out(t, root, CELLS_PER_NODE, &made);
    if (st != HT_OK || !made) return st;
    int32_t nx = g->nx;
    size_t ncells = (size_t)g->nx * (size_t)g->ny;
    lift_memo memo;
    scratch s = {malloc(UNION_CAP * sizeof(uint32_t)), UNION_CAP, 0, memo_make(&memo, 14) ? &memo : NULL};
    if (!s.buf) s.cap = 0; /* no unions: cells across block cells stay UNSURE */
    /* A sample first, spread over the grid: when no sampled cell is sure (a very deep chain, a
     * hook over everything), the grid would only cost time, so every cell is left to the walk. */
    size_t stride = ncells / SAMPLE_CELLS;
    stride = stride < 1 ? 1 : stride;
    int any_sure = 0;
    for (size_t c = 0; c < ncells; c += stride) {
        int32_t a = cell_answer(t, g, (int32_t)(c % (size_t)nx), (int32_t)(c / (size_t)nx), &s);
        g->codes[c] = code_of(g, a);
        any_sure |= a >= HT_NULL_NODE;
    }
    if (any_sure)
        settle_cells(t, g, 0, nx - 1, 0, g->ny - 1, 0, 1, &s);
    else
        for (size_t c = 0; c < ncells; c++)
            if (g->codes[c] == CODE_UNKNOWN) g->codes[c] = CODE_UNSURE;
    /* Sub-grids come later (htq_answers_announce): a grid with none is just as exact. */
    g->subs_pending = any_sure;
    g->announced = 0;
    lists_free(g);
    if (any_sure) build_lists(t, g, &s);
    free(s.buf);
    if (s.memo) memo_free(s.memo);
    g->unknown = 0;
    g->lazy = 0;
    return HT_OK;
}

/* Cells in columns ix0..ix1 and rows iy0..iy1 may now be UNKNOWN: the rectangle a refresh
 * looks at grows to hold them. */
static void note_unknown(answer_grid *g, int32_t ix0, int32_t ix1, int32_t iy0, int32_t iy1) {
    if (!g->unknown) {
        g->ux0 = ix0;
        g->ux1 = ix1;
        g->uy0 = iy0;
        g->uy1 = iy1;
    } else {
        if (ix0 < g->ux0) g->ux0 = ix0;
        if (ix1 > g->ux1) g->ux1 = ix1;
        if (iy0 < g->uy0) g->uy0 = iy0;
        if (iy1 > g->uy1) g->uy1 = iy1;
    }
    g->unknown = 1;
}

ht_status htq_start_answers(ht_tree *t, int32_t root) {
    answer_grid *g = &t->hq.answers;
    int made;
    ht_status st = lay_out(t, root, LAZY_CELLS_PER_NODE, &made);
    if (st != HT_OK || !made) return st;
    /* Every cell UNKNOWN: settled where points land (htq_answer_at), or all by a refresh. */
    g->unknown = 0;
    note_unknown(g, 0, g->nx - 1, 0, g->ny - 1);
    g->lazy = 1;
    g->subs_pending = 1;
    start_lists(t, g);
    g->rent = 0;
    g->rent_due = (uint64_t)grid_cells(t, CELLS_PER_NODE) * RENT_PER_CELL;
    return HT_OK;
}

int32_t htq_promote(ht_tree *t, double x, double y) {
    answer_grid *g = &t->hq.answers;
    int32_t root = g->root;
    g->rent_due = UINT64_MAX; /* one try per lazy grid */
    if (htq_build_answers(t, root) != HT_OK || g->root != root) return UNSURE;
    htq_answers_announce(t, 0, 1); /* and its sub-grids: what ht_tree_prepare_points builds */
    return htq_answer_at(t, x, y); /* the grid is full now: no rent */
}

/* A lazy grid's lists started over when most of its entry table is stale (the nodes in it
 * changed many times): every cell that is not sure is settled again, with its list, where
 * points land. */
static void restart_lists(const ht_tree *t, answer_grid *g) {
    start_lists(t, g);
    size_t ncells = (size_t)g->nx * (size_t)g->ny;
    for (size_t c = 0; c < ncells; c++) {
        int32_t a = htq_cell(g, c);
        if (a == UNSURE || a == SUBGRID) g->codes[c] = CODE_UNKNOWN;
    }
    note_unknown(g, 0, g->nx - 1, 0, g->ny - 1);
}

/* Entries of the memo that single queries keep between the lists they make (2^bits, half of
 * them used: 256 nodes, 37 KiB). Measured (kernel_driver lazy, app, table-plain, table-thin):
 * 2^10 and 2^11 entries make no query faster, only the grid bigger. */
#define SETTLE_MEMO_BITS 9

/* The memo of the lists single queries make: made at the first, kept while nothing changes (no
 * change since the last list that may move a node's reach: q->reach_changes). NULL without
 * memory (every lift computed). */
static lift_memo *settle_memo(const ht_tree *t, answer_grid *g) {
    if (!g->memo) {
        lift_memo *m = malloc(sizeof *m);
        if (!m || !memo_make(m, SETTLE_MEMO_BITS)) {
            free(m);
            return NULL;
        }
        g->memo = m;
    } else if (g->memo_changes != t->hq.reach_changes || g->memo_root != g->root) {
        memo_clear(g->memo); /* regions lifted before a change, or into another root's space */
    }
    g->memo_changes = t->hq.reach_changes;
    g->memo_root = g->root;
    return g->memo;
}

int32_t htq_settle_at(ht_tree *t, double x, double y) {
    answer_grid *g = &t->hq.answers;
    /* A cell's box walk costs a few point walks: a cell is computed at its second point, so
     * that taps spread over the screen, each cell asked once, cost no more than the walk. */
    size_t c = grid_index(x, y, g->gx0, g->gy0, g->sx, g->sy, g->nx, g->ny);
    if (g->codes[c] == CODE_UNKNOWN) {
        g->codes[c] = CODE_SEEN;
        return UNKNOWN;
    }
    if (!g->scratch) {
        g->scratch = malloc(UNION_CAP * sizeof *g->scratch);
        if (!g->scratch) return UNKNOWN; /* the walk answers: still exact */
    }
    scratch s = {g->scratch, UNION_CAP, 0, NULL};
    int32_t ix = (int32_t)(c % (size_t)g->nx), iy = (int32_t)(c / (size_t)g->nx);
    g->codes[c] = settle_cell(t, g, c, cell_answer(t, g, ix, iy, &s), 1, &s);
    if (g->lazy) g->rent += SETTLE_RENT - 1; /* the query paid 1 */
    if (g->lists_append) {
        /* A lazy grid's list waits until the cell's undecided queries pay for it. */
        int32_t a = htq_cell(g, c), k = a == UNSURE || a == SUBGRID ? lazy_slot(g, c) : list_slot(g, c);
        if (k >= 0) g->list_head[k] = a == UNSURE || a == SUBGRID ? LIST_LATER : LIST_NONE;
    } else {
        relist(t, g, c, &s);
    }
    return cell_lookup(g, x, y);
}

int32_t htq_list_due(ht_tree *t, size_t c, double x, double y) {
    answer_grid *g = &t->hq.answers;
    int32_t k = list_slot(g, c);
    if (k < 0 || list_len(g, k) != LIST_LATER) return UNSURE;
    uint32_t due = list_start(g, k) + 1;
    if (due < LIST_RENT) {
        g->list_head[k] = due << 8 | LIST_LATER;
        return UNSURE;
    }
    if (!g->scratch && !(g->scratch = malloc(UNION_CAP * sizeof *g->scratch))) return UNSURE;
    if (g->nentries > 2 * g->hash_used + LIST_APPEND_MIN) {
        restart_lists(t, g); /* this cell too is settled again */
        return UNSURE;
    }
    scratch s = {g->scratch, UNION_CAP, 0, settle_memo(t, g)};
    relist(t, g, c, &s);
    if (g->lazy) g->rent += LIST_BUILD_RENT;
    return list_lookup_in(g, c, x, y);
}

/* Announced bulk points per cell of the grid before the bulk path builds the sub-grids. They
 * cost about 16 box walks for each cell that is not sure (dense-overlap: ~85 ms, against ~35 ms
 * for the cells) and, measured on uniform points (hittest-bench --first-query), save nothing
 * visible per point on app, app-large, dense-overlap and random-1m; so they are built late,
 * once their cost is at most a few ns per point already queried (64 points per cell), for
 * inputs that crowd the cells a plain lookup leaves to the walk. */
#ifndef SUB_PAY_POINTS
#define SUB_PAY_POINTS 64
#endif

void htq_answers_announce(ht_tree *t, size_t points, int now) {
    answer_grid *g = &t->hq.answers;
    if (g->root < 0 || !g->codes || !g->subs_pending) return;
    uint64_t cells = (uint64_t)g->nx * (uint64_t)g->ny;
    g->announced = points > UINT64_MAX - g->announced ? UINT64_MAX : g->announced + points;
    if (!now && g->announced / SUB_PAY_POINTS < cells) return;
    scratch s = {malloc(UNION_CAP * sizeof(uint32_t)), UNION_CAP, 0, NULL};
    if (!s.buf) s.cap = 0;
    build_subgrids(t, g, &s);
    free(s.buf);
    g->subs_pending = 0;
}

void htq_refresh_answers(ht_tree *t, int subgrids) {
    answer_grid *g = &t->hq.answers;
    if (g->root < 0 || !g->unknown) return;
    /* A memo in proportion to the cells to settle: a wide refresh (a big subtree moved) lists
     * thousands of nodes, a small one a few, and each refresh makes its memo afresh. */
    size_t area = (size_t)(g->ux1 - g->ux0 + 1) * (size_t)(g->uy1 - g->uy0 + 1);
    uint32_t bits = 10;
    while (bits < 14 && ((size_t)1 << bits) < area) bits++;
    lift_memo memo;
    scratch s = {malloc(UNION_CAP * sizeof(uint32_t)), UNION_CAP, 0, memo_make(&memo, bits) ? &memo : NULL};
    if (!s.buf) s.cap = 0;
    settle_cells(t, g, g->ux0, g->ux1, g->uy0, g->uy1, 1, subgrids, &s);
    /* Entries replaced since the lists were built: when they are as many as those in use, the
     * lists are built anew (the table shrinks back; every cell is settled now). */
    if (g->listbits && g->nentries > 2 * g->entries_built + 1024) build_lists(t, g, &s);
    free(s.buf);
    if (s.memo) memo_free(s.memo);
    g->unknown = 0;
    g->lazy = 0;
}

/* `b`, in the space of a child of `p`, carried into `p`'s parent's space: clipped by `p`'s
 * region when points outside it never reach `p`'s children, then mapped by `p`'s transform and
 * widened. Returns BOX_NEVER when no point gets through `p`, BOX_UNBOUNDED when a hook at `p`
 * may answer anywhere. */
static int up_box(const ht_tree *t, int32_t p, ht_box *b) {
    uint32_t f = t->flags[p];
    if (f & HT_FLAG_ASK_HIT_TEST) return BOX_UNBOUNDED;
    if (!(f & K_ELIGIBLE) || (f & K_SINGULAR)) return BOX_NEVER;
    if (!(f & (HT_FLAG_ASK_POINT_INSIDE | HT_FLAG_OUTSIDE_HITS))) {
        ht_box r = row_region(t, p);
        double m = ht_box_slack(r);
        b->x0 = fmax(b->x0, r.x0 - m);
        b->y0 = fmax(b->y0, r.y0 - m);
        b->x1 = fmin(b->x1, r.x1 + m);
        b->y1 = fmin(b->y1, r.y1 + m);
        if (!(b->x0 <= b->x1 && b->y0 <= b->y1)) return BOX_NEVER;
    }
    double m6[6] = ROW_TRANSFORM(t, p);
    ht_map map = {t->cx[p], t->cy[p], t->offx[p], t->offy[p], m6, (f & K_IDENTITY) != 0, 1};
    return ht_box_map(*b, &map, 1, b, NULL, NULL) ? BOX_BOUNDED : BOX_UNBOUNDED;
}

/* Deeper than this, a change drops the whole grid rather than walk up to find its reach. */
#define MAX_TOUCH_DEPTH 64

int htq_reach_in_grid(const ht_tree *t, int32_t s, ht_box *out) {
    const answer_grid *g = &t->hq.answers;
    if (g->root < 0) return BOX_NEVER;
    if (s == g->root) return BOX_UNBOUNDED; /* the root's own region or flags: all may change */
    /* Where the answers from the root can depend on `s`: its reach, carried up to the root. */
    ht_box b;
    int kind = htq_reach_box(t, s, &b);
    int32_t p = t->parent[s];
    for (int depth = 0; kind == BOX_BOUNDED && p != g->root; depth++) {
        if (p < 0) return BOX_NEVER; /* not under the grid's root */
        if (depth == MAX_TOUCH_DEPTH) return BOX_UNBOUNDED;
        kind = up_box(t, p, &b);
        p = t->parent[p];
    }
    *out = b;
    return kind;
}

void htq_drop_answers(ht_tree *t) {
    t->hq.answers.root = -1;
    t->hq.calm = 0;
}

/* The cells of the grid that box `b` (root space) reaches: columns r[0]..r[1], rows
 * r[2]..r[3]; 0 when it misses the grid. */
static int grid_range(const answer_grid *g, ht_box b, int32_t r[4]) {
    if (ht_box_disjoint_closed(b, (ht_box){g->gx0, g->gy0, g->gx1, g->gy1})) return 0;
    r[0] = grid_cell((fmax(b.x0, g->gx0) - g->gx0) * g->sx, g->nx);
    r[1] = grid_cell((fmin(b.x1, g->gx1) - g->gx0) * g->sx, g->nx);
    r[2] = grid_cell((fmax(b.y0, g->gy0) - g->gy0) * g->sy, g->ny);
    r[3] = grid_cell((fmin(b.y1, g->gy1) - g->gy0) * g->sy, g->ny);
    return 1;
}

void htq_answers_touch(ht_tree *t, int32_t s) {
    answer_grid *g = &t->hq.answers;
    ht_box b;
    int kind = htq_reach_in_grid(t, s, &b);
    if (kind == BOX_NEVER) return;
    if (kind == BOX_UNBOUNDED) {
        htq_drop_answers(t);
        return;
    }
    int32_t r[4];
    if (!grid_range(g, b, r)) return;
    int32_t ix0 = r[0], ix1 = r[1], iy0 = r[2], iy1 = r[3];
    /* A grid the single queries started drops out when a change reaches a wide part of it
     * (a scroll): starting it again costs less than marking its cells, and it is started
     * again only after as many queries as started it (htq_learn_answer). */
    if (g->lazy && (int64_t)(ix1 - ix0 + 1) * (iy1 - iy0 + 1) * LAZY_DROP_SHARE > (int64_t)g->nx * g->ny) {
        htq_drop_answers(t);
        return;
    }
    for (int32_t iy = iy0; iy <= iy1; iy++)
        for (int32_t ix = ix0; ix <= ix1; ix++) g->codes[(size_t)iy * (size_t)g->nx + (size_t)ix] = CODE_UNKNOWN;
    note_unknown(g, ix0, ix1, iy0, iy1);
}

/* Where the region test of `n` (eligible, reached through its ancestors) may hold, in the grid
 * root's space (`outer`, htq_reach_in_grid's box), and where it surely holds (`inner`: the
 * region carried up as the candidate lists carry it, EMPTY_BOX unless every level up to the root
 * is axis-aligned). The kind of `outer`. */
static int node_edges(const ht_tree *t, int32_t n, ht_box *outer, ht_box *inner) {
    const answer_grid *g = &t->hq.answers;
    int kind = htq_reach_in_grid(t, n, outer);
    *inner = EMPTY_BOX;
    if (kind != BOX_BOUNDED) return kind;
    for (int32_t p = n; p != g->root; p = t->parent[p])
        if (p < 0 || !axis_aligned(t, p) || (t->flags[p] & K_SINGULAR)) return kind;
    ht_box o = row_region(t, n), i = o;
    if (!lift(t, g->root, n, &o, &i)) *inner = EMPTY_BOX;
    else *inner = i;
    return kind;
}

int htq_answers_edges_before(ht_tree *t, int32_t s) {
    const answer_grid *g = &t->hq.answers;
    if (g->root < 0 || s == g->root) return 0;
    if (!t->hq.edges && !(t->hq.edges = malloc(sizeof *t->hq.edges))) return 0; /* the whole reach */
    htq_edges *e = t->hq.edges;
    e->node = -1;
    /* The subtree in pre-order, without recursion, listed before any is measured (a bigger
     * one, a scrolled table, costs only the links walked): at most EDGE_NODES nodes. */
    int32_t count = 0;
    for (int32_t c = s;;) {
        if (count == EDGE_NODES) return 0;
        e->slots[count++] = c;
        if (t->first[c] >= 0) {
            c = t->first[c];
            continue;
        }
        while (c != s && t->next[c] < 0) c = t->parent[c];
        if (c == s) break;
        c = t->next[c];
    }
    for (int32_t i = 0; i < count; i++) {
        e->kinds[i] = node_edges(t, e->slots[i], &e->outer[i], &e->inner[i]);
        if (e->kinds[i] == BOX_UNBOUNDED) return 0; /* a hook or hits outside: the whole reach */
    }
    e->node = s;
    e->count = count;
    return 1;
}

/* Marks UNKNOWN the cells of the grid that `b` (root space) reaches, but for those whose every
 * point lies in `keep`; returns how many. */
static size_t mark_outside(answer_grid *g, ht_box b, ht_box keep) {
    int32_t r[4];
    if (!grid_range(g, b, r)) return 0;
    int32_t ix0 = r[0], ix1 = r[1], iy0 = r[2], iy1 = r[3];
    double cw = (g->gx1 - g->gx0) / g->nx, ch = (g->gy1 - g->gy0) / g->ny;
    double slack = ht_box_slack((ht_box){g->gx0, g->gy0, g->gx1, g->gy1});
    /* The columns whose cells lie in `keep` across (kx0..kx1, empty when kx0 > kx1): the cell's
     * box as cell_answer makes it holds every point that maps to the cell. */
    int32_t kx0 = ix1 + 1, kx1 = ix1;
    for (int32_t ix = ix0; ix <= ix1; ix++) {
        int in = keep.x0 <= g->gx0 + ix * cw - slack && g->gx0 + (ix + 1) * cw + slack <= keep.x1;
        if (in && kx0 > ix1) kx0 = ix;
        if (!in && kx0 <= ix1) {
            kx1 = ix - 1;
            break;
        }
    }
    size_t marked = 0;
    for (int32_t iy = iy0; iy <= iy1; iy++) {
        int row_kept = keep.y0 <= g->gy0 + iy * ch - slack && g->gy0 + (iy + 1) * ch + slack <= keep.y1;
        uint16_t *row = g->codes + (size_t)iy * (size_t)g->nx;
        for (int32_t ix = ix0; ix <= ix1; ix++) {
            if (row_kept && ix == kx0) ix = kx1 + 1; /* the kept run (the columns are contiguous) */
            if (ix > ix1) break;
            marked += row[ix] != CODE_UNKNOWN && row[ix] != CODE_SEEN;
            if (row[ix] != CODE_SEEN) row[ix] = CODE_UNKNOWN;
        }
    }
    if (marked) note_unknown(g, ix0, ix1, iy0, iy1);
    return marked;
}

int htq_answers_edges_after(ht_tree *t, int32_t s) {
    htq_edges *e = t->hq.edges;
    answer_grid *g = &t->hq.answers;
    if (!e || e->node != s) return 0;
    e->node = -1;
    size_t marked = 0;
    /* The change kept the subtree's nodes (it keeps the candidates): those measured before,
     * each measured again. An empty meet of the two inner boxes keeps no cell. */
    for (int32_t i = 0; i < e->count; i++) {
        ht_box outer, inner;
        int kind = node_edges(t, e->slots[i], &outer, &inner);
        if (kind == BOX_UNBOUNDED) {
            htq_drop_answers(t);
            return 1;
        }
        ht_box keep = box_meet(inner, e->inner[i]);
        if (e->kinds[i] == BOX_BOUNDED) marked += mark_outside(g, e->outer[i], keep);
        if (kind == BOX_BOUNDED) marked += mark_outside(g, outer, keep);
    }
    /* A grid the single queries started drops out when a change reaches a wide part of it, as
     * in htq_answers_touch. */
    if (g->lazy && marked * LAZY_DROP_SHARE > (size_t)g->nx * (size_t)g->ny) htq_drop_answers(t);
    return 1;
}

ht_status ht_tree_answer_grid_stats(const ht_tree *t, ht_node node, size_t *bytes, size_t *cells,
                                    size_t *sure) {
    int32_t slot;
    ht_status st = resolve(t, node, &slot);
    if (st != HT_OK) return st;
    const answer_grid *g = htq_grid_for(t, slot);
    size_t n = g ? (size_t)g->nx * (size_t)g->ny : 0, k = 0, subs = 0;
    for (size_t c = 0; c < n; c++) {
        int32_t a = htq_cell(g, c);
        k += a >= HT_NULL_NODE;
        if (a == SUBGRID) {
            const uint16_t *sc = sub_of_cell(g, c);
            for (int j = 0; j < SUB_CELLS; j++) subs += g->palette[sc[j]] >= HT_NULL_NODE;
        }
    }
    k += subs / SUB_CELLS; /* sure sub-cells, in cells */
    if (bytes) *bytes = g ? htq_answers_bytes(g) : 0;
    if (cells) *cells = n;
    if (sure) *sure = k;
    return HT_OK;
}

ht_status ht_tree_answer_grid_decision(const ht_tree *t, ht_node node, double x, double y, int *out) {
    int32_t slot;
    ht_status st = resolve(t, node, &slot);
    if (st != HT_OK) return st;
    if (!out) return HT_E_INVALID_ARGUMENT;
    const answer_grid *g = htq_grid_for(t, slot);
    *out = HT_GRID_WALK;
    if (!g) return HT_OK;
    int32_t a = cell_lookup(g, x, y);
    if (a >= HT_NULL_NODE) *out = HT_GRID_CELL;
    else if (a == UNSURE && list_lookup(g, x, y) >= HT_NULL_NODE) *out = HT_GRID_LIST;
    return HT_OK;
}
