/*
 * solver.h - the constraint solver's internals that tests may reach (hidden from the shared
 * library; prefixed hts_). The public API is include/hittest_solver.h.
 */
#ifndef HT_SOLVER_H
#define HT_SOLVER_H

/* First, so that its no-fused-multiply-add pragma covers every function of the solver. */
#include "../shared/fp_contract.h"

#include "include/hittest_solver.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(hidden)
#endif

/* Tests: the n-th allocation from now fails (n >= 1); 0 turns failures off. */
void hts_test_fail_allocation(ht_solver *s, long n);

/* Tests and benchmarks: pivots done so far, rebuilds of the tableau so far. */
void hts_test_counters(const ht_solver *s, long *pivots, long *rebuilds);

/* Tests: cells and column entries visited by row operations so far (a measure of work). */
long hts_test_work(const ht_solver *s);

/* Tests: every free variable and constraint slot at its last generation. */
void hts_test_age_slots(ht_solver *s);

/* Tests: reinversions of the tableau so far (numerical trouble, solver.c `reinvert`). */
long hts_test_reinversions(const ht_solver *s);

/* Tests: a reinversion now (the tableau recomputed from the records for its current basis). */
ht_status hts_test_reinvert(ht_solver *s);

/* Tests: checks, without solving, that the current tableau's values satisfy every required
 * constraint (1e-6 relative) and that restricted basics are not negative; *maxcoef is the
 * largest coefficient in any row. HT_OK, HT_E_CORRUPT, or HT_E_INVALID_ARGUMENT (broken). */
ht_status hts_test_check(ht_solver *s, double *maxcoef);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#endif /* HT_SOLVER_H */
