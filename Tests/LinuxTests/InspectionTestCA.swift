import Foundation
import Linux

/// A local CA laid out as `run --inspect` reads it (`<data>/ca/root.pem`, `root-key.pem` 0600),
/// made with the openssl command line — a P-256 self-signed root, CA:TRUE, keyCertSign — and
/// leaves of it, also by openssl, so nothing of ours vouches for what is tested.
struct InspectionTestCA {
    let dataDirectory: URL
    var directory: URL { dataDirectory.appendingPathComponent("ca") }
    var root: String { directory.appendingPathComponent("root.pem").path }
    var key: String { directory.appendingPathComponent("root-key.pem").path }

    init(dataDirectory: URL, subject: String = "/O=TunnelVision test/CN=Inspection Test Root") throws {
        self.dataDirectory = dataDirectory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try ExternalCommand.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                                 "-nodes", "-keyout", key, "-subj", subject, "-days", "30",
                                 "-addext", "basicConstraints=critical,CA:TRUE,pathlen:0",
                                 "-addext", "keyUsage=critical,keyCertSign,cRLSign", "-out", root])
        chmod(key, 0o600)
    }

    /// A leaf of this root for `host` (SAN dNSName, serverAuth), PEM at `file` and DER returned.
    @discardableResult
    func leaf(host: String, at file: URL) throws -> Data {
        let base = file.deletingPathExtension().path
        try Data("subjectAltName=DNS:\(host)\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n".utf8)
            .write(to: URL(fileURLWithPath: base + ".ext"))
        try ExternalCommand.run(["openssl", "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                                 "-nodes", "-keyout", base + ".key", "-subj", "/CN=\(host)", "-out", base + ".csr"])
        try ExternalCommand.run(["openssl", "x509", "-req", "-in", base + ".csr", "-CA", root, "-CAkey", key,
                                 "-set_serial", "7", "-days", "2", "-extfile", base + ".ext", "-out", file.path])
        try ExternalCommand.run(["openssl", "x509", "-in", file.path, "-outform", "DER", "-out", base + ".der"])
        return try Data(contentsOf: URL(fileURLWithPath: base + ".der"))
    }
}
