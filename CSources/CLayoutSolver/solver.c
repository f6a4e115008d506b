/*
 * solver.c - the constraint solver's public API (hittest_solver.h): lifecycle, variables,
 * adding and removing constraints, conflicts, values and the change list. The design is
 * described in solver.h; each concern has its file there.
 */
#include "solver.h"

ht_status ht_solver_create(ht_solver **out) {
    if (!out) return HT_E_INVALID_ARGUMENT;
    ht_solver *s = calloc(1, sizeof *s);
    if (!s) return HT_E_NO_MEMORY;
    s->rhead = s->rtail = -1;
    s->probe_sym = NO_SYM;
    s->art.stride = 1;
    s->art.cst = calloc(1, sizeof(double));
    s->obj.stride = 0;
    if (!s->art.cst || hts_grow_stride(s, 4) != HT_OK) {
        ht_solver_destroy(s);
        return HT_E_NO_MEMORY;
    }
    *out = s;
    return HT_OK;
}

void ht_solver_destroy(ht_solver *s) {
    if (!s) return;
    for (int32_t i = 0; i < s->symcap; i++) free(s->col[i]);
    free(s->skind);
    free(s->srow);
    free(s->sowner);
    free(s->col);
    free(s->coln);
    free(s->colcap);
    free(s->spos);
    free(s->sfree);
    for (int32_t r = 0; r < s->rowcap; r++) {
        free(s->rsym[r]);
        free(s->rcoef[r]);
    }
    free(s->rsym);
    free(s->rcoef);
    free(s->rlen);
    free(s->rcap);
    free(s->rconst);
    free(s->rbasic);
    free(s->rlive);
    free(s->rmark);
    free(s->rseq);
    free(s->rprev);
    free(s->rnext);
    free(s->rval);
    free(s->heap);
    free(s->touched);
    free(s->pg_row);
    free(s->pg_off);
    free(s->pg_ref);
    free(s->row_pg);
    free(s->pg_const);
    free(s->pg_val);
    free(s->pg_coef);
    free(s->pg_uhead);
    free(s->pg_unext);
    free(s->pg_kown);
    free(s->pg_ucount);
    free(s->pg_pend);
    free(s->rfree);
    free(s->tbasic);
    hts_obj *objs[2] = {&s->obj, &s->art};
    for (int q = 0; q < 2; q++) {
        free(objs[q]->sym);
        free(objs[q]->vec);
        free(objs[q]->cst);
        free(objs[q]->pos);
    }
    free(s->vtmp);
    free(s->vtmp2);
    free(s->lprio);
    free(s->lref);
    free(s->ord);
    free(s->vsym);
    free(s->vrefs);
    free(s->vgen);
    free(s->vlive);
    free(s->vfree);
    free(s->vrep);
    free(s->vchg);
    free(s->chg);
    free(s->pg_var);
    for (int32_t k = 0; k < s->concap; k++) {
        free(s->cvars[k]);
        free(s->ccoef[k]);
    }
    free(s->cgen);
    free(s->clive);
    free(s->crel);
    free(s->cprio);
    free(s->cconst);
    free(s->cmu);
    free(s->cn);
    free(s->clevel);
    free(s->cmarker);
    free(s->cother);
    free(s->cvars);
    free(s->ccoef);
    free(s->cfree);
    for (int32_t k = 0; k < s->concap; k++) free(s->cppos[k]);
    free(s->cppos);
    free(s->cpark);
    for (int32_t v = 0; v < s->varcap; v++) free(s->vpk[v]);
    free(s->vpk);
    free(s->vpkn);
    free(s->vpkcap);
    free(s->vchk);
    free(s->chk);
    free(s->unp);
    free(s->cscale);
    free(s->cbnd);
    free(s->vbnd);
    free(s->infeas);
    free(s->conf);
    free(s);
}

