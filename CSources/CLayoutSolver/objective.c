/*
 * objective.c - the lexicographic objective: a cell holds one coefficient per priority
 * level, compared in descending priority; and the levels themselves (one slot per distinct
 * optional priority in use).
 */
#include "solver.h"

ht_status hts_obj_cell(ht_solver *s, hts_obj *o, int32_t sym, int32_t *out) {
    int32_t i = o->pos[sym];
    if (i < 0) {
        if (o->len == o->cap) {
            int32_t cap = next_cap(o->cap, o->len + 1);
            GROW(s, o->sym, cap);
            GROW(s, o->vec, (size_t)cap * (size_t)o->stride);
            o->cap = cap;
        }
        i = o->len++;
        o->sym[i] = sym;
        for (int32_t j = 0; j < o->stride; j++) o->vec[(size_t)i * o->stride + j] = 0.0;
        o->pos[sym] = i;
    }
    *out = i;
    return HT_OK;
}

void hts_obj_remove_at(hts_obj *o, int32_t i) {
    int32_t last = --o->len;
    o->pos[o->sym[i]] = -1;
    if (i != last) {
        o->sym[i] = o->sym[last];
        memcpy(o->vec + (size_t)i * o->stride, o->vec + (size_t)last * o->stride,
               sizeof(double) * (size_t)o->stride);
        o->pos[o->sym[i]] = i;
    }
}

/* Snaps components this small to exactly 0 (so that a lexicographic sign never depends on a
 * rounding residue that a later division could enlarge); whether all of them are 0. */
static int vec_snap(double *v, int32_t n) {
    int zero = 1;
    for (int32_t j = 0; j < n; j++) {
        if (fabs(v[j]) > EPS)
            zero = 0;
        else
            v[j] = 0.0;
    }
    return zero;
}

static void obj_prune(hts_obj *o, int32_t i) {
    if (vec_snap(o->vec + (size_t)i * o->stride, o->stride)) hts_obj_remove_at(o, i);
}

/* Objective += v * row r. */
ht_status hts_obj_add_row(ht_solver *s, hts_obj *o, int32_t r, const double *v) {
    int32_t stride = o->stride;
    for (int32_t j = 0; j < stride; j++) o->cst[j] = const_snap(o->cst[j], v[j] * s->rconst[r]);
    for (int32_t k = 0, n = s->rlen[r]; k < n; k++) {
        int32_t i;
        ht_status st = hts_obj_cell(s, o, s->rsym[r][k], &i);
        if (st != HT_OK) return st;
        double c = s->rcoef[r][k];
        double *d = o->vec + (size_t)i * stride;
        for (int32_t j = 0; j < stride; j++) d[j] = sum_snap(d[j], c * v[j]);
        obj_prune(o, i);
    }
    return HT_OK;
}

/* Objective += v * sym (its row if it is basic). */
ht_status hts_obj_add_term(ht_solver *s, hts_obj *o, int32_t sym, const double *v) {
    if (s->srow[sym] >= 0) return hts_obj_add_row(s, o, s->srow[sym], v);
    int32_t i;
    ht_status st = hts_obj_cell(s, o, sym, &i);
    if (st != HT_OK) return st;
    double *d = o->vec + (size_t)i * o->stride;
    for (int32_t j = 0; j < o->stride; j++) d[j] = sum_snap(d[j], v[j]);
    obj_prune(o, i);
    return HT_OK;
}

/* Objective += c * sym at level slot `slot` alone. */
ht_status hts_obj_add_level(ht_solver *s, int32_t sym, int32_t slot, double c) {
    for (int32_t j = 0; j < s->obj.stride; j++) s->vtmp[j] = 0.0;
    s->vtmp[slot] = c;
    return hts_obj_add_term(s, &s->obj, sym, s->vtmp);
}

void hts_obj_clear_slot(hts_obj *o, int32_t slot) {
    o->cst[slot] = 0.0;
    for (int32_t i = o->len - 1; i >= 0; i--) {
        o->vec[(size_t)i * o->stride + slot] = 0.0;
        obj_prune(o, i);
    }
}

