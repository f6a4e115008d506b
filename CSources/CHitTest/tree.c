/*
 * tree.c - the base rows: nodes, links, setters, and the mutation protocol.
 *
 * The mutation protocol. Every mutator is
 *     begin_mutation (resolve the handle, refuse while hooks run)
 *     -> argument checks
 *     -> change_begin(t, slot, effects)   subsystems see the node as it was
 *     -> write the row
 *     -> node_changed(t, change)          the row's derived values, then the subsystems
 * and `effects` comes only from fields.h's table (FIELD_FX, one entry per stored field, or
 * FX_LINKS for a link change): a setter names the fields it writes, never what they invalidate,
 * so a new setter cannot forget an invalidation. Writing an unchanged value is not a change.
 */
#include "internal.h"

#include <string.h>

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
    case HT_E_NOT_PREPARED: return "the tree has changed since ht_tree_prepare";
    case HT_E_FOREIGN_ANSWER: return "a hit_test hook answered a node of another tree";
    case HT_E_UNSATISFIABLE: return "required constraints conflict";
    case HT_E_BAD_HANDLE: return "no such solver variable or constraint";
    case HT_E_IN_USE: return "the variable is used by a constraint";
    case HT_E_REQUIRED_PRIORITY: return "a priority cannot change between required and optional";
    case HT_E_BUFFER_TOO_SMALL: return "a buffer is too small for the result (the size needed was written)";
    }
    return "unknown status";
}

/* ---- the table: what a change of each stored field invalidates (fields.h) ---- */

static const uint32_t FIELD_FX[F_COUNT] = {
#define HT_FIELD_FX(kind, name, def, rec, fx) [F_##name] = (fx),
    HT_STORED_FIELDS(HT_FIELD_FX)
#undef HT_FIELD_FX
};

/* Where each field's row array pointer sits in the tree (a table load, not a switch). */
static const size_t FIELD_OFFSET[F_COUNT] = {
#define HT_FIELD_OFFSET(kind, name, def, rec, fx) [F_##name] = offsetof(ht_tree, name),
    HT_STORED_FIELDS(HT_FIELD_OFFSET)
#undef HT_FIELD_OFFSET
};

/* The row array of a double field (F64 kinds only). */
static inline double *f64_column(ht_tree *t, ht_field id) {
    double *col;
    memcpy(&col, (const char *)t + FIELD_OFFSET[id], sizeof col);
    return col;
}

/* ---- rows ---- */

/* Grows every array to `capacity` rows. On failure the arrays that did grow stay valid and
 * larger; the capacity is not raised, so the tree is unchanged. */
ht_status htr_grow(ht_tree *t, int32_t capacity) {
    /* A failed realloc leaves its row where it was, the rows grown before it moved: the
     * published addresses follow either way. */
    ht_status st = HT_OK;
#define HT_ROW_OP(name)                                                                        \
    if (st == HT_OK) {                                                                         \
        void *p = realloc(t->name, (size_t)capacity * sizeof *t->name);                       \
        if (p) t->name = p;                                                                    \
        else st = HT_E_NO_MEMORY;                                                              \
    }
    HT_FOR_EACH_ROW
#undef HT_ROW_OP
    t->published = (ht_rows){.center_x = t->cx, .center_y = t->cy,
                             .bounds_x = t->bx, .bounds_y = t->by, .bounds_w = t->bw, .bounds_h = t->bh,
                             .anchor_x = t->anx, .anchor_y = t->any,
                             .a = t->xa, .b = t->xb, .c = t->xc, .d = t->xd, .tx = t->xtx, .ty = t->xty,
                             .alpha = t->alpha,
                             .inset_top = t->in_top, .inset_left = t->in_left,
                             .inset_bottom = t->in_bottom, .inset_right = t->in_right,
                             .flags = t->flags, .priority = t->priority};
    if (st != HT_OK) return st;
    st = htq_grow(t, capacity);
    if (st != HT_OK) return st;
    t->capacity = capacity;
    return HT_OK;
}

size_t htr_row_bytes(void) {
    const ht_tree *t = NULL;
    size_t row = 0;
#define HT_ROW_OP(name) row += sizeof *t->name;
    HT_FOR_EACH_ROW
#undef HT_ROW_OP
    return row;
}

