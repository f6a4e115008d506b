/*
 * constraints.c - handles (slot and generation), constraint records and range bounds (their
 * slots, allocation and release), and the conflict set of the last refused change.
 */
#include "solver.h"

ht_status hts_var_slot(const ht_solver *s, ht_var v, int32_t *out) {
    if (v < 0) return HT_E_BAD_HANDLE;
    int32_t slot = HANDLE_SLOT(v);
    if (slot >= s->nvar || !s->vlive[slot] || s->vgen[slot] != HANDLE_GEN(v)) return HT_E_BAD_HANDLE;
    *out = slot;
    return HT_OK;
}

ht_status hts_con_slot(const ht_solver *s, ht_constraint c, int32_t *out) {
    if (c < 0) return HT_E_BAD_HANDLE;
    int32_t slot = HANDLE_SLOT(c);
    if (slot >= s->ncon || !s->clive[slot] || s->cbnd[slot] || s->cgen[slot] != HANDLE_GEN(c))
        return HT_E_BAD_HANDLE;
    *out = slot;
    return HT_OK;
}

/* A free constraint record slot with room for n terms (hts_con_commit takes it). */
ht_status hts_con_alloc(ht_solver *s, size_t n, int32_t *out) {
    int32_t k;
    if (s->nfree_cons > 0) {
        k = s->cfree[s->nfree_cons - 1];
    } else {
        if (s->ncon >= HT_SOLVER_MAX_HANDLES) return HT_E_CAPACITY;
        if (s->ncon == s->concap) {
            int32_t cap = next_cap(s->concap, s->ncon + 1);
            GROW(s, s->cgen, cap);
            GROW(s, s->clive, cap);
            GROW(s, s->crel, cap);
            GROW(s, s->cprio, cap);
            GROW(s, s->cconst, cap);
            GROW(s, s->cmu, cap);
            GROW(s, s->cn, cap);
            GROW(s, s->clevel, cap);
            GROW(s, s->cmarker, cap);
            GROW(s, s->cother, cap);
            GROW(s, s->cvars, cap);
            GROW(s, s->ccoef, cap);
            GROW(s, s->cfree, cap);
            GROW(s, s->cpark, cap);
            GROW(s, s->cppos, cap);
            GROW(s, s->cscale, cap);
            GROW(s, s->cbnd, cap);
            for (int32_t i = s->concap; i < cap; i++) {
                s->cvars[i] = NULL;
                s->ccoef[i] = NULL;
                s->clive[i] = 0;
                s->cgen[i] = 0;
                s->cpark[i] = 0;
                s->cppos[i] = NULL;
                s->cbnd[i] = 0;
            }
            s->concap = cap;
        }
        k = s->ncon;
    }
    int32_t *cv = xrealloc(s, s->cvars[k], sizeof(int32_t) * (n ? n : 1));
    if (!cv) return HT_E_NO_MEMORY;
    s->cvars[k] = cv;
    double *cc = xrealloc(s, s->ccoef[k], sizeof(double) * (n ? n : 1));
    if (!cc) return HT_E_NO_MEMORY;
    s->ccoef[k] = cc;
    *out = k;
    return HT_OK;
}

/* Takes the slot hts_con_alloc returned. */
void hts_con_commit(ht_solver *s, int32_t k) {
    if (s->nfree_cons > 0 && s->cfree[s->nfree_cons - 1] == k)
        s->nfree_cons--;
    else
        s->ncon++;
}

/* Frees constraint record k (its tableau part must be gone). */
void hts_con_release(ht_solver *s, int32_t k) {
    if (s->cbnd[k]) {
        hts_bound_release(s, k);
        return;
    }
    for (int32_t i = 0; i < s->cn[k]; i++) s->vrefs[s->cvars[k][i]]--;
    if (s->clevel[k] >= 0) hts_level_release(s, s->clevel[k]);
    s->clevel[k] = -1;
    s->clive[k] = 0;
    if (s->cgen[k] < GEN_MAX) { /* else retired: the slot is never reused */
        s->cgen[k]++;
        s->cfree[s->nfree_cons++] = k;
    }
    s->nlive_cons--;
}

/* A range bound on variable slot v (value <= HT_SOLVER_MAX_VALUE, or >= its negative): a
 * required record, internal (no handle, not counted), not yet in the tableau. */
