/*
 * tableau.c - one constraint into the tableau (a definition, a subject, or an artificial
 * phase) and out of it; rebuilding the tableau from the records; reinversion (the tableau
 * recomputed from the records for its current basis).
 */
#include "solver.h"

/* Puts constraint k (its record complete) into the tableau. HT_E_UNSATISFIABLE leaves the
 * conflict set and, when the tableau was changed, s->broken set (the caller rebuilds it). */
ht_status hts_tab_add(ht_solver *s, int32_t k) {
    int32_t r;
    /* Values up to date before the change stay so when the new row changes no other row
     * (a definition, or a subject in no other row): its own value is appended. */
    if (!s->vals_dirty && s->pg_ok) hts_refresh_values(s);
    int clean = !s->vals_dirty && s->pg_ok;
    ht_status st = hts_row_new(s, &r);
    if (st != HT_OK) return st;
    double f = s->cscale[k]; /* the row in units of its largest coefficient */
    s->growth = 0.0;
    s->rconst[r] = s->cconst[k] / f;
    for (int32_t i = 0; i < s->cn[k]; i++) {
        int32_t x = s->vsym[s->cvars[k][i]];
        double c = s->ccoef[k][i];
        if (c == 0.0) continue;
        st = hts_row_add_sym(s, r, x, c / f); /* basic ones too: a definition may refer to them */
        if (st != HT_OK) goto fail_row;
    }
    int rel = s->crel[k];
    int req = is_required(s, k);
    int32_t marker = NO_SYM, other = NO_SYM;
    double mu = 1.0;
    if (rel != HT_REL_EQ) {
        double coeff = rel == HT_REL_LE ? 1.0 : -1.0;
        if ((st = hts_sym_new(s, K_SLACK, k, &marker)) != HT_OK) goto fail_row;
        s->cmarker[k] = marker;
        mu = coeff;
        if ((st = hts_row_add_sym(s, r, marker, coeff)) != HT_OK) goto fail_syms;
        if (!req) {
            if ((st = hts_sym_new(s, K_ERROR, k, &other)) != HT_OK) goto fail_syms;
            s->cother[k] = other;
            if ((st = hts_row_add_sym(s, r, other, -coeff)) != HT_OK) goto fail_syms;
            if ((st = hts_obj_add_level(s, other, s->clevel[k], f)) != HT_OK) goto fail_syms;
        }
    } else if (!req) {
        if ((st = hts_sym_new(s, K_ERROR, k, &marker)) != HT_OK) goto fail_row;
        s->cmarker[k] = marker;
        if ((st = hts_sym_new(s, K_ERROR, k, &other)) != HT_OK) goto fail_syms;
        s->cother[k] = other;
        mu = -1.0;
        if ((st = hts_row_add_sym(s, r, marker, -1.0)) != HT_OK) goto fail_syms;
        if ((st = hts_row_add_sym(s, r, other, 1.0)) != HT_OK) goto fail_syms;
        if ((st = hts_obj_add_level(s, marker, s->clevel[k], f)) != HT_OK) goto fail_syms;
        if ((st = hts_obj_add_level(s, other, s->clevel[k], f)) != HT_OK) goto fail_syms;
    } else {
        if ((st = hts_sym_new(s, K_DUMMY, k, &marker)) != HT_OK) goto fail_row;
        s->cmarker[k] = marker;
        if ((st = hts_row_add_sym(s, r, marker, 1.0)) != HT_OK) goto fail_syms;
    }
    s->cmu[k] = mu * f;

    /* A definition: an external symbol in no other row and not in the objective becomes the
     * row's basic symbol with nothing to substitute; the row keeps its basic cells. */
    int32_t subject = NO_SYM;
    if (!s->art_active) {
        for (int32_t i = 0; i < s->rlen[r]; i++) {
            int32_t sym = s->rsym[r][i];
            if (s->skind[sym] != K_EXT || s->srow[sym] >= 0 || s->obj.pos[sym] >= 0) continue;
            if (subject >= 0 && sym > subject) continue;
            if (hts_col_clean(s, sym) == 1) subject = sym; /* r alone */
        }
    }
    if (subject >= 0) {
        hts_row_solve_for(s, r, subject);
        s->rbasic[r] = subject;
        s->srow[subject] = r;
        s->pending = 1;
        s->vals_dirty = !(clean && hts_program_append(s, r));
        return HT_OK;
    }
    if ((st = hts_row_expand(s, r)) != HT_OK) goto fail_syms;
    if (s->rconst[r] < 0) hts_row_negate(s, r);

    /* The subject: the lowest-numbered external symbol, else a marker with a negative
     * coefficient (its value is then the non-negative constant). */
    int all_dummies = 1;
    for (int32_t i = 0; i < s->rlen[r]; i++) {
        int32_t sym = s->rsym[r][i];
        if (s->skind[sym] == K_EXT && (subject < 0 || sym < subject)) subject = sym;
        if (s->skind[sym] != K_DUMMY) all_dummies = 0;
    }
    if (subject < 0 && (marker >= 0 && restricted(s, marker)) && row_coef(s, r, marker) < 0)
        subject = marker;
    if (subject < 0 && (other >= 0 && restricted(s, other)) && row_coef(s, r, other) < 0)
        subject = other;
    if (subject < 0 && all_dummies) {
        if (!const_zero(s->rconst[r], s->xmag)) {
            hts_conflict_reset(s);
            hts_conflict_from_syms(s, s->rsym[r], s->rlen[r], NO_SYM, k);
            st = HT_E_UNSATISFIABLE;
            goto fail_syms;
        }
        subject = marker; /* redundant: the row keeps its marker for removal */
    }
    if (subject >= 0) {
        hts_row_solve_for(s, r, subject);
        s->rbasic[r] = subject;
        s->srow[subject] = r;
        /* r is reduced (no basic cell): the rows the subject is replaced in gain parametric
         * cells and a new constant, not a reference, so that the evaluation program stays
         * valid: they are noted as touched (their values follow at the next refresh) and r is
         * appended. */
        if (clean) s->vals_dirty = 0;
        st = hts_substitute(s, subject, r);
        if (st != HT_OK) {
            s->broken = 1;
            return st;
        }
        s->pending = 1;
        s->vals_dirty = !(clean && !s->vals_dirty && hts_program_append(s, r));
        return HT_OK;
    }

    /* No subject: an artificial variable, minimized; the constraint holds iff it reaches 0. */
    int32_t art;
    if ((st = hts_sym_new(s, K_SLACK, -1, &art)) != HT_OK) goto fail_syms;
    s->rbasic[r] = art;
    s->srow[art] = r;
    /* From here on the tableau holds the new row: failures break it. */
    s->art.len = 0;
    s->art.cst[0] = s->rconst[r];
    for (int32_t i = 0; i < s->rlen[r]; i++) {
        int32_t ci;
        if ((st = hts_obj_cell(s, &s->art, s->rsym[r][i], &ci)) != HT_OK) goto broken;
        s->art.vec[ci] = s->rcoef[r][i];
    }
    s->art_active = 1;
    double xmag = s->xmag;
    static const int32_t ord0[1] = {0};
    int unb = 0;
    st = hts_optimize(s, &s->art, ord0, 1, &unb);
    if (st != HT_OK) goto broken;
    int success = const_zero(s->art.cst[0], xmag);
    if (!success) {
        hts_conflict_reset(s);
        hts_conflict_from_syms(s, s->art.sym, s->art.len, NO_SYM, k);
    }
    s->art_active = 0;
    hts_obj_clear(&s->art);
    if (s->srow[art] >= 0) {
        int32_t t = s->srow[art];
        /* art is 0 but basic: pivot it out on a restricted symbol, else on an external one;
         * a row of dummies alone says nothing and goes. */
        int32_t entering = NO_SYM, ext = NO_SYM;
        for (int32_t i = 0; i < s->rlen[t]; i++) {
            int32_t sym = s->rsym[t][i];
            if (restricted(s, sym) && (entering < 0 || sym < entering)) entering = sym;
            if (s->skind[sym] == K_EXT && (ext < 0 || sym < ext)) ext = sym;
        }
        if (entering < 0) entering = ext;
        if (entering < 0) {
            hts_row_drop(s, t); /* art = 0 + dummies: a dependency, nothing to keep */
        } else if ((st = hts_pivot(s, t, entering)) != HT_OK) {
            goto broken;
        }
    }
    hts_sym_purge(s, art);
    hts_sym_free(s, art);
    if (!success) {
        s->broken = 1; /* the caller removes the record and rebuilds */
        return HT_E_UNSATISFIABLE;
    }
    s->pending = 1;
    return HT_OK;

broken:
    s->art_active = 0;
    s->broken = 1;
    return st;
fail_syms:
    /* The row never entered the tableau; only the objective may hold the new errors. */
    if (s->cother[k] >= 0) {
        if (s->obj.pos[s->cother[k]] >= 0) hts_obj_remove_at(&s->obj, s->obj.pos[s->cother[k]]);
        hts_sym_free(s, s->cother[k]);
        s->cother[k] = NO_SYM;
    }
    if (s->cmarker[k] >= 0) {
        if (s->obj.pos[s->cmarker[k]] >= 0) hts_obj_remove_at(&s->obj, s->obj.pos[s->cmarker[k]]);
        hts_sym_free(s, s->cmarker[k]);
        s->cmarker[k] = NO_SYM;
    }
fail_row:
    hts_row_drop(s, r);
    if (st == HT_E_NO_MEMORY) s->broken = 1; /* column lists may name the dropped row: harmless */
    return st;
}

