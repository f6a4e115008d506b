/*
 * validate.c - ht_solver_validate (the tableau's invariants and the solution against every
 * required constraint) and the tests' hooks of solver.h.
 */
#include "solver.h"

/* Whether live required constraint k fails to hold at the current values, beyond a tolerance
 * relative to the magnitude of its terms (validate and the tests' check). */
static bool required_violated(ht_solver *s, int32_t k) {
    double sum = s->cconst[k], mag = fabs(s->cconst[k]);
    for (int32_t i = 0; i < s->cn[k]; i++) {
        double t = s->ccoef[k][i] * hts_sym_value(s, s->vsym[s->cvars[k][i]]);
        sum += t;
        mag += fabs(t);
    }
    double tol = 1e-6 * (1.0 + mag);
    return (s->crel[k] == HT_REL_EQ && fabs(sum) > tol) || (s->crel[k] == HT_REL_LE && sum > tol) ||
           (s->crel[k] == HT_REL_GE && sum < -tol);
}

ht_status ht_solver_validate(ht_solver *s) {
    if (!s) return HT_E_INVALID_ARGUMENT;
    ht_status st = hts_ensure(s, SETTLED);
    if (st != HT_OK) return st;
    for (int32_t r = 0; r < s->nrow; r++) {
        if (!s->rlive[r]) continue;
        int32_t b = s->rbasic[r];
        if (b < 0 || b >= s->nsym || s->skind[b] == K_FREE || s->srow[b] != r) return HT_E_CORRUPT;
        if (restricted(s, b) && s->rconst[r] < -1e-6) return HT_E_CORRUPT;
        if (!isfinite(s->rconst[r])) return HT_E_CORRUPT;
        for (int32_t i = 0; i < s->rlen[r]; i++) {
            int32_t sym = s->rsym[r][i];
            if (sym < 0 || sym >= s->nsym || s->skind[sym] == K_FREE) return HT_E_CORRUPT;
            if (s->srow[sym] >= 0) { /* a definition may refer to older definitions only */
                if (s->skind[b] != K_EXT || s->skind[sym] != K_EXT) return HT_E_CORRUPT;
                if (s->rseq[s->srow[sym]] >= s->rseq[r]) return HT_E_CORRUPT;
            }
            if (!isfinite(s->rcoef[r][i])) return HT_E_CORRUPT;
            int found = 0;
            for (int32_t j = 0; j < s->coln[sym] && !found; j++) found = s->col[sym][j] == r;
            if (!found) return HT_E_CORRUPT;
            for (int32_t j = i + 1; j < s->rlen[r]; j++)
                if (s->rsym[r][j] == sym) return HT_E_CORRUPT;
        }
    }
    for (int32_t i = 0; i < s->obj.len; i++) {
        int32_t sym = s->obj.sym[i];
        if (s->skind[sym] == K_FREE || s->srow[sym] >= 0 || s->obj.pos[sym] != i)
            return HT_E_CORRUPT;
    }
    /* Every value is in the range. */
    for (int32_t v = 0; v < s->nvar; v++) {
        if (!s->vlive[v]) continue;
        double x = hts_sym_value(s, s->vsym[v]);
        if (!(fabs(x) <= HT_SOLVER_MAX_VALUE * (1.0 + 1e-9))) return HT_E_CORRUPT;
    }
    /* Every required constraint holds; optional ones' errors are non-negative. */
    for (int32_t k = 0; k < s->ncon; k++) {
        if (!s->clive[k] || !is_required(s, k)) continue;
        if (required_violated(s, k)) return HT_E_CORRUPT;
    }
    /* The values the evaluation program left (after an edit, only the rows it reached: program.c
     * run_edit) are its own evaluation of every row, to the bit, and no row is left pending. */
    hts_refresh_values(s);
    if (s->pg_ok && !s->vals_dirty) {
        const hts_program g = hts_program_of(s);
        for (int32_t p = 0; p < s->npg; p++) {
            double v = hts_eval_row(&g, p);
            if (memcmp(&v, &s->pg_val[p], sizeof v) != 0 || memcmp(&v, &s->rval[s->pg_row[p]], sizeof v) != 0)
                return HT_E_CORRUPT;
        }
        for (int32_t w = 0; w < (s->npg + 63) / 64; w++)
            if (s->pg_pend[w]) return HT_E_CORRUPT;
    }
    return HT_OK;
}

ht_status hts_test_check(ht_solver *s, double *maxcoef) {
    if (!s || s->broken) return HT_E_INVALID_ARGUMENT;
    double m = 0.0;
    ht_status st = HT_OK;
    for (int32_t r = s->rhead; r >= 0; r = s->rnext[r]) {
        double rm = hts_row_max(s, r);
        if (rm > m) m = rm;
        if (restricted(s, s->rbasic[r]) && s->rconst[r] < -1e-6) st = HT_E_CORRUPT;
    }
    if (maxcoef) *maxcoef = m;
    for (int32_t k = 0; k < s->ncon; k++) {
        if (!s->clive[k] || !is_required(s, k)) continue;
        if (required_violated(s, k)) st = HT_E_CORRUPT;
    }
    return st;
}

void hts_test_fail_allocation(ht_solver *s, long n) {
    if (s) s->fail_countdown = n > 0 ? n : 0;
}

void hts_test_counters(const ht_solver *s, long *pivots, long *rebuilds) {
    if (!s) return;
    if (pivots) *pivots = s->pivots;
    if (rebuilds) *rebuilds = s->rebuilds;
}

long hts_test_reinversions(const ht_solver *s) { return s ? s->reinversions : 0; }

long hts_test_work(const ht_solver *s) { return s ? s->work : 0; }

void hts_test_age_slots(ht_solver *s) {
    for (int32_t i = 0; i < s->nvfree; i++) s->vgen[s->vfree[i]] = GEN_MAX;
    for (int32_t i = 0; i < s->nfree_cons; i++) s->cgen[s->cfree[i]] = GEN_MAX;
}

ht_status hts_test_reinvert(ht_solver *s) {
    if (!s) return HT_E_INVALID_ARGUMENT;
    if (s->broken) return HT_OK;
    return hts_reinvert(s);
}
