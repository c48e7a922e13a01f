import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// Issue 27's live check for TLS that starts late: `tunnelvision run -- …` with
/// `openssl s_client -starttls` for SMTP (the server greets first) and PostgreSQL and XMPP (the
/// client speaks first) against the lab's STARTTLS servers. Each flow is named by its SNI, holds
/// the TLS 1.2 answer and the two-certificate chain, says which protocol upgraded, and is
/// encrypted; the relay passed it through untouched (the clients' handshakes completed, verified
/// against the lab's own root alone) — with inspection off, and on (`--inspect`): STARTTLS is
/// never inspected, and nothing of it breaks. Needs root and openssl.
@Suite("TLS after STARTTLS is read live, through tunnelvision run", .serialized)
struct TunnelStartTLSNamingTests {
    @Test("s_client -starttls smtp, postgres and xmpp through run: named by SNI, with answer, chain and opening",
          arguments: [false, true])
    func startTLSFlowsThroughRun(inspecting: Bool) async throws {
        let work = TemporaryDirectory("run-starttls")
        let certificates = try HandshakeCertificates(in: work.url)
        let lab = try Lab()
        defer { lab.remove() }
        let services = [("smtp", 25, StreamOpening.smtpStartTLS), ("postgres", 5432, .postgresSSLRequest),
                        ("xmpp", 5222, .xmppStartTLS)]
        var servers: [Process] = []
        defer { servers.forEach(LabScripts.stop) }
        for (name, port, _) in services {
            servers.append(try HandshakeCapture.start([LabScripts.python, "-c", StartTLSLabScripts.server, Lab.serverIPv4,
                                                       String(port), name, certificates.chain, certificates.leafKey, "yes"],
                                                      in: lab.server))
        }
        for (_, port, _) in services { try LabScripts.waitForListener(Lab.serverIPv4, port, from: lab.host) }

        let leaf = HandshakeCertificates.leafName
        let clients = services.map { name, port, _ in
            "echo | timeout 20 openssl s_client -connect \(Lab.serverIPv4):\(port) -starttls \(name) -servername \(leaf) "
                + "-xmpphost \(leaf) -tls1_2 -CAfile \(certificates.path("ca.pem")) -verify_return_error >/dev/null 2>&1 || exit 1"
        }
        let data = work.url.appendingPathComponent("data")
        let ip = URL(fileURLWithPath: ExternalCommand.locate("ip") ?? "/usr/sbin/ip")
        let home = work.url.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let inspection = inspecting ? ["--inspect", "--upstream-ca", certificates.path("ca.pem")] : []
        if inspecting {
            let created = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["ca", "create", "--data-dir", data.path])
            try #require(created.status == 0, "\(created.err)")
        }
        // The relay's own count, asked of the live tunnel after the clients.
        let tunnelvision = try BuiltProduct.url("tunnelvision").path
        let stats = work.url.appendingPathComponent("stats.json")
        let script = clients.joined(separator: "; ") + "; \(tunnelvision) stats --json --data-dir \(data.path) > \(stats.path)"
        let result = try BuiltProduct.run(ip, lab.host.command(["env", "HOME=\(home.path)", tunnelvision, "run", "--data-dir", data.path]
                                                                + inspection + ["--", "sh", "-c", script]).dropFirst().map { $0 })
        // Every handshake completed and verified through the relay: the flows were left alone.
        #expect(result.status == 0, "\(result.status): \(result.err)")

        let relay = try #require(try Self.relayCounters(in: stats), "no relay counters in the stats")
        #expect(relay["streamsUpgradedToTLS"] as? Int == services.count && relay["plaintextUpgradesAbandoned"] as? Int == 0, "\(relay)")

        let store = try FlowStore(dataDirectory: data)
        let flows = try await store.recentFlows(limit: 50)
        await store.close()
        for (name, port, opening) in services {
            let flow = try #require(flows.first { $0.key.proto == .tcp && ($0.key.endpointA.port == UInt16(port) || $0.key.endpointB.port == UInt16(port)) },
                                    "no flow to \(name)'s port \(port) in \(flows)")
            #expect(flow.streamOpening == opening, "\(name)")
            #expect(flow.sni == leaf && flow.name?.text == leaf && flow.name?.origin == .sni, "\(name)")
            #expect(flow.tlsStatus == .encrypted, "\(name)")
            // Never inspected; with inspection off, said so as for any TLS flow.
            #expect(flow.inspectionReason == (inspecting ? nil : InspectionReason(.inspectionOff)), "\(name)")
            guard case .negotiated(let negotiated)? = flow.serverTLS else {
                Issue.record("no server answer for \(name): \(flow)")
                continue
            }
            #expect(negotiated.version == .tls12, "\(name)")
            guard case .chain(let chain)? = flow.serverCertificates else {
                Issue.record("no certificate chain for \(name): \(flow)")
                continue
            }
            #expect(chain.certificates.count == 2 && chain.certificates.first?.subject.text.hasSuffix("CN=\(leaf)") == true, "\(name)")
        }
    }

    /// The relay's counters in `stats --json`, wherever its document puts them.
    static func relayCounters(in url: URL) throws -> [String: Any]? {
        func find(_ node: Any) -> [String: Any]? {
            guard let object = node as? [String: Any] else { return nil }
            if object["streamsUpgradedToTLS"] != nil { return object }
            return object.values.lazy.compactMap(find).first
        }
        return find(try JSONSerialization.jsonObject(with: Data(contentsOf: url)))
    }
}