ht_status ht_tree_create(int32_t capacity_hint, ht_tree **out_tree) {
    if (!out_tree || capacity_hint < 0) return HT_E_INVALID_ARGUMENT;
    ht_tree *t = calloc(1, sizeof *t);
    if (!t) return HT_E_NO_MEMORY;
    t->free_head = t->free_tail = -1;
    int32_t cap = capacity_hint < 16 ? 16 : capacity_hint;
    if (cap > HT_MAX_NODES) cap = HT_MAX_NODES;
    if (htq_init(t) != HT_OK || htr_grow(t, cap) != HT_OK) {
        ht_tree_destroy(t);
        return HT_E_NO_MEMORY;
    }
    *out_tree = t;
    return HT_OK;
}

void ht_tree_destroy(ht_tree *t) {
    if (!t) return;
    htq_destroy(t);
#define HT_ROW_OP(name) free(t->name);
    HT_FOR_EACH_ROW
#undef HT_ROW_OP
    free(t);
}

ht_status ht_tree_node_count(const ht_tree *t, int32_t *out) {
    if (!t || !out) return HT_E_INVALID_ARGUMENT;
    *out = t->live;
    return HT_OK;
}

/* ---- values derived per row ---- */

/* The anchor offset and the region of `s`, from bounds, anchor and insets. */
static void derive_region(ht_tree *t, int32_t s) {
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

static void derive_eligible(ht_tree *t, int32_t s) {
    uint32_t f = t->flags[s] & ~(uint32_t)K_ELIGIBLE;
    if (!(f & UNHITTABLE_FLAGS) && !(t->alpha[s] < 0.01)) f |= K_ELIGIBLE;
    t->flags[s] = f;
}

/* The inverse transform and the identity / singular bits of `s`, from its transform. */
static void derive_transform(ht_tree *t, int32_t s) {
    double a = t->xa[s], b = t->xb[s], c = t->xc[s], d = t->xd[s], tx = t->xtx[s], ty = t->xty[s];
    uint32_t f = t->flags[s] & ~(uint32_t)(K_IDENTITY | K_SINGULAR);
    if (a == 1 && b == 0 && c == 0 && d == 1 && tx == 0 && ty == 0) {
        /* The identity's inverse, written as the identity (no signed zeros from the formula). */
        t->ia[s] = t->id[s] = 1;
        t->ib[s] = t->ic[s] = t->itx[s] = t->ity[s] = 0;
        t->flags[s] = f | K_IDENTITY;
        return;
    }
    /* CGAffineTransformInvert's formula; the Swift AffineTransform.inverted() is the same. */
    double det = a * d - b * c;
    double inv[6] = {d / det, -b / det, -c / det, a / det, (c * ty - d * tx) / det,
                     (b * tx - a * ty) / det};
    if (det == 0 || !all_finite(inv, 6)) {
        f |= K_SINGULAR;
        for (int i = 0; i < 6; i++) inv[i] = NAN;
    }
    t->ia[s] = inv[0];
    t->ib[s] = inv[1];
    t->ic[s] = inv[2];
    t->id[s] = inv[3];
    t->itx[s] = inv[4];
    t->ity[s] = inv[5];
    t->flags[s] = f;
}

void htr_derive_row(ht_tree *t, int32_t s) {
    derive_transform(t, s);
    derive_region(t, s);
    derive_eligible(t, s);
}

/* ---- the mutation protocol ---- */

/* Resolves the node of a mutation and refuses it while hooks run. */
static ht_status begin_mutation(ht_tree *t, ht_node node, int32_t *s) {
    ht_status st = resolve(t, node, s);
    if (st != HT_OK) return st;
    return htq_busy(t) ? HT_E_BUSY : HT_OK;
}

typedef struct change {
    int32_t slot;
    uint32_t fx;        /* effects, from the table */
    uint32_t old_flags; /* for FX_IF_FLAGS_CHANGED */
} change;

/* The subsystems see `s` as it is, before a change of effects `fx`. */
static change change_begin(ht_tree *t, int32_t s, uint32_t fx) {
    htq_before(t, s, fx);
    return (change){s, fx, t->flags[s]};
}

/* The row of `c.slot` has been written: re-derive what the effects name, then tell the
 * subsystems. */
HT_HOT void node_changed(ht_tree *t, change c) {
    int32_t s = c.slot;
    uint32_t fx = c.fx;
    if (fx & FX_TRANSFORM) derive_transform(t, s);
    if (fx & FX_REGION) derive_region(t, s);
    if (fx & FX_ELIGIBLE) derive_eligible(t, s);
    if ((fx & FX_IF_FLAGS_CHANGED) && t->flags[s] == c.old_flags)
        fx &= ~(uint32_t)(FX_PARENT_BLOCK | FX_OWN_BLOCK);
    htq_after(t, s, fx);
}

/* Writes `n` (at most 6) finite double fields of the live slot `s`: an unchanged value (to the
 * bit) is no change; otherwise the effects of the fields, from the table, go through the
 * protocol. Always inlined: each caller passes constant fields, so the column lookups, the
 * effects and the loops fold into straight-line code for its fields. */
HT_HOT void write_f64(ht_tree *t, int32_t s, const ht_field *ids, const double *v, int n) {
    double *cols[6];
    uint32_t fx = 0;
    int changed = 0;
    for (int i = 0; i < n; i++) {
        cols[i] = f64_column(t, ids[i]);
        fx |= FIELD_FX[ids[i]];
        changed |= memcmp(&cols[i][s], &v[i], sizeof v[i]) != 0;
    }
    if (!changed) return;
    change c = change_begin(t, s, fx);
    for (int i = 0; i < n; i++) cols[i][s] = v[i];
    node_changed(t, c);
}

/* The generic setter: a handle's node, checked, then its fields written (a scroll view writes
 * its bounds at every drag move). */
HT_HOT ht_status set_f64(ht_tree *t, ht_node node, const ht_field *ids, const double *v, int n) {
    int32_t s;
    ht_status st = begin_mutation(t, node, &s);
    if (st != HT_OK) return st;
    if (!all_finite(v, n)) return HT_E_NOT_FINITE;
    write_f64(t, s, ids, v, n);
    return HT_OK;
}

/* ---- nodes ---- */

ht_status ht_node_create(ht_tree *t, ht_node *out) {
    if (!t || !out) return HT_E_INVALID_ARGUMENT;
    if (htq_busy(t)) return HT_E_BUSY;
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
            ht_status st = htr_grow(t, (int32_t)cap);
            if (st != HT_OK) return st;
        }
        s = t->slots++;
        t->gen[s] = 0;
    }
    t->alive[s] = 1;
    t->parent[s] = t->first[s] = t->last[s] = t->prev[s] = t->next[s] = -1;
    t->nkids[s] = 0;
