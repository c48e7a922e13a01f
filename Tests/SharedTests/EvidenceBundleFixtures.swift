import Foundation
import Shared

/// One ended audit session built by hand (no store) with a flow for each kind of reading the
/// documents write, and one with none at all.
enum EvidenceBundleFixtures {
    static let start = Date(timeIntervalSince1970: 1_796_005_130.25)
    static let exportedAt = Date(timeIntervalSince1970: 1_796_090_000.5)
    static let device = IPAddress(ipv4: 0x0A07_0002)

    static func endpoint(_ address: String, _ port: UInt16) -> IPEndpoint {
        IPEndpoint(address: IPAddress(parsing: address)!, port: port)
    }

    static func key(_ proto: IPProtocolNumber, _ port: UInt16, server: String = "198.51.100.7", local: UInt16 = 50_000) -> FlowKey {
        FlowKey(proto: proto, source: IPEndpoint(address: device, port: local), destination: endpoint(server, port))
    }

    static func project() throws -> AuditProject {
        AuditProject(id: 3, name: "Health app", bundleIdentifier: "org.example.health",
                     allowlist: [AllowlistEntry(pattern: try DomainPattern(parsing: "*.lab.test"), note: "the app's API"),
                                 AllowlistEntry(pattern: try DomainPattern(parsing: "cdn.example"))],
                     createdAt: start.addingTimeInterval(-86_400))
    }

    static func session(id: Int64 = 9, projectID: Int64 = 3, ended: Bool = true) -> AuditSession {
        AuditSession(id: id, projectID: projectID, kind: .audit(AppRelease(version: "2.4.0", build: "311")),
                     environment: AuditEnvironment(deviceModel: "QEMU Standard PC", osVersion: "Linux 6.1.0", toolVersion: "0.1.0"),
                     inspection: InspectionConditions(inspectionEnabled: true, caTrusted: true), startedAt: start,
                     endedAt: ended ? start.addingTimeInterval(600) : nil, notes: "clean machine, \"fresh\" install")
    }

    static let markers = [
        SessionMarker(id: 2, sessionID: 9, date: start.addingTimeInterval(30), kind: .consentGiven),
        SessionMarker(id: 1, sessionID: 9, date: start.addingTimeInterval(10), kind: .custom("opened the diary")),
        // Another session's: not this bundle's.
        SessionMarker(id: 7, sessionID: 4, date: start.addingTimeInterval(5), kind: .loggedIn),
    ]

    static let chain = ServerCertificateChain(certificates: [
        ServerCertificate(subject: CertificateName(text: "CN=api.lab.test"), issuer: CertificateName(text: "CN=Lab CA"),
                          notAfter: Date(timeIntervalSince1970: 1_830_000_000)),
        ServerCertificate(subject: CertificateName(text: "CN=Lab CA"), issuer: CertificateName(text: "CN=Lab Root, O=Lab", isTruncated: true),
                          notAfter: Date(timeIntervalSince1970: 1_900_000_000)),
    ], isComplete: false)

    /// Ids 11…17, first seen in that order but given out of it.
    static func flows() -> [StoredFlow] {
        let at = { (second: Double) in start.addingTimeInterval(second) }
        let tls12 = ServerTLSAnswer.negotiated(NegotiatedTLS(version: .tls12, cipherSuite: TLSCipherSuite(rawValue: 0xC02F),
                                                             fromHelloRetryRequest: false, source: .serverHello))
        let tls10 = ServerTLSAnswer.negotiated(NegotiatedTLS(version: .tls10, cipherSuite: TLSCipherSuite(rawValue: 0x00FF),
                                                             fromHelloRetryRequest: false, source: .serverHello))
        return [
            // HTTPS to an allowed host at TLS 1.2 with its chain read, after consent.
            StoredFlow(id: 12, key: key(.tcp, 443), firstSeen: at(40), lastSeen: at(42.5), bytesOut: 517, bytesIn: 4_096,
                       packetCount: 12, tlsStatus: .encrypted, sni: "api.lab.test",
                       resolvedName: ResolvedFlowName(name: "api.lab.test", otherNames: ["www.lab.test"]), serverTLS: tls12,
                       clientTLS: ClientTLSOffer(versions: .listed([.tls13, .tls12]), applicationProtocols: ["h2", "http/1.1"]),
                       serverCertificates: .chain(chain), streamOpening: .tlsHandshake),
            // Cleartext HTTP before consent, named by DNS only.
            StoredFlow(id: 11, key: key(.tcp, 80, local: 50_001), firstSeen: at(20), lastSeen: at(21), bytesOut: 300, bytesIn: 900,
                       packetCount: 6, tlsStatus: .plaintext, resolvedName: ResolvedFlowName(name: "=tracker.example"),
                       streamOpening: .httpRequest),
            // QUIC v1 read from the server.
            StoredFlow(id: 13, key: key(.udp, 443, server: "2001:db8::7"), firstSeen: at(50), packetCount: 4, tlsStatus: .encrypted,
                       sni: "cdn.example", quic: QUICVersionReading(version: .v1, source: .server)),
            // Refused with an alert, after a hello that named only a ceiling.
            StoredFlow(id: 14, key: key(.tcp, 443, local: 50_002), firstSeen: at(60), tlsStatus: .encrypted, sni: "old.lab.test",
                       serverTLS: .refused(alert: 70), clientTLS: ClientTLSOffer(versions: .upTo(.tls10), hasEncryptedClientHello: true)),
            // TLS 1.0 chosen by the server: a weak version; a resumed session sent no certificate.
            StoredFlow(id: 15, key: key(.tcp, 443, local: 50_003), firstSeen: at(70), tlsStatus: .notInspectable, sni: "legacy.lab.test",
                       serverTLS: tls10, serverCertificates: .notSent(.resumedSession), streamOpening: .tlsHandshake),
            // ICMP: nothing read at all.
            StoredFlow(id: 16, key: key(.icmp, 0), firstSeen: at(80), tlsStatus: .plaintext),
            // A protocol with no name (GRE).
            StoredFlow(id: 17, key: key(IPProtocolNumber(rawValue: 47), 0), firstSeen: at(90), tlsStatus: .plaintext),
        ]
    }

    static func catalogue() throws -> RequirementCatalogue {
        try RequirementCatalogueLibrary.catalogue(identifier: RequirementCatalogueLibrary.defaultIdentifier)
    }

    static func bundle(flows: [StoredFlow] = flows(), exportedAt: Date = exportedAt) throws -> EvidenceBundle {
        try EvidenceBundle(project: try project(), session: session(), markers: markers, flows: flows, catalogue: try catalogue(),
                           exportedAt: exportedAt)
    }
}
