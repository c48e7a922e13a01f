import Foundation
import Shared

/// The rows the release diff's tables name, built directly (no store): flows by what they carry,
/// sessions by kind, start and end, projects by their allowlist.
enum ReleaseDiffFixtures {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let environment = AuditEnvironment(deviceModel: "lab", osVersion: "Linux 6.1", toolVersion: "test")

    /// A flow `id` seconds after `start` unless `at` says otherwise.
    static func flow(_ id: Int64, at second: Double? = nil, sni: String? = nil, dns: String? = nil, others: [String] = [],
                     tls: TLSProtocolVersion? = nil, source: TLSAnswerSource = .serverHello, refused: Bool = false,
                     quic: QUICVersion? = nil, quicFrom: QUICVersionSource = .server) -> StoredFlow {
        let key = FlowKey(proto: quic == nil ? .tcp : .udp,
                          source: IPEndpoint(address: IPAddress(ipv4: 0xC612_0002), port: UInt16(40_000 + id % 1000)),
                          destination: IPEndpoint(address: IPAddress(ipv4: 0xCB00_7101), port: 443))
        let answer: ServerTLSAnswer? = refused ? .refused(alert: 70)
            : tls.map { .negotiated(NegotiatedTLS(version: $0, cipherSuite: TLSCipherSuite(rawValue: 0x1301),
                                                  fromHelloRetryRequest: false, source: source)) }
        return StoredFlow(id: id, key: key, firstSeen: start.addingTimeInterval(second ?? Double(id)),
                          tlsStatus: tls == nil && quic == nil ? .plaintext : .encrypted, sni: sni,
                          resolvedName: dns.map { ResolvedFlowName(name: $0, otherNames: others) }, serverTLS: answer,
                          quic: quic.map { QUICVersionReading(version: $0, source: quicFrom) })
    }

    /// An ended audit session of release `version` (a baseline when nil), started `at` seconds in.
    static func session(_ id: Int64, project: Int64 = 1, version: String? = "1.0", at second: Double = 0,
                        ended: Bool = true) -> AuditSession {
        AuditSession(id: id, projectID: project, kind: version.map { .audit(AppRelease(version: $0, build: "1")) } ?? .baseline,
                     environment: environment, inspection: InspectionConditions(inspectionEnabled: false, caTrusted: false),
                     startedAt: start.addingTimeInterval(second), endedAt: ended ? start.addingTimeInterval(second + 60) : nil)
    }

    static func project(_ id: Int64 = 1, allowlist: [String] = []) throws -> AuditProject {
        AuditProject(id: id, name: "Health app",
                     allowlist: try allowlist.map { AllowlistEntry(pattern: try DomainPattern(parsing: $0), note: $0) },
                     createdAt: start)
    }
}
