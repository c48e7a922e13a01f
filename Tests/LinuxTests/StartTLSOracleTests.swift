import Foundation
import Linux
import TestSupport
import Testing

/// Issue 27: TLS that starts late, recorded from real clients — `openssl s_client -starttls` for
/// SMTP, IMAP, POP3, FTP, XMPP, LDAP and PostgreSQL, each with TLS 1.2 (the chain in the clear)
/// and TLS 1.3, and `swaks --tls` — against servers that agree (standard ports) and servers that
/// refuse (ports 10 000 above, `-d` for tshark). `tunnelvision analyze --json` must read every
/// conversation as tshark does: SNI, offer, version, cipher suite, chain; and its opening must
/// name the protocol whose upgrade tshark decoded (`smtp.req.command`, `imap.request.command`,
/// `pop.request.command`, `ftp.request.command`, `xmpp.starttls`, `ldap.requestName`,
/// `pgsql.type`) when TLS followed, and stay `unrecognised` when it was refused.
/// Needs root, tshark (with dumpcap), openssl and swaks.
@Suite("tunnelvision analyze reads TLS that starts after a plaintext exchange", .serialized)
struct StartTLSOracleTests {
    struct Service: Sendable {
        var protocolName: String          // the scripts' and s_client's name
        var port: Int
        var dissector: String
        var opening: String
        var refusingPort: Int { port + 10_000 }
    }

    static let services = [
        Service(protocolName: "smtp", port: 25, dissector: "smtp", opening: "smtpStartTLS"),
        Service(protocolName: "imap", port: 143, dissector: "imap", opening: "imapStartTLS"),
        Service(protocolName: "pop3", port: 110, dissector: "pop", opening: "pop3STLS"),
        Service(protocolName: "ftp", port: 21, dissector: "ftp", opening: "ftpAuthTLS"),
        Service(protocolName: "xmpp", port: 5222, dissector: "xmpp", opening: "xmppStartTLS"),
        Service(protocolName: "ldap", port: 389, dissector: "ldap", opening: "ldapStartTLS"),
        Service(protocolName: "postgres", port: 5432, dissector: "pgsql", opening: "postgresSSLRequest"),
    ]

    static var tsharkOptions: [String] {
        services.flatMap { ["-d", "tcp.port==\($0.refusingPort),\($0.dissector)"] }
    }

