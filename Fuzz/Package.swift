// swift-tools-version:6.0
import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, which differs between checkouts.
let mainPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// libFuzzer harnesses. Apart from the main package because a harness has no `main` of its own
// (libFuzzer supplies it), so it only links when built with `--sanitize=fuzzer` (scripts/fuzz).
let package = Package(
    name: "TunnelVisionFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(name: "FuzzPacketParser", dependencies: [.product(name: "Shared", package: mainPackage)],
                          swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
