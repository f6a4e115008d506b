/*
 * hit_test.c - UIKit's hitTest:withEvent:, iteratively.
 *
 * The recursion of the seed texts becomes an explicit stack of frames, one per node whose
 * children are being searched, so depth is bounded by memory, not by the C stack. Once a node
 * answers non-nil, that answer is final for the whole walk (every caller up the chain returns
 * it unchanged), so only a nil answer ever resumes a parent's search.
 */
#include "internal.h"

#include <string.h>

typedef struct frame {
    double x, y;           /* the point in this node's bounds space */
    const block *b;
    const uint32_t *items; /* candidate indices, or NULL for all of b->kids in order */
    int32_t pos, n;
    int32_t slot;
    uint32_t flags;
    int inside;
} frame;

#define LOCAL_FRAMES 48

typedef struct stack {
    frame *frames;
    int32_t depth, cap;
    frame local[LOCAL_FRAMES];
} stack;

static void stack_init(stack *s) {
    s->frames = s->local;
    s->depth = 0;
    s->cap = LOCAL_FRAMES;
}

static void stack_release(stack *s) {
    if (s->frames != s->local) free(s->frames);
}

static frame *push(stack *s) {
    if (s->depth == s->cap) {
        int32_t cap = s->cap * 2;
        frame *f = s->frames == s->local ? malloc((size_t)cap * sizeof *f)
                                         : realloc(s->frames, (size_t)cap * sizeof *f);
        if (!f) return NULL;
        if (s->frames == s->local) memcpy(f, s->local, sizeof s->local);
        s->frames = f;
        s->cap = cap;
    }
    return &s->frames[s->depth++];
}

/* Children whose test lives in a hook take the general path (enter). */
#define K_HOOKED (HT_FLAG_ASK_HIT_TEST | HT_FLAG_ASK_POINT_INSIDE)

enum { R_NIL, R_HIT, R_PUSHED, R_ERROR, R_FOREIGN, R_NO_MEMORY };

/*
 * A trail being recorded (ht_tree_hit_test_trace); NULL on every other query. The walk is one
 * function, always inlined into its two callers: with a constant NULL trail the compiler drops
 * every `if (tr)` and the code it guards, so the untraced walk is the walk as if the trail did
 * not exist. With a trail, the walk differs only in where candidates come from: a frame
 * searches every child in search order (htq_search_order), taking the block's record of each
 * candidate and a record from the rows for each child the block leaves out (it can never be
 * hit: the same tests reject it), and keeps every frame (no shortening of the stack), so that
 * each node's closing step is written. Same nodes decided by the same code, same answer.
 */
typedef struct tframe {
    size_t base; /* where the frame's children start in `order` */
    int32_t bk;  /* the block's candidates passed so far; -1: the block holds every child */
} tframe;

typedef struct trace {
    ht_trace_step *steps;
    size_t cap, count;
    int32_t *order; /* the children of each open frame, in search order, as a stack */
    size_t otop, ocap;
    tframe *tf;     /* per open frame, by depth */
    int32_t tfcap;
} trace;

static void note(const ht_tree *t, trace *tr, int32_t slot, int32_t depth, double x, double y,
                 int decision, uint32_t flags, int32_t children, ht_node answer) {
    if (tr->count < tr->cap)
        tr->steps[tr->count] = (ht_trace_step){make_handle(t, slot), depth, x, y, decision, flags,
                                               children, answer};
    tr->count++;
}

/* The step of a node the walk rejects before its region test (not K_ELIGIBLE). */
static int ineligible(uint32_t f) {
    return (f & HT_FLAG_HIDDEN) ? HT_TRACE_HIDDEN
         : (f & (HT_FLAG_NO_INTERACTION | HT_FLAG_BLOCKED)) ? HT_TRACE_NO_INTERACTION : HT_TRACE_TRANSPARENT;
}

/* The steps of a node whose children are not searched (it captures them, or has none): its
 * decision, then its answer. */
static void note_closed(const ht_tree *t, trace *tr, int32_t slot, int32_t depth, double x,
                        double y, uint32_t f, int inside, uint32_t asked) {
    uint32_t in = inside ? HT_TRACE_INSIDE : 0;
    note(t, tr, slot, depth, x, y, (f & HT_FLAG_CAPTURES) ? HT_TRACE_CAPTURE : HT_TRACE_SEARCH,
         in | asked, 0, HT_NULL_NODE);
    int d = !inside ? HT_TRACE_NIL : (f & HT_FLAG_PASS_THROUGH) ? HT_TRACE_PASS_THROUGH : HT_TRACE_HIT;
    note(t, tr, slot, depth, x, y, d, in, 0, d == HT_TRACE_HIT ? make_handle(t, slot) : HT_NULL_NODE);
}