ht_status hts_bound_new(ht_solver *s, int32_t v, int upper, int32_t *out) {
    int32_t k;
    ht_status st = hts_con_alloc(s, 1, &k);
    if (st != HT_OK) return st;
    hts_con_commit(s, k);
    s->cvars[k][0] = v;
    s->ccoef[k][0] = 1.0;
    s->cn[k] = 1;
    s->crel[k] = (int8_t)(upper ? HT_REL_LE : HT_REL_GE);
    s->cprio[k] = HT_PRIORITY_REQUIRED;
    s->cconst[k] = upper ? -HT_SOLVER_MAX_VALUE : HT_SOLVER_MAX_VALUE;
    s->cscale[k] = 1.0;
    s->cmu[k] = 1.0;
    s->clevel[k] = -1;
    s->cmarker[k] = NO_SYM;
    s->cother[k] = NO_SYM;
    s->clive[k] = 1;
    s->cpark[k] = 0;
    s->cbnd[k] = 1;
    s->vbnd[2 * v + !upper] = k;
    *out = k;
    return HT_OK;
}

/* Frees range bound record k (its tableau part must be gone). */
void hts_bound_release(ht_solver *s, int32_t k) {
    int32_t v = s->cvars[k][0];
    s->vbnd[2 * v + (s->crel[k] == HT_REL_GE)] = -1;
    s->cbnd[k] = 0;
    s->clive[k] = 0;
    if (s->cgen[k] < GEN_MAX) {
        s->cgen[k]++;
        s->cfree[s->nfree_cons++] = k;
    }
}

/* ---- conflicts: the required constraints a refused change contradicts ---- */

void hts_conflict_reset(ht_solver *s) {
    s->nconf = 0;
    s->conf_range = -1;
}

void hts_conflict_add(ht_solver *s, int32_t k) {
    if (k < 0 || k >= s->ncon || !s->clive[k] || !is_required(s, k)) return;
    if (s->cbnd[k]) { /* a range bound: its variable */
        if (s->conf_range < 0) s->conf_range = s->cvars[k][0];
        return;
    }
    ht_constraint h = con_handle(s, k);
    for (int32_t i = 0; i < s->nconf; i++)
        if (s->conf[i] == h) return;
    if (s->nconf == s->confcap) {
        int32_t cap = next_cap(s->confcap, s->nconf + 1);
        ht_constraint *p = xrealloc(s, s->conf, sizeof(ht_constraint) * (size_t)cap);
        if (!p) return; /* the conflict set is best effort when memory is short */
        s->conf = p;
        s->confcap = cap;
    }
    s->conf[s->nconf++] = h;
}

void hts_conflict_remove(ht_solver *s, int32_t k) {
    ht_constraint h = con_handle(s, k);
    int32_t w = 0;
    for (int32_t i = 0; i < s->nconf; i++)
        if (s->conf[i] != h) s->conf[w++] = s->conf[i];
    s->nconf = w;
}

/* The required constraints whose markers are in the cells (and the basic symbol). */
void hts_conflict_from_syms(ht_solver *s, const int32_t *syms, int32_t n, int32_t basic,
                               int32_t skip) {
    for (int32_t i = -1; i < n; i++) {
        int32_t sym = i < 0 ? basic : syms[i];
        if (sym < 0) continue;
        int kind = s->skind[sym];
        if (kind != K_DUMMY && kind != K_SLACK) continue;
        if (s->sowner[sym] != skip) hts_conflict_add(s, s->sowner[sym]);
    }
}

/* Constraint k's row made a cell beyond GROWTH_LIMIT: two variables related by such a factor
 * cannot both be in the range unless one is 0 to within rounding. Refused as a conflict with
 * the range of the variable whose row grew, with the constraints in that row. */
void hts_growth_conflict(ht_solver *s, int32_t k, int keep) {
    int32_t r = s->growth_row, v = -1, g = s->growth_sym;
    if (!keep) hts_conflict_reset(s); /* else the failed addition's conflict set stays */
    if (g >= 0 && g < s->nsym && s->skind[g] == K_EXT) v = s->sowner[g];
    if (r >= 0 && r < s->nrow && s->rlive[r]) {
        if (!keep) hts_conflict_from_syms(s, s->rsym[r], s->rlen[r], s->rbasic[r], k);
        int32_t b = s->rbasic[r];
        if (b >= 0 && s->skind[b] == K_EXT) v = s->sowner[b];
        for (int32_t i = 0; i < s->rlen[r] && v < 0; i++)
            if (s->skind[s->rsym[r][i]] == K_EXT) v = s->sowner[s->rsym[r][i]];
    }
    if (v < 0 && s->cn[k] > 0) v = s->cvars[k][0];
    hts_conflict_remove(s, k);
    s->conf_range = v;
}
