import Foundation
import Shared

/// What `tunnelvision analyze` prints about a capture: each conversation with its name and where
/// the name came from, the client's offer, the server's answer and the certificate chain where
/// it travelled in the clear. Pure: given the analysis, it returns text or JSON.
package struct AnalysisReport: Sendable {
    package let analysis: AnalyzedCapture

    package init(_ analysis: AnalyzedCapture) {
        self.analysis = analysis
    }

    typealias Conversation = AnalyzedCapture.Conversation
    var file: String { analysis.path }
    var conversations: [Conversation] { analysis.conversations }

    // MARK: - Text

    package func text() -> String {
        var lines = ["\(file): \(analysis.packets) packets, \(conversations.count) conversations"
                     + (analysis.nonIPFrames > 0 ? ", \(analysis.nonIPFrames) frames not IP" : "")
                     + (analysis.unreadablePackets > 0 ? ", \(analysis.unreadablePackets) unreadable" : "")]
        for conversation in conversations {
            let record = conversation.record
            let name = record.name.map { "\($0.text) (\(conversation.nameSource ?? ""))" } ?? "unnamed"
            lines.append("")
            lines.append("\(record.key.proto.displayName) \(conversation.clientEndpoint) → \(conversation.serverEndpoint)  \(name)")
            lines.append("    \(record.packetCount) packets, \(ByteCountText.binary(record.bytesOut)) from the client, "
                         + "\(ByteCountText.binary(record.bytesIn)) from the server")
            if let others = record.name?.otherCandidates, !others.isEmpty {
                lines.append("    the address also answered for: \(others.joined(separator: ", "))")
            }
            if let target = record.proxyTarget { lines.append("    proxy: \(ProxyTargetWording.text(target))") }
            if let opening = record.streamOpening { lines.append("    opened with: \(Self.text(opening))") }
            if let quic = record.quic { lines.append("    QUIC version: \(Self.hex(quic.version.rawValue, digits: 8))") }
            if let offer = record.clientTLS { lines.append("    client offered: \(Self.text(offer))") }
            if let answer = record.serverTLS { lines.append("    server answered: \(Self.text(answer))") }
            for fact in TLSFingerprintWording.facts(client: record.clientFingerprints, server: record.serverFingerprints) {
                lines.append("    \(fact.label): \(fact.value)")
            }
            if let certificates = conversation.certificates { lines += Self.text(certificates) }
        }
        if let damage = analysis.damage { lines.append("\nthe file is damaged from \(damage); what came before it is shown") }
        if let drops = Self.text(analysis.outOfOrderDrops) { lines.append("\n" + drops) }
        return lines.joined(separator: "\n")
    }

    /// The out-of-order data not held, when there was some.
    static func text(_ drops: OutOfOrderDrops) -> String? {
        guard drops.segments > 0 else { return nil }
        return "out-of-order data beyond what the scanners read: \(drops.segments) segments, \(drops.bytes) bytes not held"
            + " (a handshake behind them is not read)"
    }

    static func versionName(_ version: TLSProtocolVersion) -> String { version.name }

    static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    static func text(_ opening: StreamOpening) -> String {
        switch opening {
        case .tlsHandshake: "a TLS handshake"
        case .httpRequest: "an HTTP request"
        case .unrecognised: "something else"
        case .smtpStartTLS: "SMTP, then TLS after STARTTLS"
        case .imapStartTLS: "IMAP, then TLS after STARTTLS"
        case .pop3STLS: "POP3, then TLS after STLS"
        case .ftpAuthTLS: "FTP, then TLS after AUTH TLS"
        case .xmppStartTLS: "XMPP, then TLS after <starttls/>"
        case .ldapStartTLS: "LDAP, then TLS after the StartTLS operation"
        case .postgresSSLRequest: "PostgreSQL, then TLS after an SSLRequest"
        }
    }

    static func text(_ offer: ClientTLSOffer) -> String {
        var parts: [String]
        switch offer.versions {
        case .listed(let versions): parts = [versions.map(versionName).joined(separator: ", ")]
        case .upTo(let version): parts = ["up to \(versionName(version))"]
        }
        if !offer.applicationProtocols.isEmpty { parts.append("ALPN " + offer.applicationProtocols.joined(separator: ", ")) }
        if offer.omittedApplicationProtocols > 0 { parts.append("\(offer.omittedApplicationProtocols) ALPN names not shown") }
        if offer.hasEncryptedClientHello { parts.append("Encrypted ClientHello (this is the outer hello)") }
        if let sent = offer.serverNameAsSent { parts.append("server name sent \"\(sent)\", which is no host name") }
        return parts.joined(separator: " · ")
    }

    static func text(_ answer: ServerTLSAnswer) -> String {
        switch answer {
        case .negotiated(let negotiated):
            versionName(negotiated.version) + " · cipher suite " + text(negotiated.cipherSuite)
                + (negotiated.fromHelloRetryRequest ? " (HelloRetryRequest)" : "")
        case .refused(let alert): "refused with alert \(alert)"
        }
    }

    /// "TLS_AES_128_GCM_SHA256 (0x1301)", or the bare code point when the suite has no known name.
    static func text(_ suite: TLSCipherSuite) -> String {
        let code = hex(UInt32(suite.rawValue), digits: 4)
        return suite.ianaName.map { "\($0) (\(code))" } ?? code
    }

    static func text(_ visibility: ServerCertificateVisibility) -> [String] {
        var lines = ["    certificates: " + summary(visibility)]
        if case .presented(let chain) = visibility { lines += chainLines(chain) }
        return lines
    }

    /// Each certificate's subject, and under it who issued it and until when.
    static func chainLines(_ chain: ServerCertificateChain) -> [String] {
        chain.certificates.flatMap { ["      \($0.subject.text)", "        " + issuance($0)] }
    }

    /// What could be seen of the server's certificates, in a few words: "3 presented",
    /// "encrypted (TLS 1.3)"…
    static func summary(_ visibility: ServerCertificateVisibility) -> String {
        switch visibility {
        case .presented(let chain):
            "\(chain.certificates.count) presented" + (chain.isComplete ? "" : " (only the first ones were read)")
        case .notSent(let absence): "none sent (\(absence.rawValue))"
        case .encryptedInHandshake: "encrypted (TLS 1.3)"
        case .replacedByInspection: "replaced by inspection"
        case .noNegotiation: "no handshake completed"
        case .notRead: "not read"
        }
    }

    /// "issued by CN=…, valid until 2027-…Z".
    static func issuance(_ certificate: ServerCertificate) -> String {
        "issued by \(certificate.issuer.text), valid until \(UTCTimestamp.iso8601(certificate.notAfter))"
    }
}