/* Lists the children of `slot`, whose frame is at `depth`, in search order (unless its block
 * holds every child: they are its candidates then, in that order). */
static int trace_open(const ht_tree *t, trace *tr, int32_t depth, int32_t slot) {
    if (depth >= tr->tfcap) {
        int32_t cap = tr->tfcap ? tr->tfcap * 2 : 64;
        tframe *f = realloc(tr->tf, (size_t)cap * sizeof *f);
        if (!f) return 0;
        tr->tf = f;
        tr->tfcap = cap;
    }
    const block *b = t->hq.blocks[slot];
    if (b && b->count == t->nkids[slot]) {
        tr->tf[depth] = (tframe){tr->otop, -1};
        return 1;
    }
    size_t n = (size_t)t->nkids[slot];
    if (tr->otop + n > tr->ocap) {
        size_t cap = tr->ocap ? tr->ocap : 256;
        while (cap < tr->otop + n) cap *= 2;
        int32_t *o = realloc(tr->order, cap * sizeof *o);
        if (!o) return 0;
        tr->order = o;
        tr->ocap = cap;
    }
    if (htq_search_order(t, slot, tr->order + tr->otop) != HT_OK) return 0;
    tr->tf[depth] = (tframe){tr->otop, 0};
    tr->otop += n;
    return 1;
}

/* The record of the next child of the frame at `depth` (child `pos` of its search order): the
 * block's, when it is the block's next candidate, else one from the rows in `row`. */
static const kid *trace_kid(const ht_tree *t, trace *tr, int32_t depth, const block *b,
                            int32_t pos, kid *row) {
    tframe *f = &tr->tf[depth];
    if (f->bk < 0) return &b->kids[pos];
    int32_t s = tr->order[f->base + (size_t)pos];
    if (b && f->bk < b->count && b->kids[f->bk].slot == s) return &b->kids[f->bk++];
    htq_row_kid(t, s, row);
    return row;
}

/* Is `h` a handle of a live node? (Hooks may answer with anything.) */
static int valid_answer(const ht_tree *t, ht_node h) {
    int32_t s;
    return h == HT_NULL_NODE || resolve(t, h, &s) == HT_OK;
}

/* What every frame of a search for a point at (x, y) in `slot` (block `b`) starts with; the
 * caller says which children it lists (`items`, `n`). */
static inline void frame_start(frame *fr, const block *b, int32_t slot, uint32_t f, int inside,
                               double x, double y) {
    fr->x = x;
    fr->y = y;
    fr->b = b;
    fr->slot = slot;
    fr->flags = f;
    fr->inside = inside;
    fr->pos = 0;
}

/* The frame of `b`'s search for a point at (x, y) (inside the node or not, as `inside` says). */
HT_HOT void open_frame(frame *fr, const block *b, int32_t slot, uint32_t f, int inside, double x,
                       double y) {
    frame_start(fr, b, slot, f, inside, x, y);
    if (b->nx == 0) {
        fr->items = NULL;
        fr->n = b->count;
    } else if (x >= b->gx0 && x <= b->gx1 && y >= b->gy0 && y <= b->gy1) {
        size_t c = grid_index(x, y, b->gx0, b->gy0, b->sx, b->sy, b->nx, b->ny);
        fr->items = b->items + b->cell_start[c];
        fr->n = (int32_t)(b->cell_start[c + 1] - b->cell_start[c]);
#if defined(__GNUC__) || defined(__clang__)
        /* Frames with items have a grid, so 12 candidates or more, so compact records. */
        if (fr->n > 0) __builtin_prefetch(&b->tests[fr->items[0]]);
        if (fr->n > 1) __builtin_prefetch(&b->tests[fr->items[1]]);
#endif
    } else {
        fr->items = b->always;
        fr->n = b->nalways;
    }
}

/* The frame of a traced search: every child of `slot` (trace_open lists them). */
static void open_traced(frame *fr, const ht_tree *t, const block *b, int32_t slot, uint32_t f,
                        int inside, double x, double y) {
    frame_start(fr, b, slot, f, inside, x, y);
    fr->items = NULL;
    fr->n = t->nkids[slot];
}

