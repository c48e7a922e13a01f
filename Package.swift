// swift-tools-version:6.0
import PackageDescription

// Dependency direction (DESIGN.md § Layout), never the other way:
//   Shared ← PacketTunnel ← Linux;  Shared ← Posix ← Linux, AppLinux;  Shared ← App ← AppLinux;
//   tunnelvision → App, AppLinux, Linux.
// App and AppLinux never import PacketTunnel or Linux: the two halves meet only in the data
// directory and the control socket. C libraries are reached only through their system-library
// targets. Fixtures, TestSupport, Bench and CAllocationCounter are never linked by the product.
// `scripts/check-layout` (run by scripts/test) fails when any of this is broken.
let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]
// Release builds of the libraries under the per-packet path and the reports let their callers
// inline and specialize across the module boundary (FlowRecord's copies, the JSON writer's calls):
// about 5 % of `analyze`, measured. Debug builds, and so the tests' build times, are unchanged.
let cmo: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

let package = Package(
    name: "TunnelVision",
    products: [
        .executable(name: "tunnelvision", targets: ["tunnelvision"]),
        .executable(name: "tvlab", targets: ["tvlab"]),
    ],
    targets: [
        // C shims: atomics over shared memory, TUN ioctl constants, wakeup (macros do not import).
        .target(name: "CTunnelVision"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL"),
        // Content codings of decrypted bodies: zlib (gzip, deflate) and Brotli's decoder (br).
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .systemLibrary(name: "CBrotli", path: "Sources/CBrotli"),
        // Counts heap allocations for the benchmark only; never linked into the product.
        .target(name: "CAllocationCounter"),

        .target(name: "Shared", dependencies: ["CTunnelVision", "CSQLite", "COpenSSL", "CZlib", "CBrotli"], swiftSettings: strict + cmo),
        // The per-packet path: its classes' properties are checked for exclusive access statically
        // and in debug builds (every test); release drops the run-time check, 5 % of `analyze`.
        .target(name: "PacketTunnel", dependencies: ["Shared"],
                exclude: ["TLS/Inspection/README.md"],
                swiftSettings: strict + cmo + [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        .target(name: "App", dependencies: ["Shared"], swiftSettings: strict + cmo),
        // Event loop, timers, non-blocking and Unix sockets: the syscalls both shells stand on.
        .target(name: "Posix", dependencies: ["Shared", "CTunnelVision"], swiftSettings: strict),
        // The tunnel's shell.
        .target(name: "Linux", dependencies: ["PacketTunnel", "Posix", "Shared", "CTunnelVision", "COpenSSL"],
                resources: [.copy("Lab/Scripts")], swiftSettings: strict),
        // The app's shell.
        .target(name: "AppLinux", dependencies: ["App", "Posix", "Shared", "CTunnelVision"],
                resources: [.copy("Web/Site")], swiftSettings: strict),
        .executableTarget(name: "tunnelvision", dependencies: ["App", "AppLinux", "Linux", "Posix", "Shared"], swiftSettings: strict),

        // Developer tools: synthetic captures and the benchmarks.
        .target(name: "Bench", dependencies: ["Linux", "Posix", "Shared"], resources: [.copy("Scripts")], swiftSettings: strict),
        .executableTarget(name: "tvlab", dependencies: ["App", "AppLinux", "Bench", "Fixtures", "Linux", "PacketTunnel", "Posix",
                                                        "Shared", "CAllocationCounter"], swiftSettings: strict),

        // Synthetic traffic, seeded randoms, DNS and TLS fixtures: for the tests and tvlab only.
        .target(name: "Fixtures", dependencies: ["Shared"], path: "Tests/Fixtures", swiftSettings: strict),
        // What several test targets share (temporary directories, tshark); never linked into a product.
        .target(name: "TestSupport", dependencies: ["Shared", "Fixtures"], path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "SharedTests", dependencies: ["Shared", "CSQLite", "COpenSSL", "CTunnelVision", "Fixtures",
                                                        "TestSupport"], swiftSettings: strict),
        .testTarget(name: "PacketTunnelTests", dependencies: ["PacketTunnel", "Shared", "Fixtures"], swiftSettings: strict),
        .testTarget(name: "AppTests", dependencies: ["App", "Shared", "Fixtures", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "PosixTests", dependencies: ["Posix", "Shared", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "LinuxTests", dependencies: ["Bench", "Linux", "App", "AppLinux", "Posix", "PacketTunnel", "Shared", "CTunnelVision",
                                                       "COpenSSL", "Fixtures", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "AppLinuxTests", dependencies: ["AppLinux", "App", "Posix", "Shared", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "BenchTests", dependencies: ["Bench", "Linux", "Shared"], swiftSettings: strict),
    ]
)