#define HT_FIELD_DEFAULT(kind, name, def, rec, fx) t->name[s] = (HT_CTYPE_##kind)(def);
    HT_STORED_FIELDS(HT_FIELD_DEFAULT)
#undef HT_FIELD_DEFAULT
    htr_derive_row(t, s);
    htq_node_created(t, s);
    t->live++;
    *out = make_handle(t, s);
    return HT_OK;
}

/* Unlinks `s` from its parent's child list (the protocol has told the subsystems). */
static void unlink_child(ht_tree *t, int32_t s) {
    int32_t p = t->parent[s];
    if (p < 0) return;
    if (t->prev[s] >= 0) t->next[t->prev[s]] = t->next[s];
    else t->first[p] = t->next[s];
    if (t->next[s] >= 0) t->prev[t->next[s]] = t->prev[s];
    else t->last[p] = t->prev[s];
    t->prev[s] = t->next[s] = t->parent[s] = -1;
    t->nkids[p]--;
}

ht_status ht_node_free(ht_tree *t, ht_node node) {
    int32_t s;
    ht_status st = begin_mutation(t, node, &s);
    if (st != HT_OK) return st;
    change_begin(t, s, FX_LINKS); /* the node leaves: nothing to tell after */
    unlink_child(t, s);
    for (int32_t c = t->first[s]; c >= 0;) {
        int32_t n = t->next[c];
        t->parent[c] = t->prev[c] = t->next[c] = -1;
        c = n;
    }
    htq_node_freed(t, s);
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
    ht_status st = begin_mutation(t, child, &c);
    if (st != HT_OK) return st;
    if ((st = resolve(t, parent, &p)) != HT_OK) return st;
    if (position < 0) return HT_E_INVALID_ARGUMENT;
    if (c == p) return HT_E_CYCLE;
    /* A leaf has no descendants, so building a tree top-down never walks up. */
    if (t->nkids[c] > 0)
        for (int32_t a = t->parent[p]; a >= 0; a = t->parent[a])
            if (a == c) return HT_E_CYCLE;
    change ch = change_begin(t, c, FX_LINKS); /* where it was */
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
    node_changed(t, ch); /* where it is now */
    return HT_OK;
}

