import Foundation
import Shared
import TestSupport

/// Certificates and keys of the CA under test written where outside programs (openssl, curl,
/// gnutls-cli, Python) read them, and those programs run on them.
final class CertificateFiles: @unchecked Sendable {
    let directory = TemporaryDirectory("tv-ca-files")

    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    /// Writes `der` as NAME.pem (a certificate) and returns its path.
    @discardableResult
    func certificate(_ name: String, _ der: some Collection<UInt8>) throws -> String {
        try Data(X509PEM.encode(der, label: X509PEM.certificateLabel).utf8).write(to: URL(fileURLWithPath: path("\(name).pem")))
        try Data(der).write(to: URL(fileURLWithPath: path("\(name).der")))
        return path("\(name).pem")
    }

    /// Writes a minted leaf as NAME.pem and its key as NAME.key (PKCS#8 PEM).
    func leaf(_ name: String, _ minted: MintedCertificate) throws {
        try certificate(name, minted.certificateDER)
        try Data(X509PEM.encode(minted.privateKeyDER, label: X509PEM.privateKeyLabel).utf8)
            .write(to: URL(fileURLWithPath: path("\(name).key")))
    }

    func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(URL(fileURLWithPath: program), arguments)
    }

    func openssl(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try run("/usr/bin/openssl", arguments)
    }

    /// `openssl x509 -text -noout` of NAME.pem.
    func text(_ name: String) throws -> String {
        try openssl(["x509", "-in", path("\(name).pem"), "-text", "-noout"]).out
    }

    /// `openssl verify` of NAME.pem under ROOT.pem, with extra options; its status and output.
    func verify(_ name: String, under root: String, _ options: [String] = []) throws -> (ok: Bool, output: String) {
        let result = try openssl(["verify", "-x509_strict", "-CAfile", path("\(root).pem")] + options + [path("\(name).pem")])
        return (result.status == 0 && result.out.contains(": OK"), result.out + result.err)
    }

    /// Runs a Python script with the directory as its first argument.
    func python(_ script: String, _ arguments: [String] = []) throws -> (status: Int32, out: String, err: String) {
        try run("/usr/bin/python3", ["-c", script, directory.url.path] + arguments)
    }
}

/// A clock the tests move: the CA's `now`.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date) { current = start }

    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    func advance(_ seconds: TimeInterval) {
        lock.lock()
        current += seconds
        lock.unlock()
    }
}