ht_status ht_solver_new_variable(ht_solver *s, ht_var *out) {
    if (!s || !out) return HT_E_INVALID_ARGUMENT;
    int32_t slot;
    if (s->nvfree > 0) {
        slot = s->vfree[s->nvfree - 1];
    } else {
        if (s->nvar >= HT_SOLVER_MAX_HANDLES) return HT_E_CAPACITY;
        if (s->nvar == s->varcap) {
            int32_t cap = next_cap(s->varcap, s->nvar + 1);
            GROW(s, s->vsym, cap);
            GROW(s, s->vrefs, cap);
            GROW(s, s->vgen, cap);
            GROW(s, s->vlive, cap);
            GROW(s, s->vfree, cap);
            GROW(s, s->vrep, cap);
            GROW(s, s->vchg, cap);
            GROW(s, s->chg, cap);
            GROW(s, s->vpk, cap);
            GROW(s, s->vpkn, cap);
            GROW(s, s->vpkcap, cap);
            GROW(s, s->vchk, cap);
            GROW(s, s->chk, cap);
            GROW(s, s->vbnd, 2 * (size_t)cap);
            for (int32_t i = s->varcap; i < cap; i++) {
                s->vbnd[2 * i] = s->vbnd[2 * i + 1] = -1;
                s->vpk[i] = NULL;
                s->vpkn[i] = 0;
                s->vpkcap[i] = 0;
                s->vchk[i] = 0;
            }
            s->varcap = cap;
        }
        slot = s->nvar;
        s->vgen[slot] = 0;
    }
    int32_t sym;
    ht_status st = hts_sym_new(s, K_EXT, slot, &sym);
    if (st != HT_OK) return st;
    if (s->nvfree > 0 && s->vfree[s->nvfree - 1] == slot)
        s->nvfree--;
    else
        s->nvar++;
    s->vsym[slot] = sym;
    s->vrefs[slot] = 0;
    s->vlive[slot] = 1;
    s->vrep[slot] = 0.0; /* a new variable is 0 (parametric) */
    s->vchg[slot] = 0;
    s->nlive_vars++;
    *out = MAKE_HANDLE(slot, s->vgen[slot]);
    return HT_OK;
}

ht_status ht_solver_free_variable(ht_solver *s, ht_var v) {
    if (!s) return HT_E_INVALID_ARGUMENT;
    int32_t slot;
    ht_status st = hts_var_slot(s, v, &slot);
    if (st != HT_OK) return st;
    if (s->vrefs[slot] > 0) return HT_E_IN_USE;
    int32_t sym = s->vsym[slot];
    /* Its range bounds go with it. */
    for (int q = 0; q < 2; q++) {
        int32_t k = s->vbnd[2 * slot + q];
        if (k < 0) continue;
        if (!s->broken && hts_tab_remove(s, k) != HT_OK) s->broken = 1;
        hts_bound_release(s, k);
    }
    /* In no constraint: in no row (after a removal's rounding, clean any residue). */
    if (!s->broken) {
        if (s->srow[sym] >= 0) hts_row_drop(s, s->srow[sym]);
        hts_sym_purge(s, sym);
    }
    hts_sym_free(s, sym);
    s->vlive[slot] = 0;
    s->vchg[slot] = 0; /* a stale entry in the change list is skipped */
    if (s->vgen[slot] < GEN_MAX) { /* else retired: the slot is never reused */
        s->vgen[slot]++;
        s->vfree[s->nvfree++] = slot;
    }
    s->nlive_vars--;
    return HT_OK;
}