/*
 * One call of UIKit's hitTest on node `slot` with (x, y) in its space: answers at once (R_NIL,
 * R_HIT) or pushes a frame to search its children (R_PUSHED). `converted`: the point came
 * through the node's own transform (it is a child of the frame below).
 */
static inline int enter(const ht_tree *t, stack *st, int32_t slot, uint32_t f, double x0,
                        double y0, double x1, double y1, double x, double y,
                        const ht_hooks *hooks, int ask_hit, ht_node *hit, trace *tr,
                        int converted) {
    int32_t depth = st->depth; /* in a traced walk: every frame below is an ancestor's */
    if ((f & HT_FLAG_ASK_HIT_TEST) && ask_hit) {
        if (!hooks || !hooks->hit_test) {
            *hit = HT_PENDING_NODE;
            if (tr) note(t, tr, slot, depth, x, y, HT_TRACE_HOOK, 0, 0, HT_PENDING_NODE);
            return R_HIT;
        }
        ht_node r = HT_NULL_NODE;
        int status = hooks->hit_test(hooks->context, make_handle(t, slot), x, y, &r);
        if (status == HT_HOOK_FOREIGN) {
            if (tr) note(t, tr, slot, depth, x, y, HT_TRACE_HOOK, 0, 0, HT_PENDING_NODE);
            return R_FOREIGN;
        }
        if (status != 0) return R_ERROR;
        if (!valid_answer(t, r)) return R_ERROR;
        if (tr) note(t, tr, slot, depth, x, y, HT_TRACE_HOOK, 0, 0, r);
        if (r == HT_NULL_NODE) return R_NIL;
        *hit = r;
        return R_HIT;
    }
    if (!(f & K_ELIGIBLE)) {
        if (tr) note(t, tr, slot, depth, x, y, ineligible(f), 0, 0, HT_NULL_NODE);
        return R_NIL;
    }
    int inside;
    uint32_t asked = 0;
    if (f & HT_FLAG_ASK_POINT_INSIDE) {
        if (!hooks || !hooks->point_inside) {
            *hit = HT_PENDING_NODE;
            if (tr) note(t, tr, slot, depth, x, y, HT_TRACE_HOOK, HT_TRACE_ASKED, 0, HT_PENDING_NODE);
            return R_HIT;
        }
        int r = hooks->point_inside(hooks->context, make_handle(t, slot), x, y);
        if (r < 0) return R_ERROR;
        inside = r > 0;
        asked = HT_TRACE_ASKED;
    } else {
        inside = region_contains(x0, y0, x1, y1, x, y);
    }
    if (!inside && !(f & HT_FLAG_OUTSIDE_HITS)) {
        if (tr)
            note(t, tr, slot, depth, x, y,
                 converted && (f & K_SINGULAR) ? HT_TRACE_SINGULAR : HT_TRACE_OUTSIDE, asked, 0,
                 HT_NULL_NODE);
        return R_NIL;
    }
    const block *b = t->hq.blocks[slot];
    if ((f & HT_FLAG_CAPTURES) || (tr ? t->nkids[slot] == 0 : (!b || b->count == 0))) {
        if (tr) note_closed(t, tr, slot, depth, x, y, f, inside, asked);
        if (!inside || (f & HT_FLAG_PASS_THROUGH)) return R_NIL;
        *hit = make_handle(t, slot);
        return R_HIT;
    }
    frame *fr = push(st);
    if (!fr) return R_NO_MEMORY;
    if (tr) {
        open_traced(fr, t, b, slot, f, inside, x, y);
        if (!trace_open(t, tr, depth, slot)) return R_NO_MEMORY;
        note(t, tr, slot, depth, x, y, HT_TRACE_SEARCH, (inside ? HT_TRACE_INSIDE : 0) | asked,
             t->nkids[slot], HT_NULL_NODE);
    } else {
        open_frame(fr, b, slot, f, inside, x, y);
    }
    return R_PUSHED;
}

