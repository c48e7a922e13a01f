import Foundation
import TestSupport
import Testing

/// Captures Zeek's test suite publishes (`Tests/Captures/README.md`), read by `analyze` and checked
/// against Zeek's own baseline and an outside reading of the same bytes.
@Suite struct ZeekTraceTests {
    static let captures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Captures/zeek").standardized

    /// Reassembles the server's side of the capture's first TCP stream (tshark's `follow`), joins
    /// the handshake fragments of its TLS records, and reads the Certificate message's certificates
    /// with Python's `cryptography`.
    static let certificateOracle = #"""
        import json, subprocess, sys
        from cryptography import x509
        out = subprocess.run(["tshark", "-r", sys.argv[1], "-q", "-z", "follow,tcp,raw,0"],
                             capture_output=True, text=True, check=True).stdout
        server = bytes.fromhex("".join(l.strip() for l in out.splitlines()
                                       if l.startswith("\t") and not l.startswith("\t=")))
        handshake, at = b"", 0
        while at + 5 <= len(server) and server[at] in (20, 21, 22, 23):
            kind, length = server[at], int.from_bytes(server[at + 3:at + 5], "big")
            if kind == 22: handshake += server[at + 5:at + 5 + length]
            at += 5 + length
        chain, at = [], 0
        while at + 4 <= len(handshake):
            kind, length = handshake[at], int.from_bytes(handshake[at + 1:at + 4], "big")
            body = handshake[at + 4:at + 4 + length]
            if kind == 11:
                offset = 3
                while offset < len(body):
                    size = int.from_bytes(body[offset:offset + 3], "big")
                    cert = x509.load_der_x509_certificate(body[offset + 3:offset + 3 + size])
                    chain.append({"subject": cert.subject.rfc4514_string(), "issuer": cert.issuer.rfc4514_string(),
                                  "notAfter": cert.not_valid_after_utc.strftime("%Y-%m-%dT%H:%M:%SZ"), "bytes": size})
                    offset += 3 + size
            at += 4 + length
        print(json.dumps(chain))
        """#

    @Test("a handshake split over 22 records and 300 segments, its certificate 330 KB with 10 000 names, is read whole")
    func fragmentedHandshakeIsRead() throws {
        let directory = TemporaryDirectory()
        let capture = directory.url.appendingPathComponent("tls-fragmented-handshake.pcap")
        let gunzip = try BuiltProduct.run(URL(fileURLWithPath: "/bin/sh"), [
            "-c", "gzip -dc \"$0\" > \"$1\"", Self.captures.appendingPathComponent("tls-fragmented-handshake.pcap.gz").path,
            capture.path])
        #expect(gunzip.status == 0, "\(gunzip.err)")
        let analysis = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["analyze", capture.path, "--json"])
        #expect(analysis.status == 0, "\(analysis.err)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(analysis.out.utf8)) as? [String: Any])
        let conversations = try #require(document["conversations"] as? [[String: Any]])
        #expect(conversations.count == 1)
        let conversation = try #require(conversations.first)

        // Zeek's baseline (ssl.log): TLSv12, TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384, server_name
        // 104.236.167.107 (an IP literal: no name, kept as sent), subject and issuer CN=Bro.
        let answer = try #require(conversation["serverAnswer"] as? [String: Any])
        #expect(answer["version"] as? Int == 0x0303)
        #expect(answer["cipherSuiteName"] as? String == "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384")
        #expect(conversation["name"] is NSNull)
        #expect((conversation["clientOffer"] as? [String: Any])?["serverNameAsSent"] as? String == "104.236.167.107")

        let expected = try #require(try PythonOracle.json(Self.certificateOracle, [capture.path]) as? [[String: Any]])
        #expect(expected.count == 1)
        #expect((expected.first?["bytes"] as? Int ?? 0) > 300_000, "the oracle read \(expected)")
        let certificates = try #require(conversation["certificates"] as? [String: Any])
        #expect(certificates["complete"] as? Bool == true)
        let chain = try #require(certificates["chain"] as? [[String: Any]])
        #expect(chain.count == expected.count)
        for (read, oracle) in zip(chain, expected) {
            #expect(read["subject"] as? String == "CN=Bro")
            #expect(read["subject"] as? String == oracle["subject"] as? String)
            #expect(read["issuer"] as? String == oracle["issuer"] as? String)
            #expect(read["notAfter"] as? String == oracle["notAfter"] as? String)
        }
    }
}
