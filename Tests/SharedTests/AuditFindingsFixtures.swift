import Foundation
import Shared

/// The rows the findings tables name, built directly (no store): a flow with just the readings a
/// row is about, a project with an allowlist, a session.
enum AuditFindingsFixtures {
    static let start = Date(timeIntervalSince1970: 1_750_000_000)
    static let device = IPEndpoint(address: IPAddress(ipv4: 0x0A07_0002), port: 50_000)
    static let environment = AuditEnvironment(deviceModel: "lab", osVersion: "Linux 6.1", toolVersion: "test")

    /// Flow `id`, first seen `second`s after `start`; plaintext TCP to port 443 unless told otherwise.
    static func flow(_ id: Int64, at second: Double = 0, proto: IPProtocolNumber = .tcp, port: UInt16 = 443,
                     status: TLSInspectionStatus = .plaintext, sni: String? = nil, dns: ResolvedFlowName? = nil,
                     server: ServerTLSAnswer? = nil, offer: ClientTLSOffer? = nil, quic: QUICVersionReading? = nil,
                     opening: StreamOpening? = nil, leaf: NegotiatedTLS? = nil) -> StoredFlow {
        let remote = IPEndpoint(address: IPAddress(ipv4: 0xC633_6407), port: port)
        return StoredFlow(id: id, key: FlowKey(proto: proto, source: device, destination: remote),
                          firstSeen: start.addingTimeInterval(second), tlsStatus: status, sni: sni, resolvedName: dns,
                          serverTLS: server, clientTLS: offer, quic: quic, streamOpening: opening, leafTLS: leaf)
    }

    static func negotiated(_ version: TLSProtocolVersion, _ source: TLSAnswerSource) -> ServerTLSAnswer {
        .negotiated(NegotiatedTLS(version: version, cipherSuite: TLSCipherSuite(rawValue: 0x1301), fromHelloRetryRequest: false,
                                  source: source))
    }

    static func listed(_ versions: TLSProtocolVersion...) -> ClientTLSOffer {
        ClientTLSOffer(versions: .listed(versions))
    }

    static func project(_ patterns: String...) throws -> AuditProject {
        AuditProject(id: 1, name: "Health app",
                     allowlist: try patterns.map { AllowlistEntry(pattern: try DomainPattern(parsing: $0)) }, createdAt: start)
    }

    static func session(id: Int64 = 5, kind: AuditSessionKind = .audit(AppRelease(version: "2.4.0", build: "311")),
                        inspection: Bool = true, trusted: Bool = true) -> AuditSession {
        AuditSession(id: id, projectID: 1, kind: kind, environment: environment,
                     inspection: InspectionConditions(inspectionEnabled: inspection, caTrusted: trusted), startedAt: start)
    }

    static let minimum = TLSProtocolVersion.tls12
    static let policy = FindingsPolicy(minimumTLSVersion: .tls12)!
}