/*
 * The whole walk from `slot`; `ask_hit` is 0 for the default (super) hit test of `slot`; `tr`
 * the trail, NULL but for ht_tree_hit_test_trace (see `trace`).
 *
 * The frame being searched lives in `cur` (registers), the ones below it in the stack. A plain
 * child (no hook) is tested inline. Two facts keep the stack short: a non-nil answer is final,
 * and a node whose children all answered nil answers itself. So when the last candidate of the
 * frame is entered, the frame is not kept: if the node would then answer itself, that answer is
 * the walk's answer whenever the child's subtree answers nil (`fallback`), and nothing below the
 * frame can matter any more, so the whole stack goes; if it would answer nil, only the frame goes.
 * Same nodes tested in the same order, same answer. (A traced walk keeps every frame.)
 */
HT_HOT ht_status walk_impl(const ht_tree *t, stack *st, int32_t slot, double x, double y,
                           const ht_hooks *hooks, int ask_hit, ht_node *out, uint64_t *tests,
                           trace *tr) {
    ht_node hit = HT_NULL_NODE, fallback = HT_NULL_NODE;
    uint64_t tested = 1;
    st->depth = 0;
    block *const *blocks = (block *const *)t->hq.blocks;
    uint32_t f0 = t->flags[slot];
    int r = R_NIL;
    frame cur;
    kid row; /* a traced walk's record of a child that is not a candidate */
    if (tr || (f0 & K_HOOKED)) {
        r = enter(t, st, slot, f0, t->rx0[slot], t->ry0[slot], t->rx1[slot], t->ry1[slot], x, y,
                  hooks, ask_hit, &hit, tr, 0);
        if (r != R_PUSHED) goto done;
        cur = st->frames[--st->depth];
    } else {
        /* enter() for a node without hooks, inline: the common first step. */
        if (!(f0 & K_ELIGIBLE)) goto done;
        int inside = region_contains(t->rx0[slot], t->ry0[slot], t->rx1[slot], t->ry1[slot], x, y);
        if (!inside && !(f0 & HT_FLAG_OUTSIDE_HITS)) goto done;
        const block *b = blocks[slot];
        if ((f0 & HT_FLAG_CAPTURES) || !b || b->count == 0) {
            if (inside && !(f0 & HT_FLAG_PASS_THROUGH)) {
                hit = make_handle(t, slot);
                r = R_HIT;
            }
            goto done;
        }
        open_frame(&cur, b, slot, f0, inside, x, y);
    }
    for (;;) {
        if (cur.pos < cur.n) {
            int32_t k = 0;
            const kid_test *h = NULL;
            const kid *tc = NULL; /* a traced walk's candidate */
            uint32_t fl;
            if (tr) {
                /* Every child in search order (a traced frame's depth is the stack's). */
                tc = trace_kid(t, tr, st->depth, cur.b, cur.pos, &row);
                cur.pos++;
                fl = tc->flags;
            } else {
                k = cur.items ? (int32_t)cur.items[cur.pos] : cur.pos;
#if defined(__GNUC__) || defined(__clang__)
                /* Candidates are independent: fetch the one after next while this one is tested. */
                if (cur.items) {
                    /* Clamped rather than tested: a branch here mispredicts once a frame. */
                    int32_t q = cur.pos + 2 < cur.n ? cur.pos + 2 : cur.n - 1;
                    __builtin_prefetch(&cur.b->tests[cur.items[q]]); /* a grid: compact records */
                }
#endif
                cur.pos++;
                h = cur.b->tests ? &cur.b->tests[k] : NULL;
                fl = h ? h->flags : cur.b->kids[k].flags;
            }
            int32_t cslot;
            int inside;
            double lx = 0, ly = 0; /* set on every path that reads them; gcc cannot see it */
            tested++;
            if (fl & K_FAST) { /* never in a traced walk: rows carry no K_FAST */
                cslot = h->slot;
                /* The region test in the parent's space, exactly (kid_test); the point is
                 * converted only for a child whose children are searched. */
                inside = (cur.x >= h->tx0) & (cur.x < h->tx1) & (cur.y >= h->ty0) & (cur.y < h->ty1);
                if (!inside && !(fl & HT_FLAG_OUTSIDE_HITS)) continue;
            } else {
                const kid *c = tr ? tc : &cur.b->kids[k];
                cslot = c->slot;
                to_local(cur.x, cur.y, c->cx, c->cy, c->offx, c->offy, c->inv,
                         (fl & K_IDENTITY) != 0, &lx, &ly);
                if (fl & K_HOOKED) {
                    /* The general path: the frame goes to the stack, enter decides. */
                    frame *fr = push(st);
                    if (!fr) {
                        r = R_NO_MEMORY;
                        goto done;
                    }
                    *fr = cur;
                    r = enter(t, st, c->slot, fl, c->x0, c->y0, c->x1, c->y1, lx, ly, hooks, 1, &hit,
                              tr, 1);
                    if (r != R_PUSHED && r != R_NIL) goto done;
                    cur = st->frames[--st->depth]; /* the child's frame, or this one again */
                    continue;
                }
                if (!(fl & K_ELIGIBLE)) {
                    if (tr) note(t, tr, cslot, st->depth + 1, lx, ly, ineligible(fl), 0, 0, HT_NULL_NODE);
                    continue;
                }
                inside = region_contains(c->x0, c->y0, c->x1, c->y1, lx, ly);
                if (!inside && !(fl & HT_FLAG_OUTSIDE_HITS)) {
                    if (tr)
                        note(t, tr, cslot, st->depth + 1, lx, ly,
                             (fl & K_SINGULAR) ? HT_TRACE_SINGULAR : HT_TRACE_OUTSIDE, 0, 0, HT_NULL_NODE);
                    continue;
                }
            }
            const block *b = blocks[cslot];
            if ((fl & HT_FLAG_CAPTURES) || (tr ? t->nkids[cslot] == 0 : (!b || b->count == 0))) {
                if (tr) note_closed(t, tr, cslot, st->depth + 1, lx, ly, fl, inside, 0);
                if (!inside || (fl & HT_FLAG_PASS_THROUGH)) continue;
                hit = make_handle(t, cslot);
                r = R_HIT;
                goto done;
            }
            if (fl & K_FAST) {
                const kid *kc = &cur.b->kids[k];
                to_local(cur.x, cur.y, kc->cx, kc->cy, kc->offx, kc->offy, kc->inv, 1, &lx, &ly);
            }
            if (cur.pos < cur.n || tr) {
                frame *fr = push(st);
                if (!fr) {
                    r = R_NO_MEMORY;
                    goto done;
                }
                *fr = cur;
            } else if (cur.inside && !(cur.flags & HT_FLAG_PASS_THROUGH)) {
                fallback = make_handle(t, cur.slot);
                st->depth = 0;
            }
            if (tr) {
                open_traced(&cur, t, b, cslot, fl, inside, lx, ly);
                if (!trace_open(t, tr, st->depth, cslot)) {
                    r = R_NO_MEMORY;
                    goto done;
                }
                note(t, tr, cslot, st->depth, lx, ly, HT_TRACE_SEARCH, inside ? HT_TRACE_INSIDE : 0,
                     t->nkids[cslot], HT_NULL_NODE);
            } else {
                open_frame(&cur, b, cslot, fl, inside, lx, ly);
            }
        } else {
            /* No child took the point: the node answers itself, unless it passes through. */
            if (cur.inside && !(cur.flags & HT_FLAG_PASS_THROUGH)) {
                if (tr)
                    note(t, tr, cur.slot, st->depth, cur.x, cur.y, HT_TRACE_HIT, HT_TRACE_INSIDE, 0,
                         make_handle(t, cur.slot));
                hit = make_handle(t, cur.slot);
                r = R_HIT;
                goto done;
            }
            if (tr) {
                note(t, tr, cur.slot, st->depth, cur.x, cur.y,
                     cur.inside ? HT_TRACE_PASS_THROUGH : HT_TRACE_NIL, cur.inside ? HT_TRACE_INSIDE : 0,
                     0, HT_NULL_NODE);
                tr->otop = tr->tf[st->depth].base;
            }
            if (st->depth == 0) {
                hit = fallback;
                r = fallback == HT_NULL_NODE ? R_NIL : R_HIT;
                goto done;
            }
            cur = st->frames[--st->depth];
        }
    }
done:
    *tests += tested;
    switch (r) {
    case R_HIT: *out = hit; return HT_OK;
    case R_ERROR: return HT_E_HOOK_FAILED;
    case R_FOREIGN: return HT_E_FOREIGN_ANSWER;
    case R_NO_MEMORY: return HT_E_NO_MEMORY;
    default: *out = HT_NULL_NODE; return HT_OK;
    }
}

