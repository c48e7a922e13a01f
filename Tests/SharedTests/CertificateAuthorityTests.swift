import Foundation
import Testing
@testable import Shared

/// The CA's certificates judged by outside readers: `openssl verify` and `openssl x509 -text`, and
/// Python's `cryptography`. Nothing here reads them back with our own reader.
@Suite struct CertificateAuthorityTests {
    private static let day: TimeInterval = 86_400

    @Test("the root is a self-signed v3 CA: CA:TRUE and pathlen:0 critical, keyCertSign and cRLSign critical, ECDSA P-256 SHA-256")
    func rootAsOpenSSLReadsIt() throws {
        let ca = try CertificateAuthority.generate()
        let files = CertificateFiles()
        try files.certificate("root", ca.rootCertificateDER)
        let text = try files.text("root")
        for expected in ["Version: 3 (0x2)", "Signature Algorithm: ecdsa-with-SHA256", "ASN1 OID: prime256v1",
                         "X509v3 Basic Constraints: critical\n                CA:TRUE, pathlen:0",
                         "X509v3 Key Usage: critical\n                Certificate Sign, CRL Sign",
                         "X509v3 Subject Key Identifier", "Issuer: CN = TunnelVision Local CA",
                         "Subject: CN = TunnelVision Local CA"] {
            #expect(text.contains(expected), "missing \(expected) in\n\(text)")
        }
        let selfVerified = try files.verify("root", under: "root", ["-check_ss_sig"])
        #expect(selfVerified.ok, "\(selfVerified.output)")
    }

    @Test("a leaf verifies under its root for its host, and is refused for another host, under another root, and after it expires")
    func leafVerification() throws {
        let clock = TestClock(Date())
        let ca = try CertificateAuthority.generate(now: { clock.now })
        let other = try CertificateAuthority.generate()
        let files = CertificateFiles()
        try files.certificate("root", ca.rootCertificateDER)
        try files.certificate("other", other.rootCertificateDER)
        try files.leaf("leaf", try ca.mintLeaf(forHost: "shop.example.test"))

        let good = try files.verify("leaf", under: "root", ["-purpose", "sslserver", "-verify_hostname", "shop.example.test"])
        #expect(good.ok, "\(good.output)")
        let wrongHost = try files.verify("leaf", under: "root", ["-verify_hostname", "bank.example.test"])
        #expect(!wrongHost.ok && wrongHost.output.contains("hostname mismatch"), "\(wrongHost.output)")
        let wrongRoot = try files.verify("leaf", under: "other")
        #expect(!wrongRoot.ok && wrongRoot.output.contains("unable to get local issuer certificate"), "\(wrongRoot.output)")
        let afterExpiry = String(Int(clock.now.timeIntervalSince1970 + 31 * Self.day))
        let expired = try files.verify("leaf", under: "root", ["-attime", afterExpiry])
        #expect(!expired.ok && expired.output.contains("certificate has expired"), "\(expired.output)")
        // Backdated an hour: a client whose clock is 50 minutes behind still accepts it.
        let early = try files.verify("leaf", under: "root", ["-attime", String(Int(clock.now.timeIntervalSince1970 - 3_000))])
        #expect(early.ok, "\(early.output)")
    }

