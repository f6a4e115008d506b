# The C targets' layout, for the scripts that compile them by hand (sourced, not run):
#   source scripts/csources.sh
#   c_sources [ROOT]     sets c_hittest_src, c_solver_src (the targets' .c files under ROOT,
#                        default CSources) and c_includes (-I of both public include folders)
# CHitTest (CSources/CHitTest: hittest.h) is the index and kernels; CLayoutSolver
# (CSources/CLayoutSolver: hittest_solver.h, which takes ht_status from hittest.h) the
# constraint solver. CSources/shared holds what both include (fp_contract.h). Each target's C
# checks live beside it, in its tests/ folder (excluded from the SwiftPM target).
c_flags=(-std=c11 -Wall -Wextra -Wpedantic -Werror)
c_sources() {
    local root=${1:-CSources}
    c_hittest_src=("$root"/CHitTest/*.c)
    c_solver_src=("$root"/CLayoutSolver/*.c)
    c_includes=(-I"$root/CHitTest/include" -I"$root/CLayoutSolver/include")
}