/* The walk of every query but a traced one (no trail: see `trace`). */
static ht_status walk(const ht_tree *t, stack *st, int32_t slot, double x, double y,
                      const ht_hooks *hooks, int ask_hit, ht_node *out, uint64_t *tests) {
    return walk_impl(t, st, slot, x, y, hooks, ask_hit, out, tests, NULL);
}

/*
 * Validates a query. Queries only read: on a tree changed since the last ht_tree_prepare they
 * refuse (HT_E_NOT_PREPARED) rather than rebuild anything.
 */
HT_HOT ht_status begin(const ht_tree *t, ht_node node, int32_t *slot) {
    if (!t) return HT_E_INVALID_ARGUMENT;
    ht_status st = resolve(t, node, slot);
    if (st != HT_OK) return st;
    return htq_prepared(t) ? HT_OK : HT_E_NOT_PREPARED;
}

/* Points per pass of the bulk loop: the lookups of a chunk first, then its walks, while the
 * chunk's points are still in cache. */
#define CHUNK 2048

/* Runs the walk from `slot` for each of `count` points at xs[i * stride], ys[i * stride],
 * answering from `g` (may be NULL) where it is sure. The one loop of every query. With a grid,
 * each chunk of points is looked up first (a tight loop with no walk state), and then the
 * points whose cell is not sure are walked. */