    @Test("a leaf carries SAN, serverAuth, a critical digitalSignature and CA:FALSE, and its key is the certificate's")
    func leafAsOpenSSLReadsIt() throws {
        let ca = try CertificateAuthority.generate()
        let files = CertificateFiles()
        try files.leaf("leaf", try ca.mintLeaf(forHost: "api.example.test", sans: ["cdn.example.test", "198.18.0.7", "fd00::7"]))
        let text = try files.text("leaf")
        for expected in ["DNS:api.example.test", "DNS:cdn.example.test", "IP Address:198.18.0.7", "IP Address:FD00:0:0:0:0:0:0:7",
                         "X509v3 Extended Key Usage: \n                TLS Web Server Authentication",
                         "X509v3 Key Usage: critical\n                Digital Signature",
                         "X509v3 Basic Constraints: critical\n                CA:FALSE", "X509v3 Authority Key Identifier",
                         "Subject: O = TunnelVision inspection, CN = api.example.test"] {
            #expect(text.contains(expected), "missing \(expected) in\n\(text)")
        }
        let certificateKey = try files.openssl(["x509", "-in", files.path("leaf.pem"), "-noout", "-pubkey"])
        let privateKey = try files.openssl(["pkey", "-in", files.path("leaf.key"), "-pubout"])
        #expect(certificateKey.status == 0 && privateKey.status == 0 && certificateKey.out == privateKey.out,
                "\(certificateKey.err) \(privateKey.err)")
    }

    @Test("an IP literal host becomes an iPAddress SAN (v4 and v6) that openssl matches")
    func ipLiteralHosts() throws {
        let ca = try CertificateAuthority.generate()
        let files = CertificateFiles()
        try files.certificate("root", ca.rootCertificateDER)
        try files.leaf("v4", try ca.mintLeaf(forHost: "198.18.3.4"))
        try files.leaf("v6", try ca.mintLeaf(forHost: "fd00::3:4"))
        #expect(try files.verify("v4", under: "root", ["-verify_ip", "198.18.3.4"]).ok)
        #expect(try files.verify("v6", under: "root", ["-verify_ip", "fd00::3:4"]).ok)
        #expect(!(try files.verify("v4", under: "root", ["-verify_ip", "198.18.3.5"]).ok))
        #expect(try files.text("v4").contains("IP Address:198.18.3.4") && !(try files.text("v4").contains("DNS:")))
    }

    @Test("Python's cryptography reads the root and a leaf, their extensions, and the leaf's signature by the root")
    func cryptographyReadsThem() throws {
        let ca = try CertificateAuthority.generate()
        let files = CertificateFiles()
        try files.certificate("root", ca.rootCertificateDER)
        try files.certificate("leaf", try ca.mintLeaf(forHost: "mail.example.test").certificateDER)
        let script = """
            import sys, os
            from cryptography import x509
            from cryptography.x509.oid import ExtendedKeyUsageOID
            d = sys.argv[1]
            root = x509.load_der_x509_certificate(open(os.path.join(d, "root.der"), "rb").read())
            leaf = x509.load_der_x509_certificate(open(os.path.join(d, "leaf.der"), "rb").read())
            bc = root.extensions.get_extension_for_class(x509.BasicConstraints)
            assert bc.critical and bc.value.ca and bc.value.path_length == 0, bc
            ku = root.extensions.get_extension_for_class(x509.KeyUsage)
            assert ku.critical and ku.value.key_cert_sign and ku.value.crl_sign and not ku.value.digital_signature, ku
            assert root.version == x509.Version.v3 and root.serial_number > 0
            from cryptography.hazmat.primitives.asymmetric import ec
            for child in (root, leaf):
                assert child.issuer == root.subject
                root.public_key().verify(child.signature, child.tbs_certificate_bytes, ec.ECDSA(child.signature_hash_algorithm))
            san = leaf.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
            assert san.get_values_for_type(x509.DNSName) == ["mail.example.test"], san
            eku = leaf.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
            assert list(eku) == [ExtendedKeyUsageOID.SERVER_AUTH], eku
            lku = leaf.extensions.get_extension_for_class(x509.KeyUsage)
            assert lku.critical and lku.value.digital_signature and not lku.value.key_cert_sign
            aki = leaf.extensions.get_extension_for_class(x509.AuthorityKeyIdentifier).value
            ski = root.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
            assert aki.key_identifier == ski.digest
            assert ski.digest == x509.SubjectKeyIdentifier.from_public_key(root.public_key()).digest
            assert (leaf.not_valid_after - leaf.not_valid_before).days == 30
            print("ok")
            """
        let result = try files.python(script)
        #expect(result.status == 0 && result.out == "ok\n", "\(result.err)")
    }

    @Test("a second mint for a host answers the cached leaf and mints nothing; clearing the cache mints anew")
    func cachePerHost() throws {
        let ca = try CertificateAuthority.generate()
        let first = try ca.mintLeaf(forHost: "a.example.test")
        #expect(try ca.mintLeaf(forHost: "a.example.test") == first)
        #expect(try ca.mintLeaf(forHost: "A.Example.Test").certificateDER == first.certificateDER)
        #expect(ca.leavesMinted == 1)
        let other = try ca.mintLeaf(forHost: "b.example.test")
        #expect(ca.leavesMinted == 2)
        #expect(other.privateKeyDER != first.privateKeyDER && other.certificateDER != first.certificateDER)
        ca.clearLeafCache()
        let again = try ca.mintLeaf(forHost: "a.example.test")
        #expect(ca.leavesMinted == 3 && again.certificateDER != first.certificateDER && again.privateKeyDER != first.privateKeyDER)
    }

    @Test("distinct leaves have distinct, positive 16-byte serials and distinct keys (openssl reads them)")
    func distinctSerials() throws {
        let ca = try CertificateAuthority.generate()
        let files = CertificateFiles()
        var serials: Set<String> = []
        var keys: Set<Data> = []
        for index in 0..<8 {
            let minted = try ca.mintLeaf(forHost: "h\(index).example.test")
            try files.certificate("l\(index)", minted.certificateDER)
            let serial = try files.openssl(["x509", "-in", files.path("l\(index).pem"), "-noout", "-serial"]).out
            #expect(serial.hasPrefix("serial=") && serial.count == "serial=".count + 32 + 1, "\(serial)")
            serials.insert(serial)
            keys.insert(minted.privateKeyDER)
        }
        #expect(serials.count == 8 && keys.count == 8)
    }

    @Test("a cached leaf near its expiry is replaced by a fresh one that verifies at that time")
    func renewalNearExpiry() throws {
        let clock = TestClock(Date())
        let ca = try CertificateAuthority.generate(now: { clock.now })
        let first = try ca.mintLeaf(forHost: "long.example.test")
        clock.advance(29.5 * Self.day)
        let renewed = try ca.mintLeaf(forHost: "long.example.test")
        #expect(renewed != first && ca.leavesMinted == 2)
        let files = CertificateFiles()
        try files.certificate("root", ca.rootCertificateDER)
        try files.certificate("renewed", renewed.certificateDER)
        let later = String(Int(clock.now.timeIntervalSince1970 + 5 * Self.day))
        #expect(try files.verify("renewed", under: "root", ["-attime", later]).ok)
    }

    @Test("an empty, unprintable or oversized host is refused with a typed error, and nothing is minted")
    func badHosts() throws {
        let ca = try CertificateAuthority.generate()
        for host in ["", "a b.example", "é.example", "evil\u{0}.example", "line\n.example", ".lead", "a..b",
                     String(repeating: "a", count: 254)] {
            #expect(throws: CertificateAuthorityError.self, "\(host.debugDescription)") { try ca.mintLeaf(forHost: host) }
        }
        #expect(throws: CertificateAuthorityError.self) { try ca.mintLeaf(forHost: "ok.example", sans: ["bad name"]) }
        #expect(ca.leavesMinted == 0)
        if case let .invalidHost(host, reason) = (Result { try ca.mintLeaf(forHost: "") }.error as? CertificateAuthorityError) {
            #expect(host.isEmpty && reason == "it is empty")
        } else {
            Issue.record("an empty host was not refused as invalidHost")
        }
    }

    @Test("a root made again from its key and certificate signs leaves that verify under the root exported before")
    func rebuiltFromKey() throws {
        let ca = try CertificateAuthority.generate()
        let files = CertificateFiles()
        try files.certificate("root", ca.rootCertificateDER)
        let key = try X509SigningKey.fromPKCS8(try ca.rootKey.pkcs8DER())
        let rebuilt = try CertificateAuthority.make(rootKey: key, rootCertificateDER: ca.rootCertificateDER)
        try files.certificate("leaf", try rebuilt.mintLeaf(forHost: "again.example.test").certificateDER)
        #expect(try files.verify("leaf", under: "root", ["-verify_hostname", "again.example.test"]).ok)
        let stranger = try X509SigningKey.generateP256()
        #expect(throws: CertificateAuthorityError.keyDoesNotMatchRoot) {
            try CertificateAuthority.make(rootKey: stranger, rootCertificateDER: ca.rootCertificateDER)
        }
    }
}

private extension Result {
    var error: Failure? {
        if case let .failure(error) = self { return error }
        return nil
    }
}
