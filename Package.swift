// swift-tools-version:6.0
import PackageDescription

// Dependency direction (DESIGN.md § Layout), never the other way:
//   Shared ← PacketTunnel ← Linux;  Shared ← App;  tunnelvision → App + Linux.
// App never imports PacketTunnel: the two halves meet only in the data directory and the
// control socket. C libraries are reached only through their system-library targets.
let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "TunnelVision",
    products: [
        .executable(name: "tunnelvision", targets: ["tunnelvision"]),
        .executable(name: "tvlab", targets: ["tvlab"]),
        // For the fuzzing package in Fuzz/, which builds apart so plain `swift build` stays linkable.
        .library(name: "Shared", targets: ["Shared"]),
    ],
    targets: [
        // C shims: atomics over shared memory, TUN ioctl constants, wakeup (macros do not import).
        .target(name: "CTunnelVision"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL"),
        // Counts heap allocations for the benchmark only; never linked into the product.
        .target(name: "CAllocationCounter"),

        .target(name: "Shared", dependencies: ["CTunnelVision", "CSQLite", "COpenSSL"], swiftSettings: strict),
        // The per-packet path: its classes' properties are checked for exclusive access statically
        // and in debug builds (every test); release drops the run-time check, 5 % of `analyze`.
        .target(name: "PacketTunnel", dependencies: ["Shared"],
                swiftSettings: strict + [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        .target(name: "App", dependencies: ["Shared"], swiftSettings: strict),
        .target(name: "Linux", dependencies: ["PacketTunnel", "Shared", "CTunnelVision"], swiftSettings: strict),
        .executableTarget(name: "tunnelvision", dependencies: ["App", "Linux", "Shared"], swiftSettings: strict),
        // Developer tools: synthetic captures and the benchmarks.
        .executableTarget(name: "tvlab", dependencies: ["App", "Linux", "Shared", "CAllocationCounter"], swiftSettings: strict),

        // What several test targets share (temporary directories); never linked into a product.
        .target(name: "TestSupport", dependencies: ["Shared"], path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "SharedTests", dependencies: ["Shared", "CSQLite", "COpenSSL", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "PacketTunnelTests", dependencies: ["PacketTunnel", "Shared"], swiftSettings: strict),
        .testTarget(name: "AppTests", dependencies: ["App", "Shared", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "LinuxTests", dependencies: ["Linux", "PacketTunnel", "Shared", "CTunnelVision", "TestSupport"], swiftSettings: strict),
    ]
)