static ht_status run(const ht_tree *t, int32_t slot, const answer_grid *g, const double *xs,
                     const double *ys, size_t stride, size_t count, const ht_hooks *hooks,
                     int ask_hit, ht_node *out, uint64_t *tests) {
    stack s;
    stack_init(&s);
    ht_status st = HT_OK;
    if (g) {
        const cell_pass p = cell_pass_of(g);
        uint32_t pending[CHUNK], cells[CHUNK]; /* the points not answered, and their cells */
        const uint16_t *subs[CHUNK];
        int32_t lists[CHUNK]; /* the list slot of each pending point, -1 for none */
        for (size_t i0 = 0; i0 < count && st == HT_OK; i0 += CHUNK) {
            size_t end = count - i0 < CHUNK ? count : i0 + CHUNK, np = 0;
            /* Every point's cell, without a branch; the points not answered are listed with
             * their cells (a point outside the grid is UNKNOWN: the walk's). */
#if defined(__SSE2__)
            if (ys == xs + 1 && stride == 2) {
                size_t i = i0;
                if (p.pairs)
                    for (; i + 1 < end; i += 2) {
                        int32_t a[2];
                        uint32_t c[2];
                        cell_pass_lookup_xy2(&p, xs + 2 * i, a, c);
                        out[i] = a[0];
                        pending[np] = (uint32_t)(i - i0);
                        cells[np] = c[0];
                        np += a[0] < HT_NULL_NODE;
                        out[i + 1] = a[1];
                        pending[np] = (uint32_t)(i + 1 - i0);
                        cells[np] = c[1];
                        np += a[1] < HT_NULL_NODE;
                    }
                for (; i < end; i++) {
                    int32_t a = cell_pass_lookup_xy(&p, xs + 2 * i, &cells[np]);
                    out[i] = a;
                    pending[np] = (uint32_t)(i - i0);
                    np += a < HT_NULL_NODE;
                }
            } else
#endif
            {
                for (size_t i = i0; i < end; i++) {
                    int32_t a = cell_pass_lookup(&p, xs[i * stride], ys[i * stride], &cells[np]);
                    out[i] = a;
                    pending[np] = (uint32_t)(i - i0);
                    np += a < HT_NULL_NODE;
                }
            }
            /* The sub-grids of the listed points are found, and their lines fetched, together. */
            for (size_t k = 0; k < np; k++) {
                if (out[i0 + pending[k]] != SUBGRID) continue;
                subs[k] = sub_of_cell(g, cells[k]);
#if defined(__GNUC__) || defined(__clang__)
                __builtin_prefetch(subs[k]);
#endif
            }
            /* Sub-grid cells are looked up now. The points still UNSURE (all inside the grid)
             * find their candidate list (a few bitmap words, in cache), whose head is fetched for
             * all of them together; then their items; then each list is tested, and what is left
             * (no list, near an edge, UNKNOWN, outside the grid) takes the walk. */
            for (size_t k = 0; k < np; k++) {
                size_t i = i0 + pending[k];
                int32_t a = out[i];
                if (a == SUBGRID) a = out[i] = sub_answer(g, subs[k], xs[i * stride], ys[i * stride]);
                lists[k] = -1;
                if (a != UNSURE || !g->list_head) continue;
                lists[k] = list_slot(g, cells[k]);
#if defined(__GNUC__) || defined(__clang__)
                if (lists[k] >= 0) __builtin_prefetch(&g->list_head[lists[k]]);
#endif
            }
#if defined(__GNUC__) || defined(__clang__)
            for (size_t k = 0; k < np; k++)
                if (lists[k] >= 0) __builtin_prefetch(&g->items[list_start(g, lists[k])]);
#endif
            for (size_t k = 0; k < np && st == HT_OK; k++) {
                size_t i = i0 + pending[k];
                if (out[i] >= HT_NULL_NODE) continue;
                if (lists[k] >= 0 &&
                    (out[i] = list_answer(g, lists[k], xs[i * stride], ys[i * stride])) >= HT_NULL_NODE)
                    continue;
                ht_node hit = HT_NULL_NODE;
                st = walk(t, &s, slot, xs[i * stride], ys[i * stride], hooks, ask_hit, &hit, tests);
                if (st == HT_OK) out[i] = hit;
            }
        }
    } else {
        for (size_t i = 0; i < count && st == HT_OK; i++) {
            ht_node hit = HT_NULL_NODE;
            st = walk(t, &s, slot, xs[i * stride], ys[i * stride], hooks, ask_hit, &hit, tests);
            if (st == HT_OK) out[i] = hit;
        }
    }
    stack_release(&s);
    return st;
}