/* Takes constraint k out of the tableau (its record stays). */
ht_status hts_tab_remove(ht_solver *s, int32_t k) {
    ht_status st;
    s->vals_dirty = 1;
    int32_t marker = s->cmarker[k], other = s->cother[k];
    if (!is_required(s, k)) {
        int32_t syms[2] = {marker, other};
        for (int q = 0; q < 2; q++) {
            if (syms[q] < 0 || s->skind[syms[q]] != K_ERROR) continue;
            if ((st = hts_obj_add_level(s, syms[q], s->clevel[k], -s->cscale[k])) != HT_OK)
                goto broken;
        }
    }
    if (marker >= 0) {
        if (s->srow[marker] >= 0) {
            hts_row_drop(s, s->srow[marker]);
        } else {
            /* The row to pivot the marker into: a restricted row it would leave first. */
        again:;
            int32_t n = hts_col_clean(s, marker);
            int32_t first = -1, second = -1, third = -1, dummy = -1;
            double r1 = 0, r2 = 0;
            for (int32_t i = 0; i < n; i++) {
                int32_t t = s->col[marker][i];
                double c = row_coef(s, t, marker);
                int32_t b = s->rbasic[t];
                if (s->skind[b] == K_DUMMY) {
                    /* A redundant required equality that this constraint helped imply: it
                     * binds once this one goes, so its dummy must stay 0 (parametric). Its
                     * constant is 0: the pivot moves no value. Any other row would leave the
                     * dummy basic at a nonzero value when the marker's row is dropped. */
                    if (dummy < 0 || b < s->rbasic[dummy]) dummy = t;
                } else if (s->skind[b] == K_EXT) {
                    if (third < 0 || b < s->rbasic[third]) third = t;
                } else if (c < 0) {
                    double ratio = -s->rconst[t] / c;
                    if (first < 0 || ratio < r1 || (ratio == r1 && b < s->rbasic[first])) {
                        r1 = ratio;
                        first = t;
                    }
                } else {
                    double ratio = s->rconst[t] / c;
                    if (second < 0 || ratio < r2 || (ratio == r2 && b < s->rbasic[second])) {
                        r2 = ratio;
                        second = t;
                    }
                }
            }
            int32_t t = dummy >= 0 ? dummy : first >= 0 ? first : second >= 0 ? second : third;
            if (t >= 0 && t == third && n > 1 && hts_has_basic_cell(s, t)) {
                /* Its definition will be substituted into other rows: reduce it first (the
                 * marker's coefficient may change, so choose again). */
                if ((st = hts_row_expand(s, t)) != HT_OK) goto broken;
                goto again;
            }
            if (t >= 0) {
                if ((st = hts_pivot(s, t, marker)) != HT_OK) goto broken;
                hts_row_drop(s, t);
            }
        }
    }
    /* The other error symbol belongs to this constraint alone: in exact arithmetic it has
     * left the tableau with the marker's row; drop any rounding residue. */
    if (other >= 0) {
        if (s->srow[other] >= 0) hts_row_drop(s, s->srow[other]);
        hts_sym_purge(s, other);
        hts_sym_free(s, other);
    }
    if (marker >= 0) {
        if (s->obj.pos[marker] >= 0) hts_obj_remove_at(&s->obj, s->obj.pos[marker]);
        hts_sym_free(s, marker);
    }
    s->cmarker[k] = NO_SYM;
    s->cother[k] = NO_SYM;
    s->pending = 1;
    return HT_OK;
broken:
    s->broken = 1;
    return st;
}

