import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// Browsers get the run's trust too: headless Chromium, which trusts NSS's database in the home
/// and never the system bundle, through `run --inspect` against the lab's nginx. With the run's
/// private database mounted over `~/.pki/nssdb` the page arrives and the flow is inspected; the
/// same Chromium looking in another home refuses our leaf — so the database is what made the
/// difference. The home's own database is the same bytes before and after. Needs root.
@Suite("Chromium trusts the run's root through NSS", .serialized)
struct InspectionChromiumTests {
    /// What the home holds where NSS readers look: each entry's path and bytes, or that there is none.
    static func snapshot(_ home: String) -> [String: Data] {
        let database = home + "/.pki/nssdb"
        var seen: [String: Data] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: database)) ?? [] {
            seen[name] = FileManager.default.contents(atPath: database + "/" + name) ?? Data()
        }
        seen[".pki exists"] = Data(FileManager.default.fileExists(atPath: home + "/.pki") ? [1] : [0])
        return seen
    }

    /// Headless Chromium fetching `url`, its profile in `profile`, every name but the lab's left
    /// unresolved (nothing is asked of any resolver), its background services off.
    static func chromium(_ url: String, profile: String, home: String? = nil) -> String {
        let command = ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                       "--disable-background-networking", "--disable-component-update", "--disable-sync",
                       "--user-data-dir=\(profile)",
                       "'--host-resolver-rules=MAP \(InspectionLab.host) \(Lab.serverIPv4), MAP * ~NOTFOUND'",
                       "--dump-dom", url].joined(separator: " ")
        return (home.map { "HOME=\($0) " } ?? "") + "timeout 60 " + command + " 2>/dev/null"
    }

    @Test("the page arrives and is inspected; looking in another home, Chromium refuses our leaf; the home is left as it was")
    func chromiumTrustsTheRunsRoot() async throws {
        guard ExternalCommand.locate("chromium") != nil, ExternalCommand.locate("certutil") != nil else {
            Issue.record("chromium and certutil are needed (scripts/test installs them)")
            return
        }
        let lab = try InspectionLab()
        defer { lab.remove() }
        let home = lab.home.path
        let before = Self.snapshot(home)
        let page = lab.file("page.html"), elsewhere = lab.file("elsewhere-home")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let profile = lab.file("profile").path, otherProfile = lab.file("other-profile").path
        let result = try lab.run(["--inspect", "--upstream-ca", lab.pki.root], script: """
            \(Self.chromium("https://\(InspectionLab.host)/api.json", profile: profile)) > \(page.path); \
            \(Self.chromium("https://\(InspectionLab.host)/api.json", profile: otherProfile, home: elsewhere.path)) > /dev/null; \
            echo done
            """)
        #expect(result.out.contains("done"), "\(result.err)")
        #expect(!result.err.contains("NSS readers"), "the run went without NSS: \(result.err)")
        let dom = try String(contentsOf: page, encoding: .utf8)
        #expect(dom.contains(#""nested":{"ok":true}"#), "Chromium's page: \(dom.prefix(400))")

        let flows = try await lab.storedFlows(port: 443)
        // The first (its own home, the run's database): inspected. The second, in a home the run
        // never reached: it refused our certificate — and is said to have, without calling it pinning.
        #expect(flows.first?.tlsStatus == .inspected, "\(flows)")
        #expect(flows.contains { $0.tlsStatus == .notInspectable && $0.inspectionReason?.kind == .refusedCertificate }, "\(flows)")
        #expect(Self.snapshot(home) == before, "the home's NSS database changed")
    }
}