void hts_obj_clear(hts_obj *o) {
    for (int32_t i = 0; i < o->len; i++) o->pos[o->sym[i]] = -1;
    o->len = 0;
    for (int32_t j = 0; j < o->stride; j++) o->cst[j] = 0.0;
}

/* The sign of v in lexicographic order over `ord`. */
int hts_lex_sign(const double *v, const int32_t *ord, int32_t nord) {
    for (int32_t k = 0; k < nord; k++) {
        double x = v[ord[k]];
        if (x > EPS) return 1;
        if (x < -EPS) return -1;
    }
    return 0;
}

/* Compares v / a with w / b (a, b > 0) lexicographically; NULL is the zero vector. */
int hts_lex_cmp_ratio(const double *v, double a, const double *w, double b, const int32_t *ord,
                         int32_t nord) {
    for (int32_t k = 0; k < nord; k++) {
        double x = v ? v[ord[k]] / a : 0.0, y = w ? w[ord[k]] / b : 0.0;
        if (x < y - EPS) return -1;
        if (x > y + EPS) return 1;
    }
    return 0;
}

/* ---- priority levels ---- */

static void levels_sort(ht_solver *s) {
    s->nord = 0;
    for (int32_t i = 0; i < s->nlvl; i++) {
        if (s->lref[i] <= 0) continue;
        int32_t k = s->nord++;
        while (k > 0 && s->lprio[s->ord[k - 1]] < s->lprio[i]) {
            s->ord[k] = s->ord[k - 1];
            k--;
        }
        s->ord[k] = i;
    }
}

ht_status hts_grow_stride(ht_solver *s, int32_t need) {
    hts_obj *o = &s->obj;
    if (need <= o->stride) return HT_OK;
    int32_t ns = o->stride < 4 ? 4 : o->stride;
    while (ns < need) ns *= 2;
    GROW(s, s->lprio, ns);
    GROW(s, s->lref, ns);
    GROW(s, s->ord, ns);
    GROW(s, s->vtmp, ns);
    GROW(s, s->vtmp2, ns);
    GROW(s, o->cst, ns);
    double *nv = xrealloc(s, NULL, sizeof(double) * (size_t)(o->cap > 0 ? o->cap : 1) * (size_t)ns);
    if (!nv) return HT_E_NO_MEMORY;
    for (int32_t i = 0; i < o->len; i++) {
        for (int32_t j = 0; j < ns; j++)
            nv[(size_t)i * ns + j] = j < o->stride ? o->vec[(size_t)i * o->stride + j] : 0.0;
    }
    for (int32_t j = o->stride; j < ns; j++) {
        o->cst[j] = 0.0;
        s->lref[j] = 0;
        s->lprio[j] = 0.0f;
    }
    free(o->vec);
    o->vec = nv;
    o->stride = ns;
    return HT_OK;
}

/* The level slot for priority p (a new one if none has it), its count incremented. */
ht_status hts_level_acquire(ht_solver *s, float p, int32_t *out) {
    int32_t free_slot = -1;
    for (int32_t i = 0; i < s->nlvl; i++) {
        if (s->lref[i] > 0 && s->lprio[i] == p) {
            s->lref[i]++;
            *out = i;
            return HT_OK;
        }
        if (s->lref[i] <= 0 && free_slot < 0) free_slot = i;
    }
    if (free_slot < 0) {
        ht_status st = hts_grow_stride(s, s->nlvl + 1);
        if (st != HT_OK) return st;
        free_slot = s->nlvl++;
    }
    s->lprio[free_slot] = p;
    s->lref[free_slot] = 1;
    levels_sort(s);
    *out = free_slot;
    return HT_OK;
}

void hts_level_release(ht_solver *s, int32_t slot) {
    if (--s->lref[slot] > 0) return;
    s->lref[slot] = 0;
    hts_obj_clear_slot(&s->obj, slot);
    levels_sort(s);
}