/* Rebuilds the tableau from the records. */
ht_status hts_rebuild(ht_solver *s) {
    s->rebuilds++;
    for (int32_t r = 0; r < s->nrow; r++) {
        if (s->rlive[r]) hts_row_drop(s, r);
    }
    s->nrfree = 0;
    s->nrow = 0;
    s->nlive_rows = 0;
    s->nsfree = 0;
    int32_t keep = 0;
    for (int32_t i = 0; i < s->nsym; i++) {
        s->srow[i] = -1;
        s->coln[i] = 0;
        s->obj.pos[i] = -1;
        s->art.pos[i] = -1;
        if (s->skind[i] == K_EXT) {
            keep = i + 1;
        } else {
            s->skind[i] = K_FREE;
            s->sowner[i] = -1;
        }
    }
    for (int32_t i = keep; i < s->nsym; i++) s->skind[i] = K_FREE;
    s->nsym = keep;
    for (int32_t i = 0; i < keep; i++)
        if (s->skind[i] == K_FREE) s->sfree[s->nsfree++] = i;
    s->obj.len = 0;
    for (int32_t j = 0; j < s->obj.stride; j++) s->obj.cst[j] = 0.0;
    s->art.len = 0;
    s->art_active = 0;
    s->ninfeas = 0;
    s->broken = 0;
    for (int32_t k = 0; k < s->ncon; k++) {
        s->cmarker[k] = NO_SYM;
        s->cother[k] = NO_SYM;
    }
    for (int32_t k = 0; k < s->ncon; k++) {
        if (!s->clive[k] || s->cpark[k]) continue;
        ht_status st = hts_tab_add(s, k);
        if (st != HT_OK) {
            s->broken = 1;
            return st == HT_E_UNSATISFIABLE ? HT_E_CORRUPT : st;
        }
    }
    s->pending = 1;
    return HT_OK;
}

