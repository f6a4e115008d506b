/*
 * solver.h - the constraint solver's internals that tests may reach (hidden from the shared
 * library; prefixed hts_). The public API is include/hittest_solver.h.
 */
#ifndef HT_SOLVER_H
#define HT_SOLVER_H

/* First, so that its no-fused-multiply-add pragma covers the solver too. */
#include "geom.h"

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

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#endif /* HT_SOLVER_H */
