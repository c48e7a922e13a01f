#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Linux
import PacketTunnel
import Shared
import Testing

/// Our server session — the leg toward the monitored app — against three independent TLS
/// clients over loopback: OpenSSL's `s_client`, Python's `ssl`, GnuTLS's `gnutls-cli`.
@Suite("An OpenSSL server session against real TLS clients")
struct OpenSSLServerSessionTests {
    let host = "inspect.test"
    let certificates: InspectionCertificates
    let factory: OpenSSLSessionFactory

    init() throws {
        certificates = try InspectionCertificates()
        try certificates.leaf("leaf", host: host)
        let minted = try certificates.minted("leaf", host: host)
        factory = try OpenSSLSessionFactory(mint: { _ in minted }, upstreamTrust: .file(URL(fileURLWithPath: certificates.root)))
    }

    @Test("openssl s_client trusting the root completes the handshake, plaintext crosses both ways and ALPN is the answer given",
          arguments: [("-tls1_3", TLSProtocolVersion.tls13), ("-tls1_2", TLSProtocolVersion.tls12)])
    func sClient(flag: String, version: TLSProtocolVersion) throws {
        let session = try factory.makeServer(host: host, applicationProtocol: "h2")
        let (listener, port) = try Loopback.listen()
        defer { close(listener) }
        let client = try PeerProgram(["openssl", "s_client", "-connect", "127.0.0.1:\(port)", flag, "-CAfile", certificates.root,
                                      "-servername", host, "-verify_return_error", "-verify_hostname", host,
                                      "-alpn", "h2,http/1.1", "-ign_eof"])
        client.write("ping from s_client\n")
        let record = shuttle(session, over: try Loopback.accept(listener), cues: [
            ShuttleCue(condition: .plaintextContains("ping from s_client\n"), plaintext: Data("pong from us\n".utf8), thenClose: true),
        ])
        client.closeInput()
        client.finish()
        let output = client.standardOutput
        #expect(record.established)
        #expect(record.ended == nil && record.peerClosed)
        #expect(String(decoding: record.plaintext, as: UTF8.self) == "ping from s_client\n")
        #expect(output.contains("pong from us"))
        #expect(output.contains("Verify return code: 0 (ok)"))
        #expect(output.contains("ALPN protocol: h2"))
        #expect(session.applicationProtocol == "h2")
        let reported = try #require(OpenSSLCipherNames.reported(in: output), "s_client printed no cipher: \(output)")
        #expect(session.negotiated?.version == version)
        #expect(session.negotiated?.cipherSuite.rawValue == (try OpenSSLCipherNames.codePoints())[reported.cipher])
        #expect(session.negotiated?.source == .upstreamConnection)
    }

    @Test("Python's ssl client verifies our leaf, is answered http/1.1, and its close_notify ends the session as closed by the peer",
          arguments: ["1.3", "1.2"])
    func pythonClient(maximum: String) throws {
        let session = try factory.makeServer(host: host, applicationProtocol: "http/1.1")
        let (listener, port) = try Loopback.listen()
        defer { close(listener) }
        let script = """
        import json, socket, ssl, sys
        context = ssl.create_default_context(cafile=sys.argv[2])
        if sys.argv[4] == "1.2":
            context.maximum_version = ssl.TLSVersion.TLSv1_2
        context.set_alpn_protocols(["h2", "http/1.1"])
        with socket.create_connection(("127.0.0.1", int(sys.argv[1]))) as raw:
            tls = context.wrap_socket(raw, server_hostname=sys.argv[3])
            tls.sendall(b"ping from python\\n")
            reply = b""
            while not reply.endswith(b"\\n"):
                reply += tls.recv(100)
            facts = {"version": tls.version(), "cipher": tls.cipher()[0], "alpn": tls.selected_alpn_protocol(),
                     "reply": reply.decode()}
            tls.unwrap()
            print(json.dumps(facts))
        """
        let client = try PeerProgram(["python3", "-c", script, "\(port)", certificates.root, host, maximum])
        let record = shuttle(session, over: try Loopback.accept(listener), cues: [
            ShuttleCue(condition: .plaintextContains("ping from python\n"), plaintext: Data("pong from us\n".utf8)),
        ])
        #expect(client.finish() == 0, "python: \(client.standardError)")
        let facts = try #require(try JSONSerialization.jsonObject(with: Data(client.standardOutput.utf8)) as? [String: String])
        #expect(record.ended == nil && record.peerClosed)
        #expect(facts["reply"] == "pong from us\n")
        #expect(facts["alpn"] == "http/1.1")
        #expect(facts["version"] == (maximum == "1.2" ? "TLSv1.2" : "TLSv1.3"))
        #expect(session.negotiated?.version == (maximum == "1.2" ? .tls12 : .tls13))
        #expect(session.negotiated?.cipherSuite.rawValue == (try OpenSSLCipherNames.codePoints())[facts["cipher"] ?? ""])
    }