ht_status ht_solver_add_constraint(ht_solver *s, const ht_var *vars, const double *coeffs, size_t n,
                                   double constant, int relation, float priority,
                                   ht_constraint *out) {
    if (!s || !out || (n > 0 && (!vars || !coeffs))) return HT_E_INVALID_ARGUMENT;
    if (relation != HT_REL_LE && relation != HT_REL_EQ && relation != HT_REL_GE)
        return HT_E_INVALID_ARGUMENT;
    if (!valid_priority(priority)) return HT_E_INVALID_ARGUMENT;
    if (n > (size_t)INT32_MAX / 2) return HT_E_INVALID_ARGUMENT;
    if (!isfinite(constant)) return HT_E_NOT_FINITE;
    if (!constant_in_range(constant)) return HT_E_INVALID_ARGUMENT;
    for (size_t i = 0; i < n; i++) {
        int32_t slot;
        if (!isfinite(coeffs[i])) return HT_E_NOT_FINITE;
        if (!coefficient_in_range(coeffs[i])) return HT_E_INVALID_ARGUMENT;
        ht_status st = hts_var_slot(s, vars[i], &slot);
        if (st != HT_OK) return st;
    }
    ht_status st = hts_ensure(s, USABLE);
    if (st != HT_OK) return st;
    int req = priority >= HT_PRIORITY_REQUIRED;
    if (req && relation != HT_REL_EQ) {
        /* Whether it may be parked is read at the current values, which must then satisfy
         * every required constraint: the parked ones too (an optional change may have moved
         * a value since they were checked). */
        int32_t failed = -1;
        if ((st = hts_settle(s, 0, NULL, &failed)) != HT_OK) {
            s->broken = 1;
            return st == HT_E_UNSATISFIABLE ? HT_E_CORRUPT : st;
        }
    }

    /* The record. */
    int32_t k, level = -1;
    if ((st = hts_con_alloc(s, n, &k)) != HT_OK) return st;
    if (priority < HT_PRIORITY_REQUIRED && (st = hts_level_acquire(s, priority, &level)) != HT_OK)
        return st;
    hts_con_commit(s, k);
    double scale = 0.0;
    for (size_t i = 0; i < n; i++) {
        s->cvars[k][i] = HANDLE_SLOT(vars[i]);
        s->ccoef[k][i] = coeffs[i];
        s->vrefs[s->cvars[k][i]]++;
        if (fabs(coeffs[i]) > scale) scale = fabs(coeffs[i]);
    }
    s->cscale[k] = scale > 0.0 ? scale : 1.0;
    s->cn[k] = (int32_t)n;
    s->crel[k] = (int8_t)relation;
    s->cprio[k] = priority;
    s->cconst[k] = constant;
    s->cmu[k] = 1.0;
    s->clevel[k] = level;
    s->cmarker[k] = NO_SYM;
    s->cother[k] = NO_SYM;
    s->clive[k] = 1;
    s->cpark[k] = 0;
    s->cbnd[k] = 0;
    s->nlive_cons++;

    /* A required inequality that holds at the current values is parked (see parking.c). */
    int parked = 0;
    if (req && relation != HT_REL_EQ) {
        hts_refresh_values(s);
        parked = hts_con_holds(s, k, 0) && hts_park(s, k) == HT_OK;
    }
    st = parked ? HT_OK : hts_tab_add(s, k);
    s->ninfeas = 0;
    if ((st == HT_OK || st == HT_E_UNSATISFIABLE) && !parked && !(s->growth <= GROWTH_LIMIT)) {
        hts_growth_conflict(s, k, st == HT_E_UNSATISFIABLE);
        s->broken = 1;
        st = HT_E_UNSATISFIABLE;
    }
    if (st == HT_OK && req && !parked) {
        /* The values it moved may break parked constraints: those enter the tableau now, and
         * one that cannot is a conflict of this constraint's. */
        hts_conflict_reset(s);
        st = hts_settle_required(s);
        if (st != HT_OK) {
            hts_conflict_remove(s, k);
            if (!s->broken && hts_tab_remove(s, k) != HT_OK) s->broken = 1;
        }
    }
    if (st != HT_OK) {
        hts_con_release(s, k);
        if (st == HT_E_UNSATISFIABLE && s->broken) {
            ht_status rs = hts_rebuild(s);
            if (rs == HT_E_NO_MEMORY) return rs;
        }
        return st;
    }
    hts_conflict_reset(s);
    *out = con_handle(s, k);
    return HT_OK;
}

ht_status ht_solver_remove_constraint(ht_solver *s, ht_constraint c) {
    if (!s) return HT_E_INVALID_ARGUMENT;
    int32_t k;
    ht_status st = hts_con_slot(s, c, &k);
    if (st != HT_OK) return st;
    if (s->cpark[k]) {
        hts_unpark(s, k);
    } else if (!s->broken) {
        st = hts_tab_remove(s, k);
        if (st != HT_OK) return st; /* broken: the record stays, the tableau is rebuilt later */
    }
    hts_con_release(s, k);
    s->ninfeas = 0;
    return HT_OK;
}