/* A query with hooks counts itself in `hooked` (mutations from the hooks are refused); that is
 * the only write a query makes, and only when it has hooks. */
static ht_status query(ht_tree *t, ht_node node, const double *xs, const double *ys,
                       size_t stride, size_t count, const ht_hooks *hooks, int ask_hit,
                       int use_answers, ht_node *out, uint64_t *tests) {
    int32_t slot;
    ht_status st = begin(t, node, &slot);
    if (st != HT_OK) return st;
    if ((!xs || !ys || !out) && count > 0) return HT_E_INVALID_ARGUMENT;
    /* The default hit test of a hooked node never uses the grid: it would skip its hook. */
    const answer_grid *g = (use_answers && ask_hit) ? htq_grid_for(t, slot) : NULL;
    uint64_t tested = 0;
    if (hooks) t->hq.hooked++;
    st = run(t, slot, g, xs, ys, stride, count, hooks, ask_hit, out, &tested);
    if (hooks) t->hq.hooked--;
    if (tests) *tests += tested;
    return st;
}

/* The walk of one point from `slot`, with its own stack (a query with hooks counted in `hooked`). */
static ht_status walk_one(ht_tree *t, int32_t slot, double x, double y, const ht_hooks *hooks,
                          int ask_hit, ht_node *out) {
    stack s;
    stack_init(&s);
    ht_node hit = HT_NULL_NODE;
    uint64_t tests = 0;
    if (hooks) t->hq.hooked++;
    ht_status st = walk(t, &s, slot, x, y, hooks, ask_hit, &hit, &tests);
    if (hooks) t->hq.hooked--;
    stack_release(&s);
    if (st == HT_OK) *out = hit;
    return st;
}

/* One point: `query` for a count of one, kept lean (the grid is looked up before any walk
 * state is set up); the same steps and the same answers. */
static ht_status single(ht_tree *t, ht_node node, double x, double y, const ht_hooks *hooks,
                        int ask_hit, ht_node *out) {
    int32_t slot;
    ht_status st = begin(t, node, &slot);
    if (st != HT_OK) return st;
    if (!out) return HT_E_INVALID_ARGUMENT;
    const answer_grid *g = ask_hit ? htq_grid_for(t, slot) : NULL;
    if (g) {
        size_t c;
        int32_t a = cell_lookup_at(g, x, y, &c);
        if (a == UNSURE && c != SIZE_MAX) a = list_lookup_in(g, c, x, y);
        if (a >= HT_NULL_NODE) {
            *out = a;
            return HT_OK;
        }
    }
    return walk_one(t, slot, x, y, hooks, ask_hit, out);
}

ht_status ht_tree_hit_test(ht_tree *t, ht_node node, double x, double y, const ht_hooks *hooks,
                           ht_node *out) {
    return single(t, node, x, y, hooks, 1, out);
}

ht_status ht_tree_hit_test_default(ht_tree *t, ht_node node, double x, double y,
                                   const ht_hooks *hooks, ht_node *out) {
    return single(t, node, x, y, hooks, 0, out);
}

