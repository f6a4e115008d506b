/* tree.c - the base arrays: nodes, links and setters. Every setter is O(1). */
#include "internal.h"

#include <string.h>

/* Every per-slot array, so that growing and freeing them cannot miss one. */
#define INT32_ARRAYS(X) X(parent) X(first) X(last) X(prev) X(next) X(nkids) X(priority) X(dirty_list)
#define UINT8_ARRAYS(X) X(gen) X(alive) X(dirty)
#define UINT32_ARRAYS(X) X(flags)
#define DOUBLE_ARRAYS(X)                                                                       \
    X(cx) X(cy) X(bx) X(by) X(bw) X(bh) X(anx) X(any) X(xa) X(xb) X(xc) X(xd) X(xtx) X(xty)    \
    X(alpha) X(in_top) X(in_left) X(in_bottom) X(in_right) X(ia) X(ib) X(ic) X(id) X(itx)      \
    X(ity) X(offx) X(offy) X(rx0) X(ry0) X(rx1) X(ry1)
#define POINTER_ARRAYS(X) X(blocks)

const char *ht_status_string(ht_status status) {
    switch (status) {
    case HT_OK: return "ok";
    case HT_E_NO_MEMORY: return "out of memory";
    case HT_E_INVALID_ARGUMENT: return "invalid argument";
    case HT_E_BAD_NODE: return "no such node";
    case HT_E_STALE_NODE: return "node has been freed";
    case HT_E_NOT_FINITE: return "number is NaN or infinite";
    case HT_E_CYCLE: return "a node cannot become its own ancestor";
    case HT_E_CAPACITY: return "node limit reached";
    case HT_E_SINGULAR: return "conversion through a singular transform";
    case HT_E_HOOK_FAILED: return "a hook failed";
    case HT_E_CORRUPT: return "corrupt or truncated data";
    case HT_E_IO: return "file could not be read or written";
    case HT_E_BUSY: return "the tree is being hit-tested (a hook tried to change it)";
    }
    return "unknown status";
}

/* Grows every array to `capacity` rows. On failure the arrays that did grow stay valid and
 * larger; the capacity is not raised, so the tree is unchanged. */
ht_status grow_rows(ht_tree *t, int32_t capacity) {
#define GROW(name)                                                                             \
    {                                                                                          \
        void *p = realloc(t->name, (size_t)capacity * sizeof *t->name);                       \
        if (!p) return HT_E_NO_MEMORY;                                                         \
        t->name = p;                                                                           \
    }
    INT32_ARRAYS(GROW)
    UINT8_ARRAYS(GROW)
    UINT32_ARRAYS(GROW)
    DOUBLE_ARRAYS(GROW)
    POINTER_ARRAYS(GROW)
#undef GROW
    t->capacity = capacity;
    return HT_OK;
}

ht_status ht_tree_create(int32_t capacity_hint, ht_tree **out_tree) {
    if (!out_tree || capacity_hint < 0) return HT_E_INVALID_ARGUMENT;
    ht_tree *t = calloc(1, sizeof *t);
    if (!t) return HT_E_NO_MEMORY;
    t->free_head = t->free_tail = -1;
    t->answers.root = -1;
    int32_t cap = capacity_hint < 16 ? 16 : capacity_hint;
    if (cap > HT_MAX_NODES) cap = HT_MAX_NODES;
    if (grow_rows(t, cap) != HT_OK) {
        ht_tree_destroy(t);
        return HT_E_NO_MEMORY;
    }
    *out_tree = t;
    return HT_OK;
}

void ht_tree_destroy(ht_tree *t) {
    if (!t) return;
    if (t->blocks && t->alive)
        for (int32_t s = 0; s < t->slots; s++)
            if (t->alive[s]) free_block(t, s);
#define FREE(name) free(t->name);
    INT32_ARRAYS(FREE)
    UINT8_ARRAYS(FREE)
    UINT32_ARRAYS(FREE)
    DOUBLE_ARRAYS(FREE)
    POINTER_ARRAYS(FREE)
#undef FREE
    free(t->answers.cells);
    free(t);
}

