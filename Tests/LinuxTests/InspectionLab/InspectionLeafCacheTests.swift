import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// Issue 15 § Speed: a host's leaf is minted once; its later connections reuse it. Read where a
/// person (and `tvlab bench inspect`) reads it: `stats --json` of a real `run --inspect`. Needs root.
@Suite("TLS inspection's leaf cache, seen in stats", .serialized)
struct InspectionLeafCacheTests {
    @Test("three fresh connections to one host through run --inspect mint exactly one leaf, and stats --json says so")
    func oneLeafPerHost() throws {
        let lab = try InspectionLab()
        defer { lab.remove() }
        let stats = lab.file("stats.json")
        let curl = (["curl", "-sS", "--max-time", "30", "--http1.1", "-o", "/dev/null"] + lab.resolve).joined(separator: " ")
        let tunnelvision = try BuiltProduct.url("tunnelvision").path
        let result = try lab.run(["--inspect", "--upstream-ca", lab.pki.root], script: """
            \(curl) \(lab.url)/api.json && \(curl) \(lab.url)/api.json && \(curl) \(lab.url)/file.bin && \
            \(tunnelvision) stats --json --data-dir \(lab.data.path) > \(stats.path)
            """)
        #expect(result.status == 0, "\(result.err)")
        let inspection = try InspectionLab.inspectionCounters(in: stats)
        #expect(inspection?["terminationsOpened"] as? Int == 3)
        #expect(inspection?["leavesMinted"] as? Int == 1, "\(inspection ?? [:])")
    }
}