ht_status ht_solver_conflict(const ht_solver *s, ht_constraint *out, size_t cap, size_t *count) {
    if (!s || !count || (cap > 0 && !out)) return HT_E_INVALID_ARGUMENT;
    for (size_t i = 0; i < cap && i < (size_t)s->nconf; i++) out[i] = s->conf[i];
    *count = (size_t)s->nconf;
    return HT_OK;
}

ht_status ht_solver_conflict_range(const ht_solver *s, ht_var *out) {
    if (!s || !out) return HT_E_INVALID_ARGUMENT;
    int32_t v = s->conf_range;
    *out = v >= 0 && v < s->nvar && s->vlive[v] ? MAKE_HANDLE(v, s->vgen[v]) : -1;
    return HT_OK;
}

ht_status ht_solver_constraint_info(const ht_solver *s, ht_constraint c, int *relation,
                                    double *constant, float *priority) {
    if (!s) return HT_E_INVALID_ARGUMENT;
    int32_t k;
    ht_status st = hts_con_slot(s, c, &k);
    if (st != HT_OK) return st;
    if (relation) *relation = s->crel[k];
    if (constant) *constant = s->cconst[k];
    if (priority) *priority = s->cprio[k];
    return HT_OK;
}

ht_status ht_solver_solve(ht_solver *s) {
    if (!s) return HT_E_INVALID_ARGUMENT;
    return hts_ensure(s, SETTLED);
}

ht_status ht_solver_value(ht_solver *s, ht_var v, double *out) {
    if (!s || !out) return HT_E_INVALID_ARGUMENT;
    int32_t slot;
    ht_status st = hts_var_slot(s, v, &slot);
    if (st != HT_OK) return st;
    if ((st = hts_ensure(s, SETTLED)) != HT_OK) return st;
    *out = hts_sym_value(s, s->vsym[slot]);
    return HT_OK;
}

ht_status ht_solver_changes(ht_solver *s, ht_var *vars, double *values, size_t cap,
                            size_t *count) {
    if (!s || !count || (cap > 0 && (!vars || !values))) return HT_E_INVALID_ARGUMENT;
    ht_status st = hts_ensure(s, SETTLED);
    if (st != HT_OK) return st;
    hts_refresh_values(s);
    if (s->chg_all) {
        s->chg_all = 0;
        s->nchg = 0;
        for (int32_t i = 0; i < s->nvar; i++) s->vchg[i] = 0;
        hts_note_all_vars(s); /* one entry per live slot: fits */
    }
    /* Compact: live entries, once each (2 marks an entry kept), whose value still differs. */
    int32_t w = 0;
    for (int32_t i = 0; i < s->nchg; i++) {
        int32_t slot = s->chg[i];
        if (!s->vlive[slot] || s->vchg[slot] != 1) continue;
        int32_t r = s->srow[s->vsym[slot]];
        double v = r >= 0 ? s->rval[r] : 0.0;
        if (v == s->vrep[slot]) {
            s->vchg[slot] = 0;
            continue;
        }
        s->vchg[slot] = 2;
        s->chg[w++] = slot;
    }
    for (int32_t i = 0; i < w; i++) s->vchg[s->chg[i]] = 1;
    s->nchg = w;
    *count = (size_t)w;
    if ((size_t)w > cap) return HT_OK;
    for (int32_t i = 0; i < w; i++) {
        int32_t slot = s->chg[i];
        int32_t r = s->srow[s->vsym[slot]];
        double v = r >= 0 ? s->rval[r] : 0.0;
        vars[i] = MAKE_HANDLE(slot, s->vgen[slot]);
        values[i] = v;
        s->vrep[slot] = v;
        s->vchg[slot] = 0;
    }
    s->nchg = 0;
    return HT_OK;
}

ht_status ht_solver_stats(const ht_solver *s, size_t *variables, size_t *constraints,
                          size_t *rows) {
    if (!s) return HT_E_INVALID_ARGUMENT;
    if (variables) *variables = (size_t)s->nlive_vars;
    if (constraints) *constraints = (size_t)s->nlive_cons;
    if (rows) *rows = (size_t)s->nlive_rows;
    return HT_OK;
}
