import Foundation
import Testing
import TestSupport
@testable import Shared

/// The CA kept in a real data directory: its layout and modes, reloading, and every way the files
/// can be wrong — each an error, never "no CA".
@Suite struct LocalCATests {
    private func mode(_ path: String) -> mode_t? { PathStatus.of(path)?.mode }

    @Test("create writes ca/ 0700, root-key.pem 0600 (PKCS#8 PEM) and root.pem 0600; openssl reads both")
    func layoutAndModes() throws {
        let data = TemporaryDirectory("tv-localca")
        let ca = try LocalCA.create(dataDirectory: data.url)
        let directory = DataDirectoryLayout.caDirectory(in: data.url).path
        let key = DataDirectoryLayout.caKey(in: data.url).path, certificate = DataDirectoryLayout.caCertificate(in: data.url).path
        #expect(mode(directory) == 0o700 && mode(key) == 0o600 && mode(certificate) == 0o600)
        #expect(directory.hasSuffix("/ca") && key.hasSuffix("/ca/root-key.pem") && certificate.hasSuffix("/ca/root.pem"))
        let keyText = try String(contentsOfFile: key, encoding: .utf8)
        #expect(keyText.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let files = CertificateFiles()
        let pkey = try files.openssl(["pkey", "-in", key, "-noout", "-text"])
        #expect(pkey.status == 0 && pkey.out.contains("prime256v1"), "\(pkey.err)")
        let fingerprint = try files.openssl(["x509", "-in", certificate, "-noout", "-fingerprint", "-sha256"])
        #expect(fingerprint.out == "sha256 Fingerprint=\(ca.fingerprintSHA256)\n", "\(fingerprint.out)")
        #expect(try String(contentsOfFile: certificate, encoding: .utf8) == ca.rootCertificatePEM)
        #expect(!FileManager.default.fileExists(atPath: directory + "/.root-key.pem.tmp"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["root-key.pem", "root.pem"])
    }

    @Test("load gives the same root, and its new leaves verify against the root exported before")
    func reloadSameRoot() throws {
        let data = TemporaryDirectory("tv-localca")
        let files = CertificateFiles()
        let created = try LocalCA.create(dataDirectory: data.url)
        try files.certificate("exported", created.rootCertificateDER)
        let loaded = try #require(try LocalCA.load(dataDirectory: data.url))
        #expect(loaded.fingerprintSHA256 == created.fingerprintSHA256 && loaded.rootCertificateDER == created.rootCertificateDER)
        try files.certificate("leaf", try loaded.authority.mintLeaf(forHost: "reload.example.test").certificateDER)
        let verified = try files.verify("leaf", under: "exported", ["-verify_hostname", "reload.example.test"])
        #expect(verified.ok, "\(verified.output)")
    }

    @Test("no ca/ at all, or an empty one, is known to be no CA (nil); create refuses over an existing one")
    func absenceAndRefusal() throws {
        let data = TemporaryDirectory("tv-localca")
        #expect(try LocalCA.load(dataDirectory: data.url) == nil)
        try FileManager.default.createDirectory(at: DataDirectoryLayout.caDirectory(in: data.url), withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        #expect(try LocalCA.load(dataDirectory: data.url) == nil)
        let ca = try LocalCA.create(dataDirectory: data.url)
        #expect(throws: LocalCAError.alreadyExists(directory: DataDirectoryLayout.caDirectory(in: data.url).path)) {
            try LocalCA.create(dataDirectory: data.url)
        }
        #expect(try LocalCA.load(dataDirectory: data.url)?.fingerprintSHA256 == ca.fingerprintSHA256)
    }

    @Test("a corrupt key, a symlinked key, a key readable by others, a missing half: errors, not nil; create refuses over them")
    func damagedFilesAreErrors() throws {
        typealias Damage = (String, (URL) throws -> Void, (LocalCAError) -> Bool)
        let damages: [Damage] = [
            ("corrupt key", { data in try Data("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8)
                .write(to: DataDirectoryLayout.caKey(in: data)) },
             { if case .corrupt = $0 { true } else { false } }),
            ("not PEM", { data in try Data("garbage".utf8).write(to: DataDirectoryLayout.caKey(in: data)) },
             { if case .corrupt = $0 { true } else { false } }),
            ("symlinked key", { data in
                let key = DataDirectoryLayout.caKey(in: data)
                try FileManager.default.moveItem(at: key, to: data.appendingPathComponent("elsewhere.pem"))
                try FileManager.default.createSymbolicLink(at: key, withDestinationURL: data.appendingPathComponent("elsewhere.pem"))
            }, { if case let .insecure(_, problem, _) = $0 { problem == "is a symbolic link" } else { false } }),
            ("key readable by others", { data in chmod(DataDirectoryLayout.caKey(in: data).path, 0o644) },
             { if case let .insecure(_, _, fix) = $0 { fix.contains("chmod 600") } else { false } }),
            ("directory open to others", { data in chmod(DataDirectoryLayout.caDirectory(in: data).path, 0o755) },
             { if case let .insecure(_, _, fix) = $0 { fix.contains("chmod 700") } else { false } }),
            ("certificate missing", { data in try FileManager.default.removeItem(at: DataDirectoryLayout.caCertificate(in: data)) },
             { if case .incomplete = $0 { true } else { false } }),
            ("key missing", { data in try FileManager.default.removeItem(at: DataDirectoryLayout.caKey(in: data)) },
             { if case .incomplete = $0 { true } else { false } }),
            ("another root's certificate", { data in
                let other = try CertificateAuthority.generate()
                try FileManager.default.removeItem(at: DataDirectoryLayout.caCertificate(in: data))
                try Data(X509PEM.encode(other.rootCertificateDER, label: X509PEM.certificateLabel).utf8)
                    .write(to: DataDirectoryLayout.caCertificate(in: data))
            }, { if case .authority(_, .keyDoesNotMatchRoot) = $0 { true } else { false } }),
        ]
        for (name, damage, isExpected) in damages {
            let data = TemporaryDirectory("tv-localca")
            _ = try LocalCA.create(dataDirectory: data.url)
            try damage(data.url)
            let keyBefore = try? Data(contentsOf: DataDirectoryLayout.caKey(in: data.url))
            do {
                let loaded = try LocalCA.load(dataDirectory: data.url)
                Issue.record("\(name): load answered \(loaded == nil ? "nil" : "a CA")")
            } catch {
                #expect(isExpected(error), "\(name): \(error)")
                #expect(!error.description.contains("MIGHAgEA"), "\(name): the message holds key bytes")
            }
            #expect(throws: LocalCAError.self, "\(name): create over it") { try LocalCA.create(dataDirectory: data.url) }
            let keyAfter = try? Data(contentsOf: DataDirectoryLayout.caKey(in: data.url))
            #expect(keyAfter == keyBefore, "\(name): create changed the key")
        }
    }

    @Test("remove deletes the key, the certificate and ca/, and says whether there was one")
    func removal() throws {
        let data = TemporaryDirectory("tv-localca")
        #expect(try LocalCA.remove(dataDirectory: data.url) == false)
        _ = try LocalCA.create(dataDirectory: data.url)
        #expect(try LocalCA.remove(dataDirectory: data.url) == true)
        #expect(!FileManager.default.fileExists(atPath: DataDirectoryLayout.caDirectory(in: data.url).path))
        #expect(try LocalCA.load(dataDirectory: data.url) == nil)
    }
}
