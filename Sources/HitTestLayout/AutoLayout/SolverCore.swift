import HitTestCore
import CHitTest
import CLayoutSolver

/// The C constraint solver (`hittest_solver.h`) behind one `LayoutEngine`: the only file of
/// Auto Layout that imports `CHitTest`. Exhaustion and broken invariants stop the program with
/// the C library's message (as `CoreTree` does); conflicts come back as values.
final class SolverCore {
    /// `ht_solver *`, owned here.
    let solver: OpaquePointer

    init() {
        var s: OpaquePointer?
        SolverCore.check(ht_solver_create(&s), "creating a constraint solver")
        solver = s!
    }

    deinit { ht_solver_destroy(solver) }

    static func check(_ status: ht_status, _ what: @autoclosure () -> String) {
        if status != HT_OK {
            fatalError("HitTestKit: \(what()) failed: \(String(cString: ht_status_string(status)))")
        }
    }

    /// The numeric contract of `hittest_solver.h`: every value within ±`maxValue`.
    static let maxValue = HT_SOLVER_MAX_VALUE
    static let maxCoefficient = HT_SOLVER_MAX_COEFFICIENT
    static let minCoefficient = HT_SOLVER_MIN_COEFFICIENT
    static let maxConstant = HT_SOLVER_MAX_CONSTANT

    /// Whether the solver takes `e` (its coefficients and constant within the contract); one it
    /// would refuse is out of range.
    static func accepts(_ e: LinearExpression) -> Bool {
        abs(e.constant) <= maxConstant
            && e.coeffs.allSatisfy { $0 == 0 || (abs($0) >= minCoefficient && abs($0) <= maxCoefficient) }
    }

    func newVariable() -> Int64 {
        var v: ht_var = -1
        SolverCore.check(ht_solver_new_variable(solver, &v), "creating a layout variable")
        return v
    }

    func freeVariable(_ v: Int64) {
        SolverCore.check(ht_solver_free_variable(solver, v), "freeing a layout variable")
    }

    /// The outcome of adding a constraint or changing its constant.
    enum Outcome {
        case ok(Int64)
        /// A required constraint conflicts: the handles of the required constraints in place
        /// that it contradicts, and the variable whose range (±`maxValue`) it would break, if
        /// that is the conflict.
        case unsatisfiable([Int64], range: Int64?)
    }

    func add(_ e: LinearExpression, relation: Int32, priority: Float) -> Outcome {
        var c: ht_constraint = -1
        let status = e.vars.withUnsafeBufferPointer { vars in
            e.coeffs.withUnsafeBufferPointer { coeffs in
                ht_solver_add_constraint(
                    solver, vars.baseAddress, coeffs.baseAddress, vars.count, e.constant, relation, priority, &c)
            }
        }
        if status == HT_E_UNSATISFIABLE { return conflict() }
        SolverCore.check(status, "adding a layout constraint")
        return .ok(c)
    }

    func remove(_ c: Int64) {
        SolverCore.check(ht_solver_remove_constraint(solver, c), "removing a layout constraint")
    }

    func setConstant(_ c: Int64, _ constant: Double) -> Outcome {
        let status = ht_solver_set_constant(solver, c, constant)
        if status == HT_E_UNSATISFIABLE { return conflict() }
        SolverCore.check(status, "changing a layout constraint's constant")
        return .ok(c)
    }

    func setPriority(_ c: Int64, _ priority: Float) {
        SolverCore.check(ht_solver_set_priority(solver, c, priority), "changing a layout constraint's priority")
    }

    func solve() {
        SolverCore.check(ht_solver_solve(solver), "solving the layout constraints")
    }

    func value(_ v: Int64) -> Double {
        var d = 0.0
        SolverCore.check(ht_solver_value(solver, v, &d), "reading a layout variable")
        return d
    }

    /// Reusable buffers for `changes` (grown to the largest list seen).
    private var changedVars: [ht_var] = []
    private var changedValues: [Double] = []

    /// The variables whose value changed since the last call, with their values, in the first
    /// `count` entries of the two arrays (valid until the next call): O(changed) after a
    /// constant edit, instead of reading every variable.
    func changes() -> (variables: [ht_var], values: [Double], count: Int) {
        var count = 0
        var cap = changedVars.count
        while true {
            let status = changedVars.withUnsafeMutableBufferPointer { vars in
                changedValues.withUnsafeMutableBufferPointer { values in
                    ht_solver_changes(solver, vars.baseAddress, values.baseAddress, cap, &count)
                }
            }
            SolverCore.check(status, "reading the changed layout variables")
            if count <= cap { break }
            cap = max(count, 2 * cap)
            changedVars = [ht_var](repeating: -1, count: cap)
            changedValues = [Double](repeating: 0, count: cap)
        }
        return (changedVars, changedValues, count)
    }

    func isDetermined(_ v: Int64) -> Bool {
        var b = false
        SolverCore.check(ht_solver_is_determined(solver, v, &b), "checking whether a layout variable is determined")
        return b
    }

    /// The last conflict: its constraints in place (for an add, without the refused one; for
    /// a constant change, with the edited one: callers leave it out), and the variable whose
    /// range it involves.
    private func conflict() -> Outcome {
        var count = 0
        SolverCore.check(ht_solver_conflict(solver, nil, 0, &count), "reading a constraint conflict")
        var range: ht_var = -1
        SolverCore.check(ht_solver_conflict_range(solver, &range), "reading a constraint conflict")
        guard count > 0 else { return .unsatisfiable([], range: range >= 0 ? range : nil) }
        var ids = [ht_constraint](repeating: -1, count: count)
        var written = 0
        _ = ids.withUnsafeMutableBufferPointer { ht_solver_conflict(solver, $0.baseAddress, count, &written) }
        return .unsatisfiable(Array(ids.prefix(written)), range: range >= 0 ? range : nil)
    }
}

/// `sum(coeffs[i] * vars[i]) + constant`, the solver's form of a constraint's two sides.
struct LinearExpression {
    var vars: [Int64] = []
    var coeffs: [Double] = []
    var constant = 0.0

    mutating func add(_ v: Int64, _ k: Double) {
        if k == 0 { return }
        vars.append(v)
        coeffs.append(k)
    }
}
