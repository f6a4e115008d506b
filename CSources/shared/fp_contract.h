/*
 * fp_contract.h - no fused multiply-adds in the C core: included first by both C targets'
 * internal headers (CHitTest's geom.h, CLayoutSolver's solver.h), so that the pragma covers
 * every function of every translation unit. The one place the rule is written.
 *
 * The hit test's results must be bit-identical to the Swift reference walk, which never fuses
 * multiply-adds, and the solver's must not depend on the compiler or the target. Clang honours
 * the standard pragma; GCC ignores it (and fuses by default in GNU modes, which matters on
 * targets with FMA, such as arm64), so it gets its own. scripts/ccheck.sh checks both compilers.
 */
#ifndef HT_FP_CONTRACT_H
#define HT_FP_CONTRACT_H

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#else
#pragma STDC FP_CONTRACT OFF
#endif

#endif /* HT_FP_CONTRACT_H */
