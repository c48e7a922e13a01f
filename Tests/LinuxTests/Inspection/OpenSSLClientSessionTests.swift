#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Linux
import PacketTunnel
import Shared
import Testing

/// Our client session — the leg toward the real server — against `openssl s_server` on loopback,
/// verifying with a lab CA file (`--upstream-ca`).
@Suite("An OpenSSL client session against openssl s_server")
struct OpenSSLClientSessionTests {
    let host = "upstream.test"
    let certificates: InspectionCertificates

    init() throws {
        certificates = try InspectionCertificates()
        try certificates.leaf("good", host: host)
        try certificates.leaf("expired", host: host, days: -1)
    }

    /// `s_server -www` on 127.0.0.1, one connection, and the port it listens on.
    func server(leaf: String, _ extra: [String]) throws -> (PeerProgram, UInt16) {
        let server = try PeerProgram(["openssl", "s_server", "-accept", "127.0.0.1:0", "-naccept", "1", "-www",
                                      "-cert", certificates.path("\(leaf).pem"), "-key", certificates.path("\(leaf).key")] + extra)
        #expect(server.waitFor("ACCEPT"), "s_server did not start: \(server.standardError)")
        let line = server.standardOutput.split(separator: "\n").first { $0.hasPrefix("ACCEPT ") } ?? ""
        let port = try #require(UInt16(line.split(separator: ":").last ?? ""), "no port in \(server.standardOutput)")
        return (server, port)
    }

    func session(trusting root: String) throws -> OpenSSLSessionFactory {
        try OpenSSLSessionFactory(mint: { host in throw Loopback.Failure(description: "no leaf for \(host) in a client test") },
                                  upstreamTrust: .file(URL(fileURLWithPath: root)))
    }

    @Test("verified with the lab CA, the version and cipher are the ones s_server reports, ALPN is its pick",
          arguments: [("-tls1_3", TLSProtocolVersion.tls13), ("-tls1_2", TLSProtocolVersion.tls12)])
    func verifiedHandshake(flag: String, version: TLSProtocolVersion) throws {
        let (server, port) = try server(leaf: "good", [flag, "-alpn", "h2"])
        let session = try session(trusting: certificates.root).makeClient(host: host, applicationProtocols: ["h2", "http/1.1"])
        let record = shuttle(session, over: try Loopback.connect(port: port), cues: [
            ShuttleCue(condition: .established, plaintext: Data("GET / HTTP/1.0\r\n\r\n".utf8)),
        ])
        server.finish()
        let page = String(decoding: record.plaintext, as: UTF8.self)
        #expect(record.established)
        #expect(page.hasPrefix("HTTP/1.0 200 ok"), "\(page.prefix(200))")
        #expect(record.ended == nil && record.peerClosed)
        #expect(session.applicationProtocol == "h2")
        let reported = try #require(OpenSSLCipherNames.reported(in: page), "s_server's page names no cipher")
        #expect(session.negotiated?.version == version)
        #expect(reported.version == (version == .tls13 ? "TLSv1.3" : "TLSv1.2"))
        #expect(session.negotiated?.cipherSuite.rawValue == (try OpenSSLCipherNames.codePoints())[reported.cipher])
        #expect(session.negotiated?.source == .upstreamConnection)
    }

    // s_server's SNI switch moves the session to its second context, which has no ALPN callback:
    // hence a test of its own.
    @Test("the host name reaches s_server as SNI")
    func serverNameIndication() throws {
        let (server, port) = try server(leaf: "good", ["-servername", host, "-servername_fatal",
                                                      "-cert2", certificates.path("good.pem"), "-key2", certificates.path("good.key")])
        let session = try session(trusting: certificates.root).makeClient(host: host, applicationProtocols: [])
        let record = shuttle(session, over: try Loopback.connect(port: port), cues: [
            ShuttleCue(condition: .established, plaintext: Data("GET / HTTP/1.0\r\n\r\n".utf8)),
        ])
        server.finish()
        #expect(record.established)
        #expect(server.standardOutput.contains("Hostname in TLS extension: \"\(host)\""), "\(server.standardOutput)")
    }

    @Test("an IP-literal host is verified against the leaf's iPAddress name, and no SNI is sent for it (RFC 6066 §3)")
    func ipLiteralHost() throws {
        try certificates.leaf("address", host: "127.0.0.1", alternativeName: "IP:127.0.0.1")
        let (server, port) = try server(leaf: "address", ["-servername", "unused.test", "-cert2", certificates.path("good.pem"),
                                                         "-key2", certificates.path("good.key")])
        let byAddress = try session(trusting: certificates.root).makeClient(host: "127.0.0.1", applicationProtocols: [])
        let record = shuttle(byAddress, over: try Loopback.connect(port: port), cues: [
            ShuttleCue(condition: .established, plaintext: Data("GET / HTTP/1.0\r\n\r\n".utf8)),
        ])
        server.finish()
        #expect(record.established)
        #expect(!server.standardOutput.contains("Hostname in TLS extension"), "\(server.standardOutput)")

        let (other, otherPort) = try self.server(leaf: "address", [])
        let mismatched = try session(trusting: certificates.root).makeClient(host: "127.0.0.2", applicationProtocols: [])
        let refused = shuttle(mismatched, over: try Loopback.connect(port: otherPort))
        other.finish()
        #expect(refused.ended == .verificationFailed("IP address mismatch"))
    }

    @Test("a server whose leaf names another host fails verification with the host mismatch")
    func wrongHost() throws {
        let (server, port) = try server(leaf: "good", [])
        let session = try session(trusting: certificates.root).makeClient(host: "elsewhere.test", applicationProtocols: [])
        let record = shuttle(session, over: try Loopback.connect(port: port))
        server.finish()
        #expect(record.ended == .verificationFailed("hostname mismatch"))
        #expect(!record.established)
    }

    @Test("a server signed by a CA we do not trust fails verification: unable to get local issuer certificate")
    func untrustedIssuer() throws {
        let (server, port) = try server(leaf: "good", [])
        let session = try session(trusting: certificates.otherRoot).makeClient(host: host, applicationProtocols: ["h2"])
        let record = shuttle(session, over: try Loopback.connect(port: port))
        server.finish()
        #expect(record.ended == .verificationFailed("unable to get local issuer certificate"))
    }

    @Test("a server presenting an expired leaf fails verification: certificate has expired")
    func expiredLeaf() throws {
        let (server, port) = try server(leaf: "expired", [])
        let session = try session(trusting: certificates.root).makeClient(host: host, applicationProtocols: [])
        let record = shuttle(session, over: try Loopback.connect(port: port))
        server.finish()
        #expect(record.ended == .verificationFailed("certificate has expired"))
    }

    @Test("an upstream CA file that is not PEM is refused when the factory is made, with what to give instead")
    func unreadableTrustFile() throws {
        let bogus = certificates.path("bogus.pem")
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: bogus))
        #expect {
            _ = try OpenSSLSessionFactory(mint: { _ in throw Loopback.Failure(description: "unused") },
                                          upstreamTrust: .file(URL(fileURLWithPath: bogus)))
        } throws: { error in
            (error as? TLSSessionFailure)?.description.contains("--upstream-ca") == true
        }
    }
}
