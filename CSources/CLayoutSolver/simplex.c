/*
 * simplex.c - pivoting, the primal simplex (Bland's rule, small pivots avoided, a
 * reinversion when rounding is suspect) and the dual simplex that restores feasibility after an
 * edit of constants.
 */
#include "solver.h"

/* Replaces sym (now basic in row r) by its row everywhere else: rows and objectives. */
ht_status hts_substitute(ht_solver *s, int32_t sym, int32_t r) {
    ht_status st = HT_OK;
    int32_t n = hts_col_clean(s, sym);
    const int32_t *c = s->col[sym];
    for (int32_t k = 0; k < n; k++) {
        int32_t t = c[k];
        if (t == r) continue;
        int32_t i = row_find(s, t, sym);
        if (i < 0) continue;
        double a = s->rcoef[t][i];
        row_remove_at(s, t, i);
        st = hts_row_add_row(s, t, r, a);
        if (st != HT_OK) return st;
        hts_touch_row(s, t);
        int32_t b = s->rbasic[t];
        if (b >= 0 && restricted(s, b) && s->rconst[t] < -EPS_FEAS) {
            st = hts_push_infeasible(s, t);
            if (st != HT_OK) return st;
        }
    }
    s->coln[sym] = 0;
    hts_obj *objs[2] = {&s->obj, s->art_active ? &s->art : NULL};
    for (int q = 0; q < 2; q++) {
        hts_obj *o = objs[q];
        if (!o) continue;
        int32_t i = o->pos[sym];
        if (i < 0) continue;
        double *v = s->vtmp2;
        memcpy(v, o->vec + (size_t)i * o->stride, sizeof(double) * (size_t)o->stride);
        hts_obj_remove_at(o, i);
        st = hts_obj_add_row(s, o, r, v);
        if (st != HT_OK) return st;
    }
    return HT_OK;
}

/* Row t (basic b) pivots: `entering` becomes its basic symbol, b parametric. */
ht_status hts_pivot(ht_solver *s, int32_t t, int32_t entering) {
    int32_t b = s->rbasic[t];
    ht_status st = hts_row_add_sym(s, t, b, -1.0);
    if (st != HT_OK) return st;
    hts_row_solve_for(s, t, entering);
    if (hts_row_max(s, t) > GROWTH) s->suspect = 1;
    s->srow[b] = -1;
    s->rbasic[t] = entering;
    s->srow[entering] = t;
    s->pivots++;
    /* A restricted symbol entering changes constants only (its row is reduced: no definition
     * gains or loses a reference); an external one changes which rows are definitions. */
    if (s->skind[entering] == K_EXT || s->skind[b] == K_EXT)
        s->vals_dirty = 1;
    else
        hts_touch_row(s, t);
    return hts_substitute(s, entering, t);
}

/* A restricted row's constant as the ratio test reads it: negative or a residue of
 * cancellation (at most EPS_RATIO) is 0, so that a residue over a small pivot does not make
 * a degenerate row look like a real step. */
static inline double ratio_const(double c) { return c <= EPS_RATIO ? 0.0 : c; }

/* The primal ratio test for `entering` moving in direction dir: the minimum ratio, ties to
 * the lowest-numbered basic symbol (Bland's). Only when that pivot is small beside its row's
 * largest cell (PIVOT_SMALL: a coefficient that rounding left just above EPS; pivoting on it
 * would blow the numbers up) does it give way to the largest pivot among the rows whose ratio
 * is within RATIO_TIE of the minimum once residues of cancellation in their constants count
 * as 0. Returns the leaving row (-1: unbounded); *small when no acceptable pivot was found.
 * With snap (a long run of pivots: rounding may have broken the ties Bland's rule relies on,
 * and degenerate pivots cycle), the minimum ratio itself reads residues as 0 and ties are
 * relative. */
static int32_t ratio_test(ht_solver *s, int32_t entering, int dir, int snap, int *small) {
    int32_t n = hts_col_clean(s, entering);
    const int32_t *c = s->col[entering];
    int32_t leave = -1;
    double best = 0.0;
    *small = 0;
    for (int32_t k = 0; k < n; k++) {
        int32_t t = c[k];
        int32_t b = s->rbasic[t];
        if (b < 0 || !restricted(s, b)) continue;
        double a = row_coef(s, t, entering) * dir;
        if (a >= -EPS) continue;
        double ratio, tie;
        if (snap) {
            ratio = ratio_const(s->rconst[t]) / -a;
            tie = RATIO_TIE * (1.0 + best);
        } else {
            ratio = s->rconst[t] < 0 ? 0.0 : s->rconst[t] / -a;
            tie = 1e-12;
        }
        if (leave < 0 || ratio < best - tie || (ratio <= best + tie && b < s->rbasic[leave])) {
            leave = t;
            best = ratio;
        }
    }
    if (leave < 0) return -1;
    double a0 = -row_coef(s, leave, entering) * dir;
    if (a0 >= PIVOT_SMALL * hts_row_max(s, leave)) return leave;
    s->suspect = 1;
    /* a small pivot: the largest among the near-ties instead, if that one is not small */
    double lim = ratio_const(s->rconst[leave]) / a0;
    lim += RATIO_TIE * (1.0 + lim);
    int32_t big = leave;
    double amax = a0;
    for (int32_t k = 0; k < n; k++) {
        int32_t t = c[k];
        int32_t b = s->rbasic[t];
        if (b < 0 || !restricted(s, b)) continue;
        double a = row_coef(s, t, entering) * dir;
        if (a >= -EPS || ratio_const(s->rconst[t]) / -a > lim) continue;
        if (-a > amax) {
            amax = -a;
            big = t;
        }
    }
    *small = amax < PIVOT_SMALL * hts_row_max(s, big);
    return big;
}

