/*
 * edits.c - edits of a constraint in place: its constant (incrementally, by the dual simplex
 * from the current solution: the suggestions of an edit variable) and its optional priority.
 */
#include "solver.h"

/* Shifts constraint k's constant by delta in the tableau (its marker absorbs it). Returns a
 * row of a redundant required equality that the shift made contradictory, or -1. */
static ht_status shift_constant(ht_solver *s, int32_t k, double delta, int32_t *dummy_row) {
    int32_t m = s->cmarker[k];
    double sh = delta / s->cmu[k];
    /* the size of the constraint's constants in the marker's units: what a residue is relative to */
    double size = (fabs(s->cconst[k]) + fabs(s->cconst[k] + delta)) / fabs(s->cmu[k]);
    *dummy_row = -1;
    ht_status st;
    if (s->srow[m] >= 0) {
        int32_t t = s->srow[m];
        double old = s->rconst[t];
        s->rconst[t] = const_snap(old, -sh);
        hts_touch_row(s, t);
        if (restricted(s, m) && s->rconst[t] < -EPS_FEAS &&
            (st = hts_push_infeasible(s, t)) != HT_OK)
            return st;
        if (s->skind[m] == K_DUMMY && !const_zero(s->rconst[t], fabs(old) + size)) *dummy_row = t;
        return HT_OK;
    }
    int32_t n = hts_col_clean(s, m);
    for (int32_t i = 0; i < n; i++) {
        int32_t t = s->col[m][i];
        double a = row_coef(s, t, m), old = s->rconst[t];
        s->rconst[t] = const_snap(old, a * sh);
        hts_touch_row(s, t);
        int32_t b = s->rbasic[t];
        if (restricted(s, b) && s->rconst[t] < -EPS_FEAS &&
            (st = hts_push_infeasible(s, t)) != HT_OK)
            return st;
        if (s->skind[b] == K_DUMMY && !const_zero(s->rconst[t], fabs(old) + fabs(a) * size) && *dummy_row < 0)
            *dummy_row = t;
    }
    return HT_OK;
}

/* After required constraint k's constant changed (from old) in the tableau: the parked
 * constraints settled; when one cannot enter, k gets its old constant back (the tableau is
 * rebuilt) and the call fails with that one and k in the conflict set. */
static ht_status settled_constant(ht_solver *s, int32_t k, double old) {
    ht_status st = hts_settle_required(s);
    if (st == HT_OK) return HT_OK;
    s->cconst[k] = old;
    s->broken = 1;
    if (st != HT_E_UNSATISFIABLE) return st;
    hts_conflict_add(s, k);
    ht_status rs = hts_rebuild(s);
    return rs == HT_E_NO_MEMORY ? rs : HT_E_UNSATISFIABLE;
}

ht_status ht_solver_set_constant(ht_solver *s, ht_constraint c, double constant) {
    if (!s) return HT_E_INVALID_ARGUMENT;
    int32_t k;
    ht_status st = hts_con_slot(s, c, &k);
    if (st != HT_OK) return st;
    if (!isfinite(constant)) return HT_E_NOT_FINITE;
    if (!constant_in_range(constant)) return HT_E_INVALID_ARGUMENT;
    double delta = constant - s->cconst[k];
    if (delta == 0.0) return HT_OK;
    /* The dual simplex needs an optimal tableau; a parked constraint is judged at values that
     * satisfy the other parked ones (settled). */
    if ((st = hts_ensure(s, s->cpark[k] ? SETTLED : OPTIMAL)) != HT_OK) return st;
    double old = s->cconst[k];
    if (s->cpark[k]) {
        /* Parked: it stays so while it holds; else it enters the tableau with its new constant,
         * or keeps the old one when that conflicts. */
        s->cconst[k] = constant;
        if (hts_con_holds(s, k, 0)) {
            hts_conflict_reset(s);
            return HT_OK;
        }
        hts_conflict_reset(s);
        st = hts_tab_add(s, k);
        s->ninfeas = 0;
        if (st == HT_OK) {
            hts_unpark(s, k);
            return settled_constant(s, k, old);
        }
        s->cconst[k] = old;
        if (st == HT_E_UNSATISFIABLE) {
            hts_conflict_add(s, k);
            if (s->broken && (st = hts_rebuild(s)) != HT_OK) return st;
            return HT_E_UNSATISFIABLE;
        }
        s->broken = 1;
        return st;
    }
    s->ninfeas = 0;
    int32_t drow = -1, frow = -1;
    st = shift_constant(s, k, delta, &drow);
    if (st == HT_OK && drow < 0) st = hts_dual_optimize(s, &frow);
    if (st == HT_OK && drow < 0) {
        s->cconst[k] = constant;
        s->ninfeas = 0;
        hts_conflict_reset(s);
        return is_required(s, k) ? settled_constant(s, k, old) : HT_OK;
    }
    if (st == HT_E_UNSATISFIABLE || drow >= 0) {
        int32_t row = drow >= 0 ? drow : frow;
        hts_conflict_reset(s);
        hts_conflict_add(s, k);
        hts_conflict_from_syms(s, s->rsym[row], s->rlen[row], s->rbasic[row], -1);
        /* Back to the old constant: the system was feasible with it. The dual pivots done
         * meanwhile may have left rows infeasible that only the shift back repairs, or not:
         * every restricted row is looked at again (seed 17964 of the edits kept an error
         * at -11.7 when only the marker's rows were). */
        s->ninfeas = 0;
        ht_status rs = shift_constant(s, k, -delta, &drow);
        s->ninfeas = 0;
        for (int32_t r = s->rhead; r >= 0 && rs == HT_OK; r = s->rnext[r])
            if (restricted(s, s->rbasic[r]) && s->rconst[r] < -EPS_FEAS)
                rs = hts_push_infeasible(s, r);
        if (rs == HT_OK) rs = hts_dual_optimize(s, &frow);
        s->ninfeas = 0;
        if (rs != HT_OK) {
            s->broken = 1;
            if (rs == HT_E_NO_MEMORY) return rs;
        }
        return HT_E_UNSATISFIABLE;
    }
    s->broken = 1;
    s->ninfeas = 0;
    return st;
}

ht_status ht_solver_set_priority(ht_solver *s, ht_constraint c, float priority) {
    if (!s) return HT_E_INVALID_ARGUMENT;
    int32_t k;
    ht_status st = hts_con_slot(s, c, &k);
    if (st != HT_OK) return st;
    if (!valid_priority(priority)) return HT_E_INVALID_ARGUMENT;
    if (priority == s->cprio[k]) return HT_OK;
    if (is_required(s, k) || priority >= HT_PRIORITY_REQUIRED) return HT_E_REQUIRED_PRIORITY;
    if ((st = hts_ensure(s, USABLE)) != HT_OK) return st;
    int32_t old = s->clevel[k], level;
    if ((st = hts_level_acquire(s, priority, &level)) != HT_OK) return st;
    int32_t syms[2] = {s->cmarker[k], s->cother[k]};
    for (int q = 0; q < 2; q++) {
        if (syms[q] < 0 || s->skind[syms[q]] != K_ERROR) continue;
        if ((st = hts_obj_add_level(s, syms[q], old, -s->cscale[k])) != HT_OK ||
            (st = hts_obj_add_level(s, syms[q], level, s->cscale[k])) != HT_OK) {
            s->broken = 1;
            hts_level_release(s, level);
            return st;
        }
    }
    s->clevel[k] = level;
    s->cprio[k] = priority;
    hts_level_release(s, old);
    s->pending = 1;
    return HT_OK;
}