ht_status ht_node_detach(ht_tree *t, ht_node node) {
    int32_t s;
    ht_status st = begin_mutation(t, node, &s);
    if (st != HT_OK) return st;
    if (t->parent[s] < 0) return HT_OK; /* a root is unchanged */
    change c = change_begin(t, s, FX_LINKS);
    unlink_child(t, s);
    node_changed(t, c);
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

/* ---- setters: each names the fields it writes ---- */

ht_status ht_node_set_center(ht_tree *t, ht_node node, double x, double y) {
    return set_f64(t, node, (const ht_field[]){F_cx, F_cy}, (const double[]){x, y}, 2);
}

/* The center setLayoutFrame gives slot `s` for the frame `f` (x, y, w, h; View.swift): origin
 * + anchor * the frame's own size (equal to the bounds size by ==, which does not tell +0 from
 * -0, so the frame's is the one written). */
HT_HOT void layout_center(const ht_tree *t, int32_t s, const double *f, double out[2]) {
    out[0] = f[0] + t->anx[s] * f[2];
    out[1] = f[1] + t->any[s] * f[3];
}

/* A layout pass's frames (Auto Layout's apply): the same write as ht_node_set_center for each
 * child that keeps its size, checked in full before the first write so that a refused call
 * changes nothing. */
ht_status ht_tree_set_layout_frames(ht_tree *t, ht_node parent, const ht_node *nodes, const double *frames,
                                    size_t count, uint32_t *resize, size_t *resize_count) {
    int32_t p;
    ht_status st = begin_mutation(t, parent, &p);
    if (st != HT_OK) return st;
    if (!resize_count || (count && (!nodes || !frames || !resize)) || count > UINT32_MAX)
        return HT_E_INVALID_ARGUMENT;
    for (size_t i = 0; i < count; i++) {
        int32_t s;
        st = resolve(t, nodes[i], &s);
        if (st != HT_OK) return st;
        const double *f = frames + 4 * i;
        if (!all_finite(f, 4)) return HT_E_NOT_FINITE;
        if (t->parent[s] != p) continue; /* left alone: its center is never computed */
        double c[2];
        layout_center(t, s, f, c); /* finite, as the setter requires */
        if (!all_finite(c, 2)) return HT_E_NOT_FINITE;
    }
    size_t nr = 0;
    for (size_t i = 0; i < count; i++) {
        int32_t s = (int32_t)((uint32_t)nodes[i] & SLOT_MASK);
        if (t->parent[s] != p) continue;
        const double *f = frames + 4 * i;
        double w = t->bw[s], h = t->bh[s];
        if (!(w == f[2] && h == f[3])) {
            resize[nr++] = (uint32_t)i;
            continue;
        }
        /* The frame it has now is center - anchor * size: that frame already, no write. */
        if (t->cx[s] - t->anx[s] * w == f[0] && t->cy[s] - t->any[s] * h == f[1]) continue;
        double c[2];
        layout_center(t, s, f, c);
        write_f64(t, s, (const ht_field[]){F_cx, F_cy}, c, 2);
    }
    *resize_count = nr;
    return HT_OK;
}

ht_status ht_node_set_bounds(ht_tree *t, ht_node node, double x, double y, double w, double h) {
    return set_f64(t, node, (const ht_field[]){F_bx, F_by, F_bw, F_bh}, (const double[]){x, y, w, h}, 4);
}

ht_status ht_node_set_anchor(ht_tree *t, ht_node node, double x, double y) {
    return set_f64(t, node, (const ht_field[]){F_anx, F_any}, (const double[]){x, y}, 2);
}

ht_status ht_node_set_transform(ht_tree *t, ht_node node, const ht_affine *m) {
    int32_t s;
    ht_status st = begin_mutation(t, node, &s);
    if (st != HT_OK) return st;
    if (!m) return HT_E_INVALID_ARGUMENT;
    return set_f64(t, node, (const ht_field[]){F_xa, F_xb, F_xc, F_xd, F_xtx, F_xty},
                   (const double[]){m->a, m->b, m->c, m->d, m->tx, m->ty}, 6);
}

ht_status ht_node_set_alpha(ht_tree *t, ht_node node, double alpha) {
    return set_f64(t, node, (const ht_field[]){F_alpha}, (const double[]){alpha}, 1);
}

ht_status ht_node_set_insets(ht_tree *t, ht_node node, double top, double left, double bottom,
                             double right) {
    return set_f64(t, node, (const ht_field[]){F_in_top, F_in_left, F_in_bottom, F_in_right},
                   (const double[]){top, left, bottom, right}, 4);
}

ht_status ht_node_set_flags(ht_tree *t, ht_node node, uint32_t flags) {
    int32_t s;
    ht_status st = begin_mutation(t, node, &s);
    if (st != HT_OK) return st;
    if (flags & ~(uint32_t)HT_FLAG_ALL) return HT_E_INVALID_ARGUMENT;
    uint32_t old = t->flags[s];
    if ((old & PUBLIC_FLAGS) == flags) return HT_OK;
    change c = change_begin(t, s, FIELD_FX[F_flags]);
    t->flags[s] = (old & ~(uint32_t)PUBLIC_FLAGS) | flags;
    node_changed(t, c);
    return HT_OK;
}

ht_status ht_node_set_priority(ht_tree *t, ht_node node, int32_t priority) {
    int32_t s;
    ht_status st = begin_mutation(t, node, &s);
    if (st != HT_OK) return st;
    if (t->priority[s] == priority) return HT_OK;
    change c = change_begin(t, s, FIELD_FX[F_priority]);
    t->priority[s] = priority;
    node_changed(t, c);
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

/* The stored value of a field as the record holds it (flags: the public bits only). */
#define HT_RECORD_VALUE_I32(v) (v)
#define HT_RECORD_VALUE_F64(v) (v)
#define HT_RECORD_VALUE_FLAGS(v) ((v) & (uint32_t)PUBLIC_FLAGS)

ht_status ht_node_get_record(const ht_tree *t, ht_node node, ht_node_record *out) {
    int32_t s;
    ht_status st = resolve(t, node, &s);
    if (st != HT_OK) return st;
    if (!out) return HT_E_INVALID_ARGUMENT;
    ht_node_record r;
    memset(&r, 0, sizeof r);
#define HT_FIELD_RECORD(kind, name, def, rec, fx) r.rec = HT_RECORD_VALUE_##kind(t->name[s]);
    HT_STORED_FIELDS(HT_FIELD_RECORD)
#undef HT_FIELD_RECORD
    r.parent = t->parent[s] >= 0 ? make_handle(t, t->parent[s]) : HT_NULL_NODE;
    r.child_count = t->nkids[s];
    *out = r;
    return HT_OK;
}

const ht_rows *ht_tree_rows(const ht_tree *t) { return t ? &t->published : NULL; }

ht_status ht_node_get_geometry(const ht_tree *t, ht_node node, ht_node_geometry *out) {
    int32_t s;
    ht_status st = resolve(t, node, &s);
    if (st != HT_OK) return st;
    if (!out) return HT_E_INVALID_ARGUMENT;
    *out = (ht_node_geometry){
        .center_x = t->cx[s], .center_y = t->cy[s],
        .bounds_x = t->bx[s], .bounds_y = t->by[s], .bounds_w = t->bw[s], .bounds_h = t->bh[s],
        .anchor_x = t->anx[s], .anchor_y = t->any[s],
        .transform = {.a = t->xa[s], .b = t->xb[s], .c = t->xc[s], .d = t->xd[s], .tx = t->xtx[s], .ty = t->xty[s]},
    };
    return HT_OK;
}

/* ---- the whole tree ---- */

ht_status ht_tree_clone(ht_tree *t, ht_tree **out) {
    if (!t || !out) return HT_E_INVALID_ARGUMENT;
    if (htq_busy(t)) return HT_E_BUSY;
    ht_status st = ht_tree_prepare(t);
    if (st != HT_OK) return st;
    ht_tree *c = calloc(1, sizeof *c);
    if (!c) return HT_E_NO_MEMORY;
    c->free_head = c->free_tail = -1;
    if (htq_init(c) != HT_OK || htr_grow(c, t->capacity) != HT_OK) {
        ht_tree_destroy(c);
        return HT_E_NO_MEMORY;
    }
    size_t rows = (size_t)t->slots;
#define HT_ROW_OP(name) memcpy(c->name, t->name, rows * sizeof *t->name);
    HT_FOR_EACH_ROW
#undef HT_ROW_OP
    c->slots = t->slots;
    c->live = t->live;
    c->free_head = t->free_head;
    c->free_tail = t->free_tail;
    if (htq_clone(c, t) != HT_OK) {
        ht_tree_destroy(c);
        return HT_E_NO_MEMORY;
    }
    *out = c;
    return HT_OK;
}

ht_status ht_tree_memory_usage(const ht_tree *t, size_t *out) {
    if (!t || !out) return HT_E_INVALID_ARGUMENT;
    *out = sizeof *t + (htr_row_bytes() + htq_row_bytes()) * (size_t)t->capacity + htq_memory(t);
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
    }
    if (live != t->live) return HT_E_CORRUPT;
    int32_t freed = 0;
    for (int32_t s = t->free_head; s >= 0; s = t->next[s]) {
        if (t->alive[s] || ++freed > t->slots) return HT_E_CORRUPT;
    }
    if (freed + live != t->slots) return HT_E_CORRUPT;
    return htq_validate(t);
}
