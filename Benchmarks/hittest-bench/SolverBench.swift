// The constraint solver's benchmark: the C solver (hittest_solver.h) called
// directly, on three systems of N views (four variables each: x, y, w, h):
// - chain: a vertical chain, each view pinned to the previous one with 5 required constraints
//   (leading, trailing, top = previous bottom + 8, height, width — the last one redundant);
// - ineq: the same chain plus one inactive required inequality per view, `top >= superview.top`
//   (the solver parks inactive inequalities outside the tableau, so this grows linearly too);
// - grid: N cells, 10 per row, square, 4 apart, cell 0 is 96 wide, every row's last trailing
//   edge <= 1000;
// - form: rows of a label and a field: the label at the margin with its intrinsic size (hugging
//   `<=` at 250, compression resistance `>=` at 750 per axis), the field after it up to the
//   trailing margin, centered on it vertically, 34 high (intrinsic) and at least 100 wide (750).
// Build+solve: creating the solver, adding every constraint, solving and reading every value.
// One edit: changing one constraint's constant (the middle view's spacing; cell 0's width; the
// middle label's intrinsic width, both of its constraints), solving and reading a value.
// Then the chain of `hittest-bench --layout`, with and without `top >= window.top` on every view,
// through the public Auto Layout API (HitTestKit): N views in a window, their constraints made,
// activated and laid out (`layoutIfNeeded`); one edit is the middle view's top constant, then a
// layout pass (thread CPU time).
// scripts/kiwi-compare.py times kiwisolver on the same systems (the checksums must agree).
//
//   swift run -c release hittest-bench --solver [--sizes 1000,5000,10000] [--reps 5]
import CHitTest
import CLayoutSolver
import Foundation
import HitTestKit

/// Runs the solver benchmark and exits when the arguments ask for it (`--solver`).
func solverBenchIfAsked(_ arguments: [String]) {
    guard arguments.contains("--solver") else { return }
    var sizes = [1_000, 5_000, 10_000]
    var reps = 5
    var i = 0
    while i < arguments.count {
        if arguments[i] == "--sizes", i + 1 < arguments.count {
            sizes = arguments[i + 1].split(separator: ",").compactMap { Int($0) }
            i += 1
        } else if arguments[i] == "--reps", i + 1 < arguments.count {
            reps = max(1, Int(arguments[i + 1]) ?? 5)
            i += 1
        }
        i += 1
    }
    emit("Constraint solver (CSources/CLayoutSolver), median of \(reps) builds, edits averaged over 200")
    emit("system     N   build+solve      one edit      rows  checksum")
    for kind in SolverSystem.Kind.allCases {
        for n in sizes {
            var builds: [Double] = []
            var edit = 0.0
            var rows = 0
            var checksum = 0.0
            for rep in 0..<reps {
                let t0 = ContinuousClock.now
                let system = SolverSystem(kind, views: n)
                checksum = system.checksum()
                builds.append(t0.duration(to: .now).seconds)
                if rep == reps - 1 {
                    edit = system.timeEdits(200)
                    rows = system.rows
                }
            }
            builds.sort()
            emit(String(format: "%-6@ %6d %10.2f ms %10.2f µs %9d  %.0f", kind.rawValue as NSString, n,
                         builds[builds.count / 2] * 1e3, edit * 1e6, rows, checksum))
        }
    }
    emit("Through the Auto Layout API (the chain of --layout in a window: views, constraints, activate, layoutIfNeeded),")
    emit("thread CPU time, median of \(reps) builds, edits averaged over 200")
    emit("system         N   build+layout     one edit  checksum")
    for inequalities in [false, true] {
        for n in sizes {
            var builds: [Double] = []
            var edit = 0.0
            var checksum = 0.0
            for rep in 0..<reps {
                let t0 = threadCPUSeconds()
                let chain = AutoLayoutChain(views: n, inequalities: inequalities)
                builds.append(threadCPUSeconds() - t0)
                checksum = chain.checksum()
                if rep == reps - 1 { edit = chain.timeEdits(200) }
            }
            builds.sort()
            emit(String(format: "%-10@ %6d %11.2f ms %9.2f µs  %.0f", (inequalities ? "al-ineq" : "al-chain") as NSString, n,
                         builds[builds.count / 2] * 1e3, edit * 1e6, checksum))
        }
    }
    finish(0)
}