ht_status ht_tree_node_count(const ht_tree *t, int32_t *out) {
    if (!t || !out) return HT_E_INVALID_ARGUMENT;
    *out = t->live;
    return HT_OK;
}

/* Recomputes the derived row values of `s` that depend on bounds, anchor and insets. */
static void update_region(ht_tree *t, int32_t s) {
    t->offx[s] = t->bx[s] + t->anx[s] * t->bw[s];
    t->offy[s] = t->by[s] + t->any[s] * t->bh[s];
    /* UIEdgeInsetsInsetRect, then CGRect's max = origin + size. */
    double x0 = t->bx[s] + t->in_left[s], y0 = t->by[s] + t->in_top[s];
    double w = t->bw[s] - t->in_left[s] - t->in_right[s];
    double h = t->bh[s] - t->in_top[s] - t->in_bottom[s];
    t->rx0[s] = x0;
    t->ry0[s] = y0;
    t->rx1[s] = x0 + w;
    t->ry1[s] = y0 + h;
}

static void update_eligible(ht_tree *t, int32_t s) {
    uint32_t f = t->flags[s] & ~(uint32_t)K_ELIGIBLE;
    if (!(f & (HT_FLAG_HIDDEN | HT_FLAG_NO_INTERACTION)) && !(t->alpha[s] < 0.01)) f |= K_ELIGIBLE;
    t->flags[s] = f;
}

ht_status ht_node_create(ht_tree *t, ht_node *out) {
    if (!t || !out) return HT_E_INVALID_ARGUMENT;
    if (t->hooked) return HT_E_BUSY;
    int32_t s;
    if (t->free_head >= 0) {
        s = t->free_head;
        t->free_head = t->next[s];
        if (t->free_head < 0) t->free_tail = -1;
    } else {
        if (t->slots >= HT_MAX_NODES) return HT_E_CAPACITY;
        if (t->slots == t->capacity) {
            int64_t cap = (int64_t)t->capacity * 2;
            if (cap > HT_MAX_NODES) cap = HT_MAX_NODES;
            ht_status st = grow_rows(t, (int32_t)cap);
            if (st != HT_OK) return st;
        }
        s = t->slots++;
        t->gen[s] = 0;
        t->dirty[s] = 0; /* a reused slot may still be listed as dirty; prepare skips or redoes it */
    }
    t->alive[s] = 1;
    t->parent[s] = t->first[s] = t->last[s] = t->prev[s] = t->next[s] = -1;
    t->nkids[s] = 0;
    t->priority[s] = 0;
    t->blocks[s] = NULL;
    t->cx[s] = t->cy[s] = t->bx[s] = t->by[s] = t->bw[s] = t->bh[s] = 0;
    t->anx[s] = t->any[s] = 0.5;
    t->xa[s] = t->xd[s] = t->ia[s] = t->id[s] = 1;
    t->xb[s] = t->xc[s] = t->xtx[s] = t->xty[s] = 0;
    t->ib[s] = t->ic[s] = t->itx[s] = t->ity[s] = 0;
    t->alpha[s] = 1;
    t->in_top[s] = t->in_left[s] = t->in_bottom[s] = t->in_right[s] = 0;
    t->flags[s] = K_IDENTITY;
    update_region(t, s);
    update_eligible(t, s);
    t->live++;
    *out = make_handle(t, s);
    return HT_OK;
}

/* Unlinks `s` from its parent's child list. */
static void unlink_child(ht_tree *t, int32_t s) {
    int32_t p = t->parent[s];
    if (p < 0) return;
    if (t->prev[s] >= 0) t->next[t->prev[s]] = t->next[s];
    else t->first[p] = t->next[s];
    if (t->next[s] >= 0) t->prev[t->next[s]] = t->prev[s];
    else t->last[p] = t->prev[s];
    t->prev[s] = t->next[s] = t->parent[s] = -1;
    t->nkids[p]--;
    mark_dirty(t, p);
}

