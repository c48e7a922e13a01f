// swift-tools-version:6.0
import PackageDescription

// libFuzzer harnesses, one per parser. Apart from the main package because a harness has no `main`
// of its own (libFuzzer supplies it), so it only links when built with `--sanitize=fuzzer`
// (scripts/fuzz). The parsers' sources are compiled here too, through the symlinks in Sources/ —
// so the harnesses reach `package` API (the TLS scanners) without the main package exporting
// anything for them, and the parsers are instrumented for coverage like the harnesses.
let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

/// Every harness, by the name of its folder under Sources/ and its product; scripts/fuzz runs them
/// all. FuzzCorpus is not a harness: it writes their seed corpora (see its file).
let harnesses: [(name: String, dependencies: [Target.Dependency])] = [
    ("FuzzPacketParser", ["Shared"]),
    ("FuzzDNSMessage", ["Shared", "Fixtures", "FuzzSupport"]),
    ("FuzzClientHello", ["PacketTunnel", "Shared", "FuzzSupport"]),
    ("FuzzServerHello", ["PacketTunnel", "Shared", "FuzzSupport"]),
    ("FuzzServerCertificate", ["PacketTunnel", "Shared", "FuzzSupport"]),
    ("FuzzProxyTunnel", ["PacketTunnel", "Shared", "FuzzSupport"]),
    ("FuzzPlaintextUpgrade", ["PacketTunnel", "Shared", "FuzzSupport"]),
    ("FuzzDER", ["Shared", "FuzzSupport"]),
    ("FuzzDERWriter", ["Shared", "FuzzSupport"]),
    ("FuzzQUICInitial", ["PacketTunnel", "Shared", "FuzzSupport"]),
    ("FuzzQUICCryptoFrames", ["Shared", "FuzzSupport"]),
    ("FuzzPcapFile", ["Shared", "FuzzSupport"]),
    ("FuzzSettings", ["Shared", "FuzzSupport"]),
    ("FuzzControlChannel", ["Shared", "FuzzSupport"]),
    ("FuzzHTTPRequest", ["App", "FuzzSupport"]),
    ("FuzzPlaintextRecord", ["App", "Shared", "FuzzSupport"]),
    ("FuzzHTTP2", ["App", "Shared", "FuzzSupport"]),
    ("FuzzCorpus", ["Shared", "PacketTunnel", "Fixtures"]),
]

let package = Package(
    name: "TunnelVisionFuzz",
    products: harnesses.map { .executable(name: $0.name, targets: [$0.name]) },
    targets: [
        .target(name: "CTunnelVision"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .systemLibrary(name: "CBrotli", path: "Sources/CBrotli"),
        .target(name: "Shared", dependencies: ["CTunnelVision", "CSQLite", "COpenSSL", "CZlib", "CBrotli"], swiftSettings: strict),
        .target(name: "PacketTunnel", dependencies: ["Shared"], exclude: ["TLS/Inspection/README.md"], swiftSettings: strict),
        // The app's pure cores, for the web server's request parser.
        .target(name: "App", dependencies: ["Shared"], swiftSettings: strict),
        // The tests' fixtures (Tests/Fixtures), for FuzzCorpus and the DNS harness's encoder.
        .target(name: "Fixtures", dependencies: ["Shared"], swiftSettings: strict),
        // Input reading, chunking and invariant checks the harnesses share.
        .target(name: "FuzzSupport", swiftSettings: strict),
    ] + harnesses.map { .executableTarget(name: $0.name, dependencies: $0.dependencies, swiftSettings: strict) }
)
