/*
 * determined.c - ht_solver_is_determined: whether every optimal solution gives a variable the
 * same value (its row read at once, else the least and the greatest value probed).
 */
#include "solver.h"

/* A temporary row holding x's value in reduced form (definitions expanded); drop it after. */
static ht_status temp_expanded(ht_solver *s, int32_t x, int32_t *out) {
    int32_t r;
    ht_status st = hts_row_new(s, &r);
    if (st != HT_OK) return st;
    if ((st = hts_row_add_sym(s, r, x, 1.0)) != HT_OK || (st = hts_row_expand(s, r)) != HT_OK) {
        hts_row_drop(s, r);
        return st;
    }
    *out = r;
    return HT_OK;
}

/* One probe: optimizes dir * x at a level below every other; *value, or *unbounded. */
static ht_status probe(ht_solver *s, int32_t x, int32_t slot, double dir, double *value,
                       int *unbounded) {
    int32_t r;
    ht_status st = temp_expanded(s, x, &r);
    if (st != HT_OK) return st;
    for (int32_t j = 0; j < s->obj.stride; j++) s->vtmp[j] = 0.0;
    s->vtmp[slot] = dir;
    st = hts_obj_add_row(s, &s->obj, r, s->vtmp);
    hts_row_drop(s, r);
    s->probe_sym = x; /* a reinversion rebuilds the objective with this term */
    s->probe_slot = slot;
    s->probe_dir = dir;
    if (st == HT_OK) st = hts_optimize(s, &s->obj, s->ord, s->nord, unbounded);
    s->probe_sym = NO_SYM;
    hts_obj_clear_slot(&s->obj, slot);
    if (st != HT_OK) return st;
    *value = hts_sym_value(s, x);
    return HT_OK;
}

ht_status ht_solver_is_determined(ht_solver *s, ht_var v, bool *out) {
    if (!s || !out) return HT_E_INVALID_ARGUMENT;
    int32_t slot;
    ht_status st = hts_var_slot(s, v, &slot);
    if (st != HT_OK) return st;
    if ((st = hts_ensure(s, SETTLED)) != HT_OK) return st;
    if (s->vrefs[slot] == 0) {
        *out = false;
        return HT_OK;
    }
    int32_t x = s->vsym[slot];
    /* Settled at once: a basic variable whose row holds only symbols fixed at 0 in every
     * optimal solution (dummies, and restricted symbols whose cost is positive). */
    if (s->srow[x] >= 0) {
        int32_t r, fixed = 1;
        if ((st = temp_expanded(s, x, &r)) != HT_OK) {
            s->broken = 1;
            return st;
        }
        for (int32_t i = 0; i < s->rlen[r] && fixed; i++) {
            int32_t p = s->rsym[r][i];
            if (s->skind[p] == K_DUMMY) continue;
            if (restricted(s, p) && s->obj.pos[p] >= 0 &&
                hts_lex_sign(s->obj.vec + (size_t)s->obj.pos[p] * s->obj.stride, s->ord,
                             s->nord) > 0)
                continue;
            fixed = 0;
        }
        hts_row_drop(s, r);
        if (fixed) {
            *out = true;
            return HT_OK;
        }
    }
    /* Otherwise: the least and the greatest value over the optimal solutions. Parked
     * constraints are not in the tableau: the probes run with each one holding with room to
     * spare (a tight one enters first), and a probe that ends where one does not hold (or is
     * tight, for a direction without end) puts it in and starts again. */
    double lo = 0, hi = 0;
    int unb = 0;
    for (;;) {
        int moved = 0;
        int32_t failed = -1;
        if (s->nparked > 0 && (st = hts_settle(s, 1, &moved, &failed)) != HT_OK) {
            s->broken = 1;
            return st == HT_E_UNSATISFIABLE ? HT_E_CORRUPT : st;
        }
        if (moved) {
            if ((st = hts_ensure(s, SETTLED)) != HT_OK) return st;
            continue;
        }
        int32_t probe_slot;
        if ((st = hts_level_acquire(s, -1.0f, &probe_slot)) != HT_OK) return st;
        unb = 0;
        st = probe(s, x, probe_slot, 1.0, &lo, &unb);
        if (st == HT_OK && s->nparked > 0) st = hts_park_check(s, 1);
        if (st == HT_OK && s->nunp == 0 && !unb) {
            st = probe(s, x, probe_slot, -1.0, &hi, &unb);
            if (st == HT_OK && s->nparked > 0) st = hts_park_check(s, 1);
        }
        hts_level_release(s, probe_slot);
        s->ninfeas = 0;
        if (st != HT_OK) {
            s->broken = 1;
            return st;
        }
        if (s->nunp == 0) break;
        if ((st = hts_unpark_queued(s, &failed)) != HT_OK ||
            (st = hts_ensure(s, SETTLED)) != HT_OK) {
            s->broken = 1;
            return st == HT_E_UNSATISFIABLE ? HT_E_CORRUPT : st;
        }
    }
    *out = !unb && fabs(hi - lo) <= 1e-8 * (1.0 + fabs(lo));
    return HT_OK;
}