ht_status ht_node_free(ht_tree *t, ht_node node) {
    int32_t s;
    ht_status st = resolve(t, node, &s);
    if (st != HT_OK) return st;
    if (t->hooked) return HT_E_BUSY;
    answers_touch(t, s);
    unlink_child(t, s);
    for (int32_t c = t->first[s]; c >= 0;) {
        int32_t n = t->next[c];
        t->parent[c] = t->prev[c] = t->next[c] = -1;
        c = n;
    }
    free_block(t, s);
    t->alive[s] = 0;
    t->gen[s] = (uint8_t)((t->gen[s] + 1) & GEN_MASK);
    /* FIFO reuse: a freed handle is recognised as stale for as long as possible. */
    t->next[s] = -1;
    if (t->free_tail >= 0) t->next[t->free_tail] = s;
    else t->free_head = s;
    t->free_tail = s;
    t->live--;
    return HT_OK;
}

ht_status ht_node_attach(ht_tree *t, ht_node child, ht_node parent, int32_t position) {
    int32_t c, p;
    ht_status st = resolve(t, child, &c);
    if (st != HT_OK) return st;
    if (t->hooked) return HT_E_BUSY;
    if ((st = resolve(t, parent, &p)) != HT_OK) return st;
    if (position < 0) return HT_E_INVALID_ARGUMENT;
    if (c == p) return HT_E_CYCLE;
    /* A leaf has no descendants, so building a tree top-down never walks up. */
    if (t->nkids[c] > 0)
        for (int32_t a = t->parent[p]; a >= 0; a = t->parent[a])
            if (a == c) return HT_E_CYCLE;
    answers_touch(t, c); /* where it was */
    unlink_child(t, c);
    int32_t after; /* the sibling that will be below the child, -1 for the bottom */
    if (position >= t->nkids[p]) {
        after = t->last[p];
    } else {
        after = -1;
        for (int32_t i = 0, n = t->first[p]; i < position; i++, n = t->next[n]) after = n;
    }
    int32_t before = after >= 0 ? t->next[after] : t->first[p];
    t->prev[c] = after;
    t->next[c] = before;
    if (after >= 0) t->next[after] = c;
    else t->first[p] = c;
    if (before >= 0) t->prev[before] = c;
    else t->last[p] = c;
    t->parent[c] = p;
    t->nkids[p]++;
    mark_dirty(t, p);
    answers_touch(t, c); /* where it is now */
    return HT_OK;
}

ht_status ht_node_detach(ht_tree *t, ht_node node) {
    int32_t s;
    ht_status st = resolve(t, node, &s);
    if (st != HT_OK) return st;
    if (t->hooked) return HT_E_BUSY;
    answers_touch(t, s);
    unlink_child(t, s);
    return HT_OK;
}

ht_status ht_node_parent(const ht_tree *t, ht_node node, ht_node *out) {
    int32_t s;
    ht_status st = resolve(t, node, &s);
    if (st != HT_OK) return st;
    if (!out) return HT_E_INVALID_ARGUMENT;
    *out = t->parent[s] >= 0 ? make_handle(t, t->parent[s]) : HT_NULL_NODE;
    return HT_OK;
}

ht_status ht_node_child_count(const ht_tree *t, ht_node node, int32_t *out) {
    int32_t s;
    ht_status st = resolve(t, node, &s);
    if (st != HT_OK) return st;
    if (!out) return HT_E_INVALID_ARGUMENT;
    *out = t->nkids[s];
    return HT_OK;
}

ht_status ht_node_child_at(const ht_tree *t, ht_node node, int32_t index, ht_node *out) {
    int32_t s;
    ht_status st = resolve(t, node, &s);
    if (st != HT_OK) return st;
    if (!out || index < 0 || index >= t->nkids[s]) return HT_E_INVALID_ARGUMENT;
    int32_t c = t->first[s];
    for (int32_t i = 0; i < index; i++) c = t->next[c];
    *out = make_handle(t, c);
    return HT_OK;
}

/* Geometry of `s` changed: its parent's candidates and its own grid (clipped to its region). */
static void geometry_changed(ht_tree *t, int32_t s) {
    mark_dirty(t, t->parent[s]);
    if (t->nkids[s] > 0) mark_dirty(t, s);
}

