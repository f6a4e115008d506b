/*
 * parking.c - parked required inequalities and the range of every value: checked against the
 * values as they change, entering the tableau when they stop holding; `hts_ensure` brings the
 * tableau to the state a call needs.
 */
#include "solver.h"

/*
 * A required inequality that holds at the current values when it is added is parked: kept out
 * of the tableau, indexed by its variables, and checked whenever one of their values changes.
 * The tableau then solves a relaxation of the system, whose optimum is the whole system's as
 * long as every parked constraint holds there (the whole system's feasible set lies inside the
 * relaxation's). One that stops holding is put into the tableau (unparked) and the solve goes
 * on from there. A required addition or constant change checks at once, so that a conflict
 * with a parked constraint is refused then, as any other; the other changes are checked at the
 * next solve. Without parking, an inactive inequality per view on a chain of definitions
 * (`top >= superview.top` on views stacked one below the other) was expanded into the tableau
 * in reduced form, whose length is the chain's: O(N^2) cells for N views.
 */

#define PARK_REL 1e-12 /* a parked constraint holds within this, relative to its terms... */
#define PARK_ABS 1e-9  /* ...plus this */

/* Constraint k's expression (terms and constant) at the current values (fresh), and the
 * magnitude of its terms. */
static double con_residual(const ht_solver *s, int32_t k, double *mag) {
    double sum = s->cconst[k], m = fabs(sum);
    for (int32_t i = 0; i < s->cn[k]; i++) {
        int32_t r = s->srow[s->vsym[s->cvars[k][i]]];
        double t = s->ccoef[k][i] * (r >= 0 ? s->rval[r] : 0.0);
        sum += t;
        m += fabs(t);
    }
    *mag = m;
    return sum;
}

/* Whether inequality k holds at the current values; strict: with room to spare (a constraint
 * that is tight might stop a direction at once). */
int hts_con_holds(const ht_solver *s, int32_t k, int strict) {
    double mag, r = con_residual(s, k, &mag);
    double tol = PARK_ABS + PARK_REL * mag;
    if (s->crel[k] == HT_REL_LE) r = -r;
    return strict ? r > tol : r >= -tol;
}

/* Parks constraint k (a live record out of the tableau): its terms into their variables'
 * lists. On HT_E_NO_MEMORY nothing is parked. */
ht_status hts_park(ht_solver *s, int32_t k) {
    int32_t n = s->cn[k];
    int32_t *pos = xrealloc(s, s->cppos[k], sizeof(int32_t) * (size_t)(n ? n : 1));
    if (!pos) return HT_E_NO_MEMORY;
    s->cppos[k] = pos;
    for (int32_t i = 0; i < n; i++) {
        int32_t v = s->cvars[k][i];
        if (s->vpkn[v] + 2 > s->vpkcap[v]) {
            int32_t cap = next_cap(s->vpkcap[v], s->vpkn[v] + 2);
            int32_t *a = xrealloc(s, s->vpk[v], sizeof(int32_t) * (size_t)cap);
            if (!a) {
                while (i-- > 0) s->vpkn[s->cvars[k][i]] -= 2; /* the entries just added: last */
                return HT_E_NO_MEMORY;
            }
            s->vpk[v] = a;
            s->vpkcap[v] = cap;
        }
        pos[i] = s->vpkn[v];
        s->vpk[v][s->vpkn[v]++] = k;
        s->vpk[v][s->vpkn[v]++] = i;
    }
    s->cpark[k] = 1;
    s->nparked++;
    return HT_OK;
}

/* Takes constraint k out of the parking (its record stays). */
void hts_unpark(ht_solver *s, int32_t k) {
    for (int32_t i = s->cn[k] - 1; i >= 0; i--) {
        int32_t v = s->cvars[k][i], at = s->cppos[k][i], last = s->vpkn[v] - 2;
        int32_t *a = s->vpk[v];
        if (at != last) {
            a[at] = a[last];
            a[at + 1] = a[last + 1];
            s->cppos[a[at]][a[at + 1]] = at;
        }
        s->vpkn[v] = last;
    }
    s->cpark[k] = 0;
    s->nparked--;
}

static ht_status unp_push(ht_solver *s, int32_t k) {
    if (s->nunp == s->unpcap) {
        int32_t cap = next_cap(s->unpcap, s->nunp + 1);
        GROW(s, s->unp, cap);
        s->unpcap = cap;
    }
    s->unp[s->nunp++] = k;
    return HT_OK;
}

/* Queues what variable slot v's value breaks: the parked constraints on v that do not hold
 * (strict: that are not satisfied with room to spare), and its range bound (a new record) when
 * the value is beyond HT_SOLVER_MAX_VALUE (strict: or at it). */