    @Test("every conversation's TLS and opening are tshark's, upgraded or refused, for all seven protocols")
    func analyzeAgreesWithTsharkOnUpgrades() throws {
        for tool in ["openssl", "swaks", "dumpcap", "tshark", "timeout", "ss"] where ExternalCommand.locate(tool) == nil {
            throw HandshakeCapture.Failed(description: "\(tool) is not installed: scripts/test installs it")
        }
        let directory = TemporaryDirectory("starttls-capture")
        let file = try Self.record(in: directory)
        if let keep = ProcessInfo.processInfo.environment["TUNNELVISION_STARTTLS_CAPTURE"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(at: file, to: URL(fileURLWithPath: keep))
        }
        let reading = try TsharkHandshakes.read(file, options: Self.tsharkOptions)
        let upgrades = try Self.upgradesTsharkDecoded(in: file)

        let result = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["analyze", file.path, "--json"])
        try #require(result.status == 0, "analyze exited \(result.status): \(result.err)")
        let report = try JSONDecoder().decode(AnalyzeReport.self, from: Data(result.out.utf8))
        let reported = Dictionary(report.conversations.filter { $0.protocol == "tcp" }.map { ("\($0.client) → \($0.server)", $0) },
                                  uniquingKeysWith: { first, _ in first })
        var openings: [String: Int] = [:]
        let tcp = reading.conversations.filter { $0.transport == .tcp }
        #expect(tcp.count == Self.services.count * 3 + 1, "tshark read \(tcp)")
        for conversation in tcp {
            let found = try #require(reported["\(conversation.client) → \(conversation.server)"], "analyze misses \(conversation)")
            var expected = ExpectedConversation(conversation, in: reading)
            // The protocol whose request to switch tshark decoded, when TLS followed it.
            expected.streamOpening = conversation.serverHellos.isEmpty ? "unrecognised" : upgrades[conversation.stream] ?? "unrecognised"
            AnalyzeOracleTests.compare(found, expected, conversation)
            openings[found.streamOpening ?? "none", default: 0] += 1
        }
        // Not an empty agreement: each protocol upgraded twice (SMTP three times, with swaks), with
        // its TLS read; each refusal stayed plaintext.
        var wanted = Dictionary(uniqueKeysWithValues: Self.services.map { ($0.opening, 2) })
        wanted["smtpStartTLS"] = 3
        wanted["unrecognised"] = Self.services.count
        #expect(openings == wanted)
        let upgraded = report.conversations.filter { $0.streamOpening.map { $0 != "unrecognised" } ?? false }
        #expect(upgraded.allSatisfy { $0.sni == HandshakeCertificates.leafName && $0.serverAnswer?.version != nil })
        #expect(upgraded.filter { $0.certificates?.chain?.count == 2 }.count == Self.services.count)
        #expect(report.conversations.filter { $0.streamOpening == "unrecognised" }.allSatisfy { $0.sni == nil && $0.serverAnswer == nil })
    }

    /// Per `tcp.stream`, the opening whose request to switch tshark's plaintext dissectors read.
    static func upgradesTsharkDecoded(in file: URL) throws -> [Int: String] {
        let fields = ["tcp.stream", "smtp.req.command", "imap.request.command", "pop.request.command", "ftp.request.command",
                      "xmpp.starttls", "ldap.requestName", "pgsql.type"]
        var upgrades: [Int: String] = [:]
        for frame in try Tshark.fields(fields, of: file, options: tsharkOptions) {
            guard let stream = frame["tcp.stream"]?.first.flatMap({ Int($0) }) else { continue }
            let said = { (field: String) in frame[field] ?? [] }
            // tshark keeps SMTP's command to four letters ("STAR").
            if said("smtp.req.command").contains(where: { $0.uppercased().hasPrefix("STAR") }) { upgrades[stream] = "smtpStartTLS" }
            if said("imap.request.command").contains(where: { $0.uppercased() == "STARTTLS" }) { upgrades[stream] = "imapStartTLS" }
            if said("pop.request.command").contains(where: { $0.uppercased() == "STLS" }) { upgrades[stream] = "pop3STLS" }
            if said("ftp.request.command").contains(where: { $0.uppercased() == "AUTH" }) { upgrades[stream] = "ftpAuthTLS" }
            if !said("xmpp.starttls").isEmpty { upgrades[stream] = "xmppStartTLS" }
            if said("ldap.requestName").contains("1.3.6.1.4.1.1466.20037") { upgrades[stream] = "ldapStartTLS" }
            if said("pgsql.type").contains("SSL request") { upgrades[stream] = "postgresSSLRequest" }
        }
        return upgrades
    }

    /// Builds the lab, records every client on `veth-server`, and returns the file. Everything
    /// started is stopped, and the lab removed, before it returns.
    static func record(in directory: TemporaryDirectory) throws -> URL {
        let certificates = try HandshakeCertificates(in: directory.url)
        let file = directory.url.appendingPathComponent("starttls.pcap")
        let lab = try Lab()
        defer { lab.remove() }
        var servers: [Process] = []
        defer { servers.forEach(LabScripts.stop) }
        for service in services {
            for (port, answer) in [(service.port, "yes"), (service.refusingPort, "no")] {
                servers.append(try HandshakeCapture.start([LabScripts.python, "-c", StartTLSLabScripts.server, Lab.serverIPv4,
                                                           String(port), service.protocolName, certificates.chain,
                                                           certificates.leafKey, answer], in: lab.server))
            }
        }
        for service in services {
            for port in [service.port, service.refusingPort] { try LabScripts.waitForListener(Lab.serverIPv4, port, from: lab.host) }
        }

        let capture = try LabPacketCapture(interface: "veth-server", in: lab.server, file: file)
        defer { capture.abandon() }
        let leaf = HandshakeCertificates.leafName
        for service in services {
            let sClient = { (port: Int, options: [String]) in
                "echo | timeout 20 openssl s_client -connect \(Lab.serverIPv4):\(port) -starttls \(service.protocolName) "
                    + "-servername \(leaf) -xmpphost \(leaf) " + options.joined(separator: " ")
            }
            for version in ["-tls1_2", "-tls1_3"] {
                try HandshakeCapture.client(["sh", "-c", sClient(service.port, [version])], in: lab.host)
            }
            try HandshakeCapture.client(["sh", "-c", sClient(service.refusingPort, [])], in: lab.host, mayFail: true)
        }
        try HandshakeCapture.client(["timeout", "20", "swaks", "--to", "postmaster@\(leaf)", "--server", "\(Lab.serverIPv4):25",
                                     "--tls", "--tls-sni", leaf, "--quit-after", "TLS"], in: lab.host)
        // Every connection ended (both FINs, or a reset: a refused client's unread bytes, swaks
        // leaving without close_notify) and dumpcap wrote every packet: nothing is cut from the capture.
        try LabConnections.waitUntilEnded(in: lab.host)
        try capture.waitUntilWritten()
        let received = try capture.stop()
        let written = try Tshark.fields(["frame.number"], of: file).count
        guard written == received else { throw HandshakeCapture.Failed(description: "dumpcap saw \(received) packets, the file holds \(written)") }
        return file
    }
}