/* Row r (empty, meaning 0 = constant + cells) += constraint k's record: its terms and its
 * markers with the coefficients hts_tab_add gave them. */
static ht_status row_fill(ht_solver *s, int32_t k, int32_t r) {
    ht_status st;
    double f = s->cscale[k];
    s->rconst[r] = s->cconst[k] / f;
    for (int32_t i = 0; i < s->cn[k]; i++) {
        if (s->ccoef[k][i] == 0.0) continue;
        st = hts_row_add_sym(s, r, s->vsym[s->cvars[k][i]], s->ccoef[k][i] / f);
        if (st != HT_OK) return st;
    }
    int32_t m = s->cmarker[k], o = s->cother[k];
    if (s->crel[k] != HT_REL_EQ) {
        double coeff = s->crel[k] == HT_REL_LE ? 1.0 : -1.0;
        if ((st = hts_row_add_sym(s, r, m, coeff)) != HT_OK) return st;
        if (o >= 0 && (st = hts_row_add_sym(s, r, o, -coeff)) != HT_OK) return st;
    } else if (o >= 0) {
        if ((st = hts_row_add_sym(s, r, m, -1.0)) != HT_OK) return st;
        if ((st = hts_row_add_sym(s, r, o, 1.0)) != HT_OK) return st;
    } else if ((st = hts_row_add_sym(s, r, m, 1.0)) != HT_OK) {
        return st;
    }
    return HT_OK;
}

/* Reinversion: the tableau recomputed from the constraint records for the current basis (the
 * same basic symbols), by Gauss-Jordan elimination with partial pivoting (each record's row,
 * reduced by the rows before it, is solved for its largest cell among the basis's symbols not
 * placed yet), and the objective rebuilt from the priorities. Every coefficient and constant
 * comes back with the rounding of one elimination instead of the error accumulated over
 * hundreds of pivots; residues of cancellation become exact zeros again. Rows come back fully
 * reduced (no lazy definitions). On any inconsistency (which exact arithmetic excludes) the
 * tableau is rebuilt from the records instead (HT_OK, s->pending set). */