static ht_status check_var(ht_solver *s, int32_t v, int strict) {
    ht_status st;
    const int32_t *a = s->vpk[v];
    for (int32_t j = 0, n = s->vpkn[v]; j < n; j += 2) {
        int32_t k = a[j];
        if (s->cpark[k] != 1 || hts_con_holds(s, k, strict)) continue;
        if ((st = unp_push(s, k)) != HT_OK) return st;
        s->cpark[k] = 2;
    }
    int32_t r = s->srow[s->vsym[v]];
    double x = r >= 0 ? s->rval[r] : 0.0;
    double tol = PARK_ABS + PARK_REL * HT_SOLVER_MAX_VALUE;
    for (int upper = 1; upper >= 0; upper--) {
        double beyond = upper ? x - HT_SOLVER_MAX_VALUE : -HT_SOLVER_MAX_VALUE - x;
        if (s->vbnd[2 * v + !upper] >= 0 || (strict ? beyond < -tol : beyond <= tol)) continue;
        int32_t k;
        if ((st = unp_push(s, -1)) != HT_OK || (st = hts_bound_new(s, v, upper, &k)) != HT_OK) {
            if (st != HT_OK && s->nunp > 0 && s->unp[s->nunp - 1] == -1) s->nunp--;
            return st;
        }
        s->unp[s->nunp - 1] = k;
    }
    return HT_OK;
}

/* The parked constraints that stopped holding since the last check (every one with strict,
 * or after a full recomputation of the values) into s->unp. */
ht_status hts_park_check(ht_solver *s, int strict) {
    ht_status st = HT_OK;
    s->nunp = 0;
    hts_refresh_values(s);
    if (strict) {
        for (int32_t v = 0; v < s->nvar && st == HT_OK; v++)
            if (s->vlive[v]) st = check_var(s, v, strict);
    } else if (s->chk_all) {
        for (int32_t v = 0; v < s->nvar && st == HT_OK; v++) {
            if (!s->vlive[v]) continue;
            int32_t r = s->srow[s->vsym[v]];
            if (s->vpkn[v] > 0 || (r >= 0 && !(fabs(s->rval[r]) <= HT_SOLVER_MAX_VALUE))) st = check_var(s, v, strict);
        }
    } else {
        for (int32_t i = 0; i < s->nchk && st == HT_OK; i++)
            if (s->vlive[s->chk[i]]) st = check_var(s, s->chk[i], strict);
    }
    if (st != HT_OK) {
        for (int32_t i = 0; i < s->nunp; i++) {
            int32_t k = s->unp[i];
            if (s->cbnd[k])
                hts_bound_release(s, k);
            else
                s->cpark[k] = 1;
        }
        s->nunp = 0;
        return st; /* the marks stay: checked again next time */
    }
    for (int32_t i = 0; i < s->nchk; i++) s->vchk[s->chk[i]] = 0;
    s->nchk = 0;
    s->chk_all = 0;
    return HT_OK;
}

/* Puts the queued constraints into the tableau. On a failure (HT_E_UNSATISFIABLE: the conflict
 * set is the failed one's), *failed is that constraint, and it and the rest stay parked. */
ht_status hts_unpark_queued(ht_solver *s, int32_t *failed) {
    ht_status st = HT_OK;
    for (int32_t i = 0; i < s->nunp; i++) {
        int32_t k = s->unp[i];
        int bound = s->cbnd[k];
        if (st == HT_OK) {
            st = hts_tab_add(s, k);
            s->ninfeas = 0;
            if (st == HT_OK) {
                if (!bound) hts_unpark(s, k);
                continue;
            }
            *failed = k;
            if (st == HT_E_UNSATISFIABLE && bound) s->conf_range = s->cvars[k][0];
        }
        if (bound)
            hts_bound_release(s, k); /* not needed after all, or in conflict: it goes */
        else
            s->cpark[k] = 1;
    }
    s->nunp = 0;
    return st;
}

/* Checks the parked constraints against the values and puts those that do not hold into the
 * tableau, until every one holds (strict: with room to spare). *moved when any was. */
ht_status hts_settle(ht_solver *s, int strict, int *moved, int32_t *failed) {
    for (;;) {
        ht_status st = hts_park_check(s, strict);
        if (st != HT_OK) return st;
        if (s->nunp == 0) return HT_OK;
        if (moved) *moved = 1;
        if ((st = hts_unpark_queued(s, failed)) != HT_OK) return st;
    }
}

/* After a required change the tableau took: the parked constraints settled at once; one that
 * cannot enter joins the conflict set. */
ht_status hts_settle_required(ht_solver *s) {
    int32_t failed = -1;
    ht_status st = hts_settle(s, 0, NULL, &failed);
    if (st == HT_E_UNSATISFIABLE && failed >= 0 && s->clive[failed] && !s->cbnd[failed])
        hts_conflict_add(s, failed);
    return st;
}

ht_status hts_ensure(ht_solver *s, int level) {
    ht_status st;
    if (s->broken && (st = hts_rebuild(s)) != HT_OK) return st;
    while (level >= OPTIMAL) {
        if (s->pending) {
            st = hts_optimize(s, &s->obj, s->ord, s->nord, NULL);
            if (st != HT_OK) {
                s->broken = 1;
                return st;
            }
            s->pending = 0;
        }
        if (level < SETTLED) break;
        int moved = 0;
        int32_t failed = -1;
        st = hts_settle(s, 0, &moved, &failed);
        if (st != HT_OK) {
            /* Required constraints were feasible together: only memory (or a numerical
             * breakdown) ends here. */
            s->broken = 1;
            return st == HT_E_UNSATISFIABLE ? HT_E_CORRUPT : st;
        }
        if (!moved) break;
    }
    return HT_OK;
}
