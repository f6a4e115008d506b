// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "HitTestKit",
    products: [
        .library(name: "HitTestKit", targets: ["HitTestKit"]),
        .library(name: "CHitTest", targets: ["CHitTest"]),
        .library(name: "CLayoutSolver", targets: ["CLayoutSolver"]),
        .library(name: "CHitTestShared", type: .dynamic, targets: ["CHitTest", "CLayoutSolver"]),
        .executable(name: "hittest", targets: ["hittest"]),
        .executable(name: "hittest-example", targets: ["hittest-example"]),
        .executable(name: "hittest-bench", targets: ["hittest-bench"]),
        .executable(name: "hittest-c-example", targets: ["hittest-c-example"]),
    ],
    targets: [
        // MARK: - C core
        .target(
            name: "CHitTest",
            path: "CSources/CHitTest",
            exclude: ["tests"],
            cSettings: [
                .define("NDEBUG", .when(configuration: .release)),
            ],
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]
        ),
        // The constraint solver (hittest_solver.h); takes ht_status from hittest.h.
        .target(
            name: "CLayoutSolver",
            dependencies: ["CHitTest"],
            path: "CSources/CLayoutSolver",
            exclude: ["tests"],
            cSettings: [
                .define("NDEBUG", .when(configuration: .release)),
            ],
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]
        ),

        // MARK: - Swift library, in layers (ARCHITECTURE.md draws the graph)
        // The core: geometry, views, hierarchy, conversion, hit testing, the C index binding, the
        // layout cycle, and the base types input names in the views' open API (Responder,
        // Touch, Event, GestureRecognizer) with the seams HitTestInput plugs into.
        .target(
            name: "HitTestCore",
            dependencies: ["CHitTest"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Input on the core only: the application and its simulated clock, the touch pipeline,
        // gesture arbitration and the concrete recognizers, controls and scroll views (it plugs
        // into the core's input seams).
        .target(
            name: "HitTestInput",
            dependencies: ["HitTestCore"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Auto Layout over the constraint solver, on the core only (it plugs into the core's
        // layout seam).
        .target(
            name: "HitTestLayout",
            dependencies: ["HitTestCore", "CHitTest", "CLayoutSolver"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Animations on the simulated clock, on the core only (the core's change-recording and
        // clock seams).
        .target(
            name: "HitTestAnimation",
            dependencies: ["HitTestCore"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The umbrella users import: re-exports the layers, every public name as before.
        .target(
            name: "HitTestKit",
            dependencies: ["HitTestCore", "HitTestInput", "HitTestLayout", "HitTestAnimation"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),

        // MARK: - Scene files and importers (recursiveDescription, page sources)
        .target(
            name: "HitTestScenes",
            dependencies: ["HitTestKit"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),

        // MARK: - The reference walk (tests, benchmark, CLI; not public API)
        .target(
            name: "HitTestReference",
            dependencies: ["HitTestKit"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),

        // MARK: - The benchmark's and demo's generated scenes (SampleScenes.summaries lists them) and the fair walk
        .target(
            name: "HitTestSampleScenes",
            dependencies: ["HitTestKit"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),

        // MARK: - Command-line tool (a library, so that the tests run every subcommand)
        .target(
            name: "HitTestCLI",
            dependencies: ["HitTestKit", "HitTestScenes", "HitTestReference", "HitTestSampleScenes"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "hittest",
            dependencies: ["HitTestCLI"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),

        // MARK: - Executables
        .executableTarget(
            name: "hittest-example",
            dependencies: ["HitTestKit"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "hittest-c-example",
            dependencies: ["CHitTest"],
            path: "Examples/c-example",
            exclude: ["expected-output.txt"]
        ),
        .executableTarget(
            name: "hittest-bench",
            dependencies: ["HitTestKit", "HitTestReference", "HitTestSampleScenes", "CLayoutSolver"],
            path: "Benchmarks/hittest-bench",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),

        // MARK: - Tests
        // Shared test support (random trees, seeded randomness, recording views): a regular
        // target so that any test target, the benchmark or a fuzzer can use it.
        .target(
            name: "HitTestTestSupport",
            dependencies: ["HitTestKit", "HitTestSampleScenes", "CHitTest"],
            path: "Tests/HitTestTestSupport",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // One test target per module (the C libraries' checks sit beside them, in tests/).
        .testTarget(
            name: "HitTestCoreTests",
            dependencies: [
                "HitTestKit", "HitTestCore", "HitTestReference", "HitTestSampleScenes", "HitTestTestSupport",
                "CHitTest", "hittest-c-example",
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "HitTestInputTests",
            dependencies: [
                "HitTestKit", "HitTestCore", "HitTestInput", "HitTestReference", "HitTestSampleScenes",
                "HitTestTestSupport",
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "HitTestLayoutTests",
            dependencies: ["HitTestKit", "HitTestLayout", "HitTestReference", "HitTestTestSupport"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "HitTestAnimationTests",
            dependencies: ["HitTestKit", "HitTestAnimation", "HitTestReference", "HitTestTestSupport"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "HitTestScenesTests",
            dependencies: [
                "HitTestKit", "HitTestScenes", "HitTestCLI", "HitTestReference", "HitTestSampleScenes",
                "HitTestTestSupport",
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "HitTestCLITests",
            dependencies: [
                "HitTestKit", "HitTestScenes", "HitTestCLI", "HitTestReference", "HitTestSampleScenes",
                "HitTestTestSupport", "CHitTest",
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