ht_status ht_node_set_center(ht_tree *t, ht_node node, double x, double y) {
    int32_t s;
    ht_status st = resolve(t, node, &s);
    if (st != HT_OK) return st;
    if (t->hooked) return HT_E_BUSY;
    if (!isfinite(x) || !isfinite(y)) return HT_E_NOT_FINITE;
    answers_touch(t, s);
    t->cx[s] = x;
    t->cy[s] = y;
    answers_touch(t, s);
    mark_dirty(t, t->parent[s]);
    return HT_OK;
}

ht_status ht_node_set_bounds(ht_tree *t, ht_node node, double x, double y, double w, double h) {
    int32_t s;
    ht_status st = resolve(t, node, &s);
    if (st != HT_OK) return st;
    if (t->hooked) return HT_E_BUSY;
    double v[4] = {x, y, w, h};
    if (!all_finite(v, 4)) return HT_E_NOT_FINITE;
    answers_touch(t, s);
    t->bx[s] = x;
    t->by[s] = y;
    t->bw[s] = w;
    t->bh[s] = h;
    update_region(t, s);
    answers_touch(t, s);
    geometry_changed(t, s);
    return HT_OK;
}

ht_status ht_node_set_anchor(ht_tree *t, ht_node node, double x, double y) {
    int32_t s;
    ht_status st = resolve(t, node, &s);
    if (st != HT_OK) return st;
    if (t->hooked) return HT_E_BUSY;
    if (!isfinite(x) || !isfinite(y)) return HT_E_NOT_FINITE;
    answers_touch(t, s);
    t->anx[s] = x;
    t->any[s] = y;
    update_region(t, s);
    answers_touch(t, s);
    mark_dirty(t, t->parent[s]);
    return HT_OK;
}

/* Recomputes the inverse transform and the identity / singular bits of `s` from its transform. */
static void derive_transform(ht_tree *t, int32_t s) {
    double a = t->xa[s], b = t->xb[s], c = t->xc[s], d = t->xd[s], tx = t->xtx[s], ty = t->xty[s];
    uint32_t f = t->flags[s] & ~(uint32_t)(K_IDENTITY | K_SINGULAR);
    /* CGAffineTransformInvert's formula; the Swift AffineTransform.inverted() is the same. */
    double det = a * d - b * c;
    double inv[6] = {d / det, -b / det, -c / det, a / det, (c * ty - d * tx) / det,
                     (b * tx - a * ty) / det};
    if (det == 0 || !all_finite(inv, 6)) {
        f |= K_SINGULAR;
        for (int i = 0; i < 6; i++) inv[i] = NAN;
    }
    if (a == 1 && b == 0 && c == 0 && d == 1 && tx == 0 && ty == 0) f |= K_IDENTITY;
    t->ia[s] = inv[0];
    t->ib[s] = inv[1];
    t->ic[s] = inv[2];
    t->id[s] = inv[3];
    t->itx[s] = inv[4];
    t->ity[s] = inv[5];
    t->flags[s] = f;
}

void derive_row(ht_tree *t, int32_t s) {
    derive_transform(t, s);
    update_region(t, s);
    update_eligible(t, s);
}

ht_status ht_node_set_transform(ht_tree *t, ht_node node, const ht_affine *m) {
    int32_t s;
    ht_status st = resolve(t, node, &s);
    if (st != HT_OK) return st;
    if (t->hooked) return HT_E_BUSY;
    if (!m) return HT_E_INVALID_ARGUMENT;
    double v[6] = {m->a, m->b, m->c, m->d, m->tx, m->ty};
    if (!all_finite(v, 6)) return HT_E_NOT_FINITE;
    answers_touch(t, s);
    t->xa[s] = m->a;
    t->xb[s] = m->b;
    t->xc[s] = m->c;
    t->xd[s] = m->d;
    t->xtx[s] = m->tx;
    t->xty[s] = m->ty;
    derive_transform(t, s);
    answers_touch(t, s);
    mark_dirty(t, t->parent[s]);
    return HT_OK;
}