    @Test("gnutls-cli trusting the root completes the handshake at TLS 1.3 and 1.2 and gets our reply",
          arguments: ["NORMAL", "NORMAL:-VERS-ALL:+VERS-TLS1.2"])
    func gnutlsClient(priority: String) throws {
        let session = try factory.makeServer(host: host, applicationProtocol: "h2")
        let (listener, port) = try Loopback.listen()
        defer { close(listener) }
        let client = try PeerProgram(["gnutls-cli", "--x509cafile", certificates.root, "--verify-hostname", host,
                                      "--sni-hostname", host, "--alpn", "h2", "--alpn", "http/1.1", "--priority", priority,
                                      "-p", "\(port)", "127.0.0.1"])
        client.write("ping from gnutls\n")
        let record = shuttle(session, over: try Loopback.accept(listener), cues: [
            ShuttleCue(condition: .plaintextContains("ping from gnutls\n"), plaintext: Data("pong from us\n".utf8), thenClose: true),
        ])
        client.closeInput()
        client.finish()
        #expect(record.established)
        #expect(String(decoding: record.plaintext, as: UTF8.self) == "ping from gnutls\n")
        #expect(client.standardOutput.contains("pong from us"), "gnutls-cli: \(client.standardOutput) \(client.standardError)")
        #expect(client.standardOutput.contains("Application protocol: h2") || client.standardError.contains("Application protocol: h2"))
        #expect(session.negotiated?.version == (priority == "NORMAL" ? .tls13 : .tls12))
    }

    @Test("a client that does not trust our root refuses with an alert, and the session ends with the code it sent",
          arguments: ["-tls1_2", "-tls1_3"])
    func untrustingClient(flag: String) throws {
        let session = try factory.makeServer(host: host, applicationProtocol: nil)
        let (listener, port) = try Loopback.listen()
        defer { close(listener) }
        let client = try PeerProgram(["openssl", "s_client", "-connect", "127.0.0.1:\(port)", flag, "-CAfile", certificates.otherRoot,
                                      "-servername", host, "-verify_return_error"])
        let record = shuttle(session, over: try Loopback.accept(listener))
        client.closeInput()
        client.finish()
        #expect(!record.established)
        #expect(client.standardError.contains("unable to get local issuer certificate") ||
                client.standardOutput.contains("unable to get local issuer certificate"))
        if flag == "-tls1_2" {
            // TLS 1.2's alert travels unencrypted: read the code off the wire, as the client sent it.
            let sent = try #require(Self.lastPlainAlert(in: record.fromPeer), "no cleartext alert among \(record.fromPeer.count) bytes")
            #expect(record.ended == .alertFromPeer(TLSAlertDescription(sent)))
        } else {
            #expect(record.ended == .alertFromPeer(.unknownCA))  // unknown_ca: OpenSSL's word for an unknown issuer
        }
    }

    /// The description byte of the last unencrypted alert record (type 21, length 2).
    static func lastPlainAlert(in stream: Data) -> UInt8? {
        let bytes = [UInt8](stream)
        var index = 0
        var found: UInt8?
        while index + 5 <= bytes.count {
            let length = Int(bytes[index + 3]) << 8 | Int(bytes[index + 4])
            if bytes[index] == 21, length == 2, index + 7 <= bytes.count { found = bytes[index + 6] }
            index += 5 + length
        }
        return found
    }
}
