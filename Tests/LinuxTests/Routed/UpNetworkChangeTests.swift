#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import Linux
import Shared
import Testing
import TestSupport

/// A routed service whose target's network changes under it — a new uplink address, an IPv6
/// default route that appears and goes — follows it: its rules and our table's routes move with
/// the target, `status` counts the change, and the stop still leaves the target as it was. Needs root.
@Suite("up --netns: the target's network changing while the service runs", .serialized)
struct UpNetworkChangeTests {
    typealias Site = UpNamespaceTests.Site

    @Test("a new uplink address gets its rule, a new IPv6 default route goes through the tunnel and leaves with its route; status counts the changes; the stop leaves the namespace as it was")
    func followsTheTargetsNetwork() throws {
        let site = try Site()
        let lab = site.lab
        try lab.target.ip(["-6", "route", "del", "default"])   // it starts with IPv4 only
        let before = try lab.snapshot()
        let data = TemporaryDirectory("tv-up-change")
        let (up, errors) = try site.up(data)
        defer { if up.isRunning { kill(up.processIdentifier, SIGKILL) }; up.waitUntilExit() }
        func rules(_ family: String) -> String { (try? lab.target.ip([family, "rule", "show"]).standardOutput) ?? "" }
        #expect(!rules("-6").contains("lookup 29814"), "IPv6 has no default route yet: \(rules("-6"))")

        try lab.target.ip(["addr", "add", "198.18.77.3/24", "dev", "up0"])
        try lab.target.ip(["-6", "route", "add", "default", "via", "fd00:77::1"])
        #expect(eventually { rules("-4").contains("from 198.18.77.3 lookup main") && rules("-6").contains("lookup 29814") },
                "\(rules("-4")) \(rules("-6"))")
        let v6Route = try lab.target.ip(["-6", "route", "get", "fd00:99::9"]).standardOutput
        #expect(v6Route.contains(" dev tv"), "\(v6Route)")
        #expect(try lab.route("198.18.99.9").hasPrefix("tv"))
        let fetched = try lab.target.run(["curl", "-sS", "--max-time", "10", site.url])
        #expect(fetched.standardOutput == "hello from beyond the uplink\n")
        let status = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["status", "--json", "--data-dir", data.url.path])
        #expect(try Int(PythonJSON.value(status.out, "service.networkChangesLearned")) ?? 0 >= 1, "\(status.out)")
        #expect(try PythonJSON.value(status.out, "service.lastNetworkChange").contains("changed"), "\(status.out)")

        try lab.target.ip(["-6", "route", "del", "default"])
        try lab.target.ip(["addr", "del", "198.18.77.3/24", "dev", "up0"])
        #expect(eventually { !rules("-6").contains("lookup 29814") && !rules("-4").contains("198.18.77.3") },
                "\(rules("-4")) \(rules("-6"))")
        #expect(try lab.route("198.18.99.9").hasPrefix("tv"), "IPv4 still goes through the tunnel")

        try Site.stop(up, errors: errors, leaving: lab, as: before)
    }
}