ht_status ht_node_set_flags(ht_tree *t, ht_node node, uint32_t flags) {
    int32_t s;
    ht_status st = resolve(t, node, &s);
    if (st != HT_OK) return st;
    if (t->hooked) return HT_E_BUSY;
    if (flags & ~(uint32_t)HT_FLAG_ALL) return HT_E_INVALID_ARGUMENT;
    answers_touch(t, s);
    uint32_t old = t->flags[s];
    t->flags[s] = (old & ~(uint32_t)PUBLIC_FLAGS) | flags;
    update_eligible(t, s);
    answers_touch(t, s);
    if (t->flags[s] != old) geometry_changed(t, s);
    return HT_OK;
}

ht_status ht_node_flags(const ht_tree *t, ht_node node, uint32_t *out) {
    int32_t s;
    ht_status st = resolve(t, node, &s);
    if (st != HT_OK) return st;
    if (!out) return HT_E_INVALID_ARGUMENT;
    *out = t->flags[s] & PUBLIC_FLAGS;
    return HT_OK;
}

ht_status ht_node_get_record(const ht_tree *t, ht_node node, ht_node_record *out) {
    int32_t s;
    ht_status st = resolve(t, node, &s);
    if (st != HT_OK) return st;
    if (!out) return HT_E_INVALID_ARGUMENT;
    ht_node_record r = {
        .center_x = t->cx[s], .center_y = t->cy[s],
        .bounds_x = t->bx[s], .bounds_y = t->by[s], .bounds_w = t->bw[s], .bounds_h = t->bh[s],
        .anchor_x = t->anx[s], .anchor_y = t->any[s],
        .transform = {t->xa[s], t->xb[s], t->xc[s], t->xd[s], t->xtx[s], t->xty[s]},
        .alpha = t->alpha[s],
        .inset_top = t->in_top[s], .inset_left = t->in_left[s],
        .inset_bottom = t->in_bottom[s], .inset_right = t->in_right[s],
        .flags = t->flags[s] & PUBLIC_FLAGS,
        .priority = t->priority[s],
        .parent = t->parent[s] >= 0 ? make_handle(t, t->parent[s]) : HT_NULL_NODE,
        .child_count = t->nkids[s],
    };
    *out = r;
    return HT_OK;
}

ht_status ht_node_set_alpha(ht_tree *t, ht_node node, double alpha) {
    int32_t s;
    ht_status st = resolve(t, node, &s);
    if (st != HT_OK) return st;
    if (t->hooked) return HT_E_BUSY;
    if (!isfinite(alpha)) return HT_E_NOT_FINITE;
    answers_touch(t, s);
    uint32_t old = t->flags[s];
    t->alpha[s] = alpha;
    update_eligible(t, s);
    answers_touch(t, s);
    if (t->flags[s] != old) mark_dirty(t, t->parent[s]);
    return HT_OK;
}

ht_status ht_node_set_insets(ht_tree *t, ht_node node, double top, double left, double bottom,
                             double right) {
    int32_t s;
    ht_status st = resolve(t, node, &s);
    if (st != HT_OK) return st;
    if (t->hooked) return HT_E_BUSY;
    double v[4] = {top, left, bottom, right};
    if (!all_finite(v, 4)) return HT_E_NOT_FINITE;
    answers_touch(t, s);
    t->in_top[s] = top;
    t->in_left[s] = left;
    t->in_bottom[s] = bottom;
    t->in_right[s] = right;
    update_region(t, s);
    answers_touch(t, s);
    geometry_changed(t, s);
    return HT_OK;
}

ht_status ht_node_set_priority(ht_tree *t, ht_node node, int32_t priority) {
    int32_t s;
    ht_status st = resolve(t, node, &s);
    if (st != HT_OK) return st;
    if (t->hooked) return HT_E_BUSY;
    if (t->priority[s] != priority) {
        answers_touch(t, s);
        t->priority[s] = priority;
        answers_touch(t, s);
        mark_dirty(t, t->parent[s]);
    }
    return HT_OK;
}