/* Whether a reinversion may run now: not during an artificial phase, and not again before
 * REINVERT_EVERY pivots (a suspicion that survives a reinversion is not a residue). */
static int may_reinvert(const ht_solver *s) {
    return !s->art_active && s->pivots - s->reinvert_at >= REINVERT_EVERY;
}

/* Whether the deciding component of a cost vector lies between EPS and GRAY: too small to
 * trust after many pivots (a residue of cancellation would look like this). */
static int cost_gray(const double *v, const int32_t *ord, int32_t nord) {
    for (int32_t k = 0; k < nord; k++) {
        double x = fabs(v[ord[k]]);
        if (x > EPS) return x < GRAY;
    }
    return 0;
}

/* Primal simplex on objective o (levels ord): minimizes it. *unbounded when a direction
 * lowers it without end (then nothing was changed in that last step). The entering symbol is
 * Bland's (the lowest-numbered with a lexicographically negative reduced cost), except that
 * one whose pivot would be small (ratio_test) gives way to the next, if any. */
ht_status hts_optimize(ht_solver *s, hts_obj *o, const int32_t *ord, int32_t nord,
                          int *unbounded) {
    long guard = 0, limit = 1000 + 50L * ((long)s->nlive_rows + (long)s->nsym);
    if (unbounded) *unbounded = 0;
    for (;;) {
        if (++guard > limit) {
            return HT_E_CORRUPT;
        }
        if (s->suspect && o == &s->obj && may_reinvert(s)) {
            ht_status rs = hts_reinvert(s);
            if (rs != HT_OK) return rs;
        }
        s->suspect = 0;
        int32_t entering = -1, leave = -1, after = -1, first = -1, first_leave = -1;
        int dir = 0;
        for (;;) {
            entering = -1;
            for (int32_t i = 0; i < o->len; i++) {
                int32_t sym = o->sym[i];
                int kind = s->skind[sym];
                if (kind == K_DUMMY || sym <= after) continue;
                if (entering >= 0 && sym > entering) continue;
                int sg = hts_lex_sign(o->vec + (size_t)i * o->stride, ord, nord);
                if (kind == K_EXT) {
                    if (sg == 0) continue;
                    entering = sym;
                    dir = -sg;
                } else if (sg < 0) {
                    entering = sym;
                    dir = 1;
                }
            }
            if (entering < 0) break;
            if (o == &s->obj && cost_gray(o->vec + (size_t)o->pos[entering] * o->stride, ord, nord))
                s->suspect = 1;
            int small = 0;
            leave = ratio_test(s, entering, dir, guard > limit / 2, &small);
            if (s->suspect && o == &s->obj && may_reinvert(s)) break; /* recompute, then choose */
            if (leave >= 0 ? !small : first < 0) break; /* unbounded: only as Bland's */
            if (first < 0) {
                first = entering;
                first_leave = leave;
            }
            after = entering;
        }
        if (s->suspect && o == &s->obj && may_reinvert(s)) continue;
        if (entering < 0) {
            if (first < 0) return HT_OK;
            entering = first; /* only small pivots: the first after all */
            leave = first_leave;
            dir = s->skind[entering] == K_EXT
                      ? -hts_lex_sign(o->vec + (size_t)o->pos[entering] * o->stride, ord, nord)
                      : 1;
        }
        if (leave < 0) {
            if (unbounded) *unbounded = 1;
            return HT_OK;
        }
        ht_status st = hts_pivot(s, leave, entering);
        if (st != HT_OK) return st;
    }
}

/* Dual simplex on the real objective: restores feasibility (the rows in s->infeas whose
 * restricted basic went negative) keeping optimality. HT_E_UNSATISFIABLE with *failrow set
 * when a row cannot be made feasible. */
ht_status hts_dual_optimize(ht_solver *s, int32_t *failrow) {
    long guard = 0, limit = 1000 + 50L * ((long)s->nlive_rows + (long)s->nsym);
    hts_obj *o = &s->obj;
    for (;;) {
        if (++guard > limit) return HT_E_CORRUPT;
        int32_t leave = -1, w = 0;
        for (int32_t k = 0; k < s->ninfeas; k++) {
            int32_t t = s->infeas[k];
            if (!s->rlive[t]) continue;
            int32_t b = s->rbasic[t];
            if (b < 0 || !restricted(s, b) || s->rconst[t] >= -EPS_FEAS) continue;
            s->infeas[w++] = t;
            if (leave < 0 || b < s->rbasic[leave]) leave = t;
        }
        s->ninfeas = w;
        if (leave < 0) return HT_OK;
        int32_t entering = -1;
        double ea = 0.0;
        const double *ev = NULL;
        for (int32_t k = 0, n = s->rlen[leave]; k < n; k++) {
            int32_t sym = s->rsym[leave][k];
            double a = s->rcoef[leave][k];
            int kind = s->skind[sym];
            if (kind == K_DUMMY) continue;
            if (kind == K_EXT) {
                if (fabs(a) <= EPS) continue;
                a = fabs(a);
            } else if (a <= EPS) {
                continue;
            }
            const double *v = o->pos[sym] >= 0 ? o->vec + (size_t)o->pos[sym] * o->stride : NULL;
            int cmp = entering < 0 ? -1 : hts_lex_cmp_ratio(v, a, ev, ea, s->ord, s->nord);
            if (cmp < 0 || (cmp == 0 && sym < entering)) {
                entering = sym;
                ea = a;
                ev = v;
            }
        }
        if (entering < 0) {
            if (failrow) *failrow = leave;
            return HT_E_UNSATISFIABLE;
        }
        ht_status st = hts_pivot(s, leave, entering);
        if (st != HT_OK) return st;
    }
}