extension AnalyzedCapture.Conversation {
    var clientEndpoint: IPEndpoint { client ?? record.key.endpointA }
    var serverEndpoint: IPEndpoint {
        clientEndpoint == record.key.endpointA ? record.key.endpointB : record.key.endpointA
    }

    /// Where the shown name came from: the connection's own server_name ("sni", or "quic" when a
    /// QUIC Initial carried it), a proxy request's target ("proxy") or a DNS answer ("dns").
    var nameSource: String? {
        Self.nameSource(of: record.name, proto: record.key.proto)
    }

    /// `nameSource` for a name already read from the record (the name is made from four facts).
    static func nameSource(of name: FlowName?, proto: IPProtocolNumber) -> String? {
        name.map { FlowNameSource($0, proto: proto).rawValue }
    }

    var certificates: ServerCertificateVisibility? {
        Self.certificates(answer: record.serverTLS, reading: record.serverCertificates)
    }

    /// What could be seen of the server's certificates; nil for a conversation with no TLS answer
    /// and no certificates read (not TLS at all).
    static func certificates(answer: ServerTLSAnswer?, reading: ServerCertificateReading?) -> ServerCertificateVisibility? {
        guard answer != nil || reading != nil else { return nil }
        return ServerCertificateVisibility(answer: answer, reading: reading)
    }
}