ht_status ht_tree_clone(ht_tree *t, ht_tree **out) {
    if (!t || !out) return HT_E_INVALID_ARGUMENT;
    if (t->hooked) return HT_E_BUSY;
    ht_status st = ht_tree_prepare(t);
    if (st != HT_OK) return st;
    ht_tree *c = malloc(sizeof *c);
    if (!c) return HT_E_NO_MEMORY;
    *c = *t; /* the scalars; every array pointer is replaced below */
#define NULLIFY(name) c->name = NULL;
    INT32_ARRAYS(NULLIFY)
    UINT8_ARRAYS(NULLIFY)
    UINT32_ARRAYS(NULLIFY)
    DOUBLE_ARRAYS(NULLIFY)
    POINTER_ARRAYS(NULLIFY)
#undef NULLIFY
    c->slots = 0; /* so that destroy on failure frees no blocks */
    c->answers.cells = NULL; /* not copied: the copy builds its own on first bulk query */
    c->answers.unknown = 0;
    c->hooked = 0;
    c->answers.capacity = 0;
    c->answers.root = -1;
    c->capacity = 0;
    if (grow_rows(c, t->capacity) != HT_OK) {
        ht_tree_destroy(c);
        return HT_E_NO_MEMORY;
    }
    size_t rows = (size_t)t->slots;
#define COPY(name) memcpy(c->name, t->name, rows * sizeof *t->name);
    INT32_ARRAYS(COPY)
    UINT8_ARRAYS(COPY)
    UINT32_ARRAYS(COPY)
    DOUBLE_ARRAYS(COPY)
#undef COPY
    for (size_t s = 0; s < rows; s++) c->blocks[s] = NULL;
    c->slots = t->slots;
    for (int32_t s = 0; s < t->slots; s++) {
        if (!t->alive[s] || !t->blocks[s]) continue;
        if (copy_block(t->blocks[s], &c->blocks[s]) != HT_OK) {
            ht_tree_destroy(c);
            return HT_E_NO_MEMORY;
        }
    }
    *out = c;
    return HT_OK;
}

ht_status ht_tree_memory_usage(const ht_tree *t, size_t *out) {
    if (!t || !out) return HT_E_INVALID_ARGUMENT;
    size_t row = 0;
#define ROW(name) row += sizeof *t->name;
    INT32_ARRAYS(ROW)
    UINT8_ARRAYS(ROW)
    UINT32_ARRAYS(ROW)
    DOUBLE_ARRAYS(ROW)
    POINTER_ARRAYS(ROW)
#undef ROW
    size_t bytes = sizeof *t + row * (size_t)t->capacity;
    for (int32_t s = 0; s < t->slots; s++)
        if (t->alive[s] && t->blocks[s]) bytes += block_bytes(t->blocks[s]);
    bytes += (size_t)t->answers.capacity * sizeof *t->answers.cells;
    *out = bytes;
    return HT_OK;
}

ht_status ht_tree_validate(const ht_tree *t) {
    if (!t) return HT_E_INVALID_ARGUMENT;
    int32_t live = 0;
    for (int32_t s = 0; s < t->slots; s++) {
        if (!t->alive[s]) continue;
        live++;
        int32_t n = 0, prev = -1;
        for (int32_t c = t->first[s]; c >= 0; c = t->next[c]) {
            if (c >= t->slots || !t->alive[c] || t->parent[c] != s || t->prev[c] != prev)
                return HT_E_CORRUPT;
            prev = c;
            if (++n > t->nkids[s]) return HT_E_CORRUPT;
        }
        if (n != t->nkids[s] || t->last[s] != prev) return HT_E_CORRUPT;
        if (t->parent[s] >= 0 && !t->alive[t->parent[s]]) return HT_E_CORRUPT;
        if (t->flags[s] & ~(uint32_t)(PUBLIC_FLAGS | K_IDENTITY | K_SINGULAR | K_ELIGIBLE))
            return HT_E_CORRUPT;
        if (!t->dirty[s] && t->nkids[s] == 0 && t->blocks[s] && t->blocks[s]->count != 0)
            return HT_E_CORRUPT;
    }
    if (live != t->live || t->ndirty > t->slots) return HT_E_CORRUPT;
    int32_t freed = 0;
    for (int32_t s = t->free_head; s >= 0; s = t->next[s]) {
        if (t->alive[s] || ++freed > t->slots) return HT_E_CORRUPT;
    }
    if (freed + live != t->slots) return HT_E_CORRUPT;
    return HT_OK;
}