ht_status ht_tree_hit_test_caching(ht_tree *t, ht_node node, double x, double y, ht_node *out) {
    int32_t slot;
    ht_status st = resolve(t, node, &slot);
    if (st != HT_OK) return st;
    if (!out) return HT_E_INVALID_ARGUMENT;
    if (htq_busy(t)) return HT_E_BUSY; /* inside a query with hooks: ht_tree_hit_test reads only */
    if (!htq_prepared(t) && (st = ht_tree_prepare(t)) != HT_OK) return st;
    int32_t a = htq_learned_answer(t, slot, x, y);
    if (a >= HT_NULL_NODE) {
        *out = a;
        return HT_OK;
    }
    return walk_one(t, slot, x, y, NULL, 1, out);
}

ht_status ht_tree_hit_test_points(ht_tree *t, ht_node node, const double *xy, size_t count,
                                  const ht_hooks *hooks, ht_node *out) {
    return query(t, node, xy, xy ? xy + 1 : NULL, 2, count, hooks, 1, 1, out, NULL);
}

ht_status ht_tree_hit_test_points_counted(ht_tree *t, ht_node node, const double *xy,
                                          size_t count, int use_answer_grid, ht_node *out,
                                          uint64_t *tests) {
    if (!tests) return HT_E_INVALID_ARGUMENT;
    return query(t, node, xy, xy ? xy + 1 : NULL, 2, count, NULL, 1, use_answer_grid, out, tests);
}

ht_status ht_tree_hit_test_xy(ht_tree *t, ht_node node, const double *xs, const double *ys,
                              size_t count, const ht_hooks *hooks, ht_node *out) {
    return query(t, node, xs, ys, 1, count, hooks, 1, 1, out, NULL);
}

ht_status ht_tree_hit_test_strided(ht_tree *t, ht_node node, const double *xs, const double *ys,
                                   size_t stride, size_t count, const ht_hooks *hooks,
                                   ht_node *out) {
    return query(t, node, xs, ys, stride, count, hooks, 1, 1, out, NULL);
}

ht_status htq_walk_plain(const ht_tree *t, int32_t slot, double x, double y, ht_node *out) {
    uint64_t tests = 0;
    return run(t, slot, NULL, &x, &y, 0, 1, NULL, 1, out, &tests);
}

ht_status ht_tree_hit_test_trace(ht_tree *t, ht_node node, double x, double y,
                                 const ht_hooks *hooks, ht_trace_step *steps, size_t capacity,
                                 size_t *out_count, ht_node *out) {
    int32_t slot;
    ht_status st = begin(t, node, &slot);
    if (st != HT_OK) return st;
    if (!out_count || !out || (!steps && capacity > 0)) return HT_E_INVALID_ARGUMENT;
    trace tr = {steps, capacity, 0, NULL, 0, 0, NULL, 0};
    stack s;
    stack_init(&s);
    ht_node hit = HT_NULL_NODE;
    uint64_t tests = 0;
    if (hooks) t->hq.hooked++;
    st = walk_impl(t, &s, slot, x, y, hooks, 1, &hit, &tests, &tr);
    if (hooks) t->hq.hooked--;
    stack_release(&s);
    free(tr.order);
    free(tr.tf);
    if (st != HT_OK && st != HT_E_FOREIGN_ANSWER) return st;
    *out_count = tr.count;
    if (tr.count > capacity) return HT_E_BUFFER_TOO_SMALL;
    if (st == HT_OK) *out = hit;
    return st;
}

ht_status ht_node_search_order(const ht_tree *t, ht_node node, ht_node *out, size_t capacity,
                               size_t *out_count) {
    int32_t slot;
    ht_status st = resolve(t, node, &slot);
    if (st != HT_OK) return st;
    if (!out_count || (!out && capacity > 0)) return HT_E_INVALID_ARGUMENT;
    size_t n = (size_t)t->nkids[slot];
    if (n > capacity) {
        *out_count = n;
        return HT_E_BUFFER_TOO_SMALL;
    }
    if (n == 0) {
        *out_count = 0;
        return HT_OK;
    }
    int32_t *slots = malloc(n * sizeof *slots);
    if (!slots) return HT_E_NO_MEMORY;
    st = htq_search_order(t, slot, slots);
    if (st == HT_OK) {
        for (size_t k = 0; k < n; k++) out[k] = make_handle(t, slots[k]);
        *out_count = n;
    }
    free(slots);
    return st;
}