ht_status hts_reinvert(ht_solver *s) {
    ht_status st;
    s->reinversions++;
    s->reinvert_at = s->pivots;
    s->suspect = 0;
    if (s->nsym > s->tbasiccap) {
        int32_t cap = next_cap(s->tbasiccap, s->nsym);
        GROW(s, s->tbasic, cap);
        s->tbasiccap = cap;
    }
    memset(s->tbasic, 0, (size_t)s->nsym);
    int32_t nbasic = 0;
    for (int32_t r = s->rhead; r >= 0; r = s->rnext[r]) {
        s->tbasic[s->rbasic[r]] = 1;
        nbasic++;
    }
    /* Empty the tableau (the records and the symbols stay). */
    while (s->rhead >= 0) hts_row_drop(s, s->rhead);
    for (int32_t i = 0; i < s->nsym; i++) {
        s->coln[i] = 0;
        s->srow[i] = -1;
    }
    hts_obj_clear(&s->obj);
    s->ninfeas = 0;
    s->ntouched = 0;
    s->vals_dirty = 1;
    int32_t placed = 0;
    for (int32_t k = 0; k < s->ncon; k++) {
        if (!s->clive[k] || s->cmarker[k] < 0) continue;
        int32_t r;
        if ((st = hts_row_new(s, &r)) != HT_OK) goto broken;
        if ((st = row_fill(s, k, r)) != HT_OK || (st = hts_row_expand(s, r)) != HT_OK) goto broken;
        int32_t piv = NO_SYM;
        double best = 0.0;
        for (int32_t i = 0; i < s->rlen[r]; i++) {
            int32_t sym = s->rsym[r][i];
            double a = fabs(s->rcoef[r][i]);
            if (s->tbasic[sym] && s->srow[sym] < 0 && a > best) {
                best = a;
                piv = sym;
            }
        }
        if (piv < 0) {
            /* A record implied by the others (its row was dropped as a dependency): it must
             * reduce to nothing but markers fixed at 0. */
            int dependent = const_zero(s->rconst[r], s->xmag);
            for (int32_t i = 0; i < s->rlen[r] && dependent; i++)
                dependent = s->skind[s->rsym[r][i]] == K_DUMMY;
            hts_row_drop(s, r);
            if (!dependent) goto inconsistent;
            continue;
        }
        hts_row_solve_for(s, r, piv);
        s->rbasic[r] = piv;
        s->srow[piv] = r;
        if ((st = hts_substitute(s, piv, r)) != HT_OK) goto broken;
        placed++;
    }
    if (placed != nbasic) goto inconsistent;
    /* The objective: every error symbol at its level, then the probe's term. */
    for (int32_t k = 0; k < s->ncon; k++) {
        if (!s->clive[k] || s->cmarker[k] < 0 || is_required(s, k)) continue;
        if (s->crel[k] == HT_REL_EQ &&
            (st = hts_obj_add_level(s, s->cmarker[k], s->clevel[k], s->cscale[k])) != HT_OK)
            goto broken;
        if ((st = hts_obj_add_level(s, s->cother[k], s->clevel[k], s->cscale[k])) != HT_OK)
            goto broken;
    }
    if (s->probe_sym >= 0) {
        for (int32_t j = 0; j < s->obj.stride; j++) s->vtmp[j] = 0.0;
        s->vtmp[s->probe_slot] = s->probe_dir;
        if ((st = hts_obj_add_term(s, &s->obj, s->probe_sym, s->vtmp)) != HT_OK) goto broken;
    }
    s->pg_ok = 0;
    return HT_OK;
inconsistent:
    st = hts_rebuild(s);
    if (st != HT_OK) return st;
    if (s->probe_sym >= 0) {
        for (int32_t j = 0; j < s->obj.stride; j++) s->vtmp[j] = 0.0;
        s->vtmp[s->probe_slot] = s->probe_dir;
        if ((st = hts_obj_add_term(s, &s->obj, s->probe_sym, s->vtmp)) != HT_OK) goto broken;
    }
    return HT_OK;
broken:
    s->broken = 1;
    return st;
}