/// The chain of `hittest-bench --layout` (LayoutBench.swift) in a window, with `top >=
/// window.top` on every view for its `ineq` variant, through the public Auto
/// Layout API: the first view pinned to the window (leading 16, trailing -16, top 8, height
/// 44, width >= 0), each next one to the previous (leading, trailing, top = bottom + 4, height,
/// centerX).
final class AutoLayoutChain {
    let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
    var views: [View] = []
    var constraints: [LayoutConstraint] = []

    init(views n: Int, inequalities: Bool) {
        views.reserveCapacity(n)
        constraints.reserveCapacity(6 * n)
        for _ in 0..<n {
            let v = View()
            v.translatesAutoresizingMaskIntoConstraints = false
            window.addSubview(v)
            if let p = views.last {
                constraints += [v.leadingAnchor.constraint(equalTo: p.leadingAnchor), v.trailingAnchor.constraint(equalTo: p.trailingAnchor),
                                v.topAnchor.constraint(equalTo: p.bottomAnchor, constant: 4), v.heightAnchor.constraint(equalTo: p.heightAnchor),
                                v.centerXAnchor.constraint(equalTo: p.centerXAnchor)]
            } else {
                constraints += [v.leadingAnchor.constraint(equalTo: window.leadingAnchor, constant: 16),
                                v.trailingAnchor.constraint(equalTo: window.trailingAnchor, constant: -16),
                                v.topAnchor.constraint(equalTo: window.topAnchor, constant: 8), v.heightAnchor.constraint(equalToConstant: 44),
                                v.widthAnchor.constraint(greaterThanOrEqualToConstant: 0)]
            }
            if inequalities { constraints.append(v.topAnchor.constraint(greaterThanOrEqualTo: window.topAnchor)) }
            views.append(v)
        }
        LayoutConstraint.activate(constraints)
        window.layoutIfNeeded()
    }

    /// The sum of every frame's x, y, width and height.
    func checksum() -> Double {
        views.reduce(0) { $0 + $1.frame.minX + $1.frame.minY + $1.frame.width + $1.frame.height }
    }

    /// Mean CPU seconds of one edit (the middle view's top constant + 1, then back: half the
    /// frames move) and its layout pass.
    func timeEdits(_ count: Int) -> Double {
        let per = constraints.count / views.count
        let edited = constraints[per * (views.count / 2) + 2]
        let base = edited.constant
        let t0 = threadCPUSeconds()
        for r in 0..<count {
            edited.constant = base + (r % 2 == 0 ? 1 : 0)
            window.layoutIfNeeded()
        }
        return (threadCPUSeconds() - t0) / Double(count)
    }
}

/// Stops the benchmark on any status but HT_OK.
func solverCheck(_ status: ht_status, _ line: Int = #line) {
    if status != HT_OK { fatalError("solver bench line \(line): \(String(cString: ht_status_string(status)))") }
}

/// One benchmark system in a solver of its own.
final class SolverSystem {
    enum Kind: String, CaseIterable { case chain, ineq, grid, form }

    let solver: OpaquePointer
    var x: [ht_var] = [], y: [ht_var] = [], w: [ht_var] = [], h: [ht_var] = []
    var edited: [ht_constraint] = []

    init(_ kind: Kind, views n: Int) {
        var s: OpaquePointer?
        solverCheck(ht_solver_create(&s))
        solver = s!
        for _ in 0..<n {
            x.append(newVariable()); y.append(newVariable()); w.append(newVariable()); h.append(newVariable())
        }
        switch kind {
        case .chain: buildChain(n)
        case .ineq: buildChain(n, inequalities: true)
        case .grid: buildGrid(n)
        case .form: buildForm(n)
        }
        solverCheck(ht_solver_solve(solver))
    }

    deinit { ht_solver_destroy(solver) }

    var rows: Int {
        var r = 0
        solverCheck(ht_solver_stats(solver, nil, nil, &r))
        return r
    }

    func newVariable() -> ht_var {
        var v: ht_var = 0
        solverCheck(ht_solver_new_variable(solver, &v))
        return v
    }

    /// sum(terms) + constant REL 0 at priority p.
    @discardableResult
    func add(_ terms: [(ht_var, Double)], _ constant: Double, _ relation: Int32 = 0, _ p: Float = 1000) -> ht_constraint {
        var c: ht_constraint = 0
        let vars = terms.map(\.0), coeffs = terms.map(\.1)
        solverCheck(ht_solver_add_constraint(solver, vars, coeffs, terms.count, constant, relation, p, &c))
        return c
    }

    func buildChain(_ n: Int, inequalities: Bool = false) {
        add([(x[0], 1)], 0); add([(y[0], 1)], 0); add([(w[0], 1)], -320); add([(h[0], 1)], -44)
        if inequalities { add([(y[0], 1)], 0, 1) }  // top >= superview.top
        for i in 1..<max(n, 1) {
            let p = i - 1
            add([(x[i], 1), (x[p], -1)], 0)
            add([(x[i], 1), (w[i], 1), (x[p], -1), (w[p], -1)], 0)
            let top = add([(y[i], 1), (y[p], -1), (h[p], -1)], -8)
            if i == n / 2 { edited = [top] }
            add([(h[i], 1), (h[p], -1)], 0)
            add([(w[i], 1), (w[p], -1)], 0)
            if inequalities { add([(y[i], 1)], 0, 1) }
        }
    }

    func buildGrid(_ n: Int) {
        let cols = 10
        for i in 0..<n {
            let r = i / cols, c = i % cols
            if c == 0 { add([(x[i], 1)], 0) } else { add([(x[i], 1), (x[i - 1], -1), (w[i - 1], -1)], -4) }
            if i == 0 { edited = [add([(w[0], 1)], -96)] } else { add([(w[i], 1), (w[0], -1)], 0) }
            if r == 0 { add([(y[i], 1)], 0) } else { add([(y[i], 1), (y[i - cols], -1), (h[i - cols], -1)], -4) }
            add([(h[i], 1), (w[i], -1)], 0)
            if c == cols - 1 { add([(x[i], 1), (w[i], 1)], -1000, -1) }
        }
    }

    func buildForm(_ n: Int) {
        var i = 0
        while i + 1 < n {
            let l = i, f = i + 1
            let iw = Double(60 + (i * 37) % 80), ih = 20.0
            add([(x[l], 1)], -20)
            if i == 0 { add([(y[l], 1)], -20) } else { add([(y[l], 1), (y[i - 1], -1), (h[i - 1], -1)], -12) }
            let e1 = add([(w[l], 1)], -iw, 1, 750)
            let e2 = add([(w[l], 1)], -iw, -1, 250)
            add([(h[l], 1)], -ih, 1, 750); add([(h[l], 1)], -ih, -1, 250)
            add([(x[f], 1), (x[l], -1), (w[l], -1)], -8)
            add([(x[f], 1), (w[f], 1)], -355)
            add([(y[f], 1), (h[f], 0.5), (y[l], -1), (h[l], -0.5)], 0)
            add([(h[f], 1)], -34, 1, 750); add([(h[f], 1)], -34, -1, 250)
            add([(w[f], 1)], -100, 1, 750)
            if i == (n / 4) * 2 { edited = [e1, e2] }
            i += 2
        }
    }

    /// The sum of every value (read one by one, as a layout pass would).
    func checksum() -> Double {
        var sum = 0.0
        for vars in [x, y, w, h] {
            for v in vars {
                var value = 0.0
                solverCheck(ht_solver_value(solver, v, &value))
                sum += value
            }
        }
        return sum
    }

    /// Mean seconds of one edit (the constant + 1, then back), its solve and a value read.
    func timeEdits(_ count: Int) -> Double {
        var base: [Double] = []
        for c in edited {
            var k = 0.0
            solverCheck(ht_solver_constraint_info(solver, c, nil, &k, nil))
            base.append(k)
        }
        var value = 0.0
        let t0 = ContinuousClock.now
        for r in 0..<count {
            for (j, c) in edited.enumerated() { solverCheck(ht_solver_set_constant(solver, c, base[j] + (r % 2 == 0 ? 1 : 0))) }
            solverCheck(ht_solver_solve(solver))
            solverCheck(ht_solver_value(solver, y[y.count - 1], &value))
        }
        return t0.duration(to: .now).seconds / Double(count)
    }
}
