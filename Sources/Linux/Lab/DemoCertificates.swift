import Foundation
import Shared

/// The demo's own public-key infrastructure, made with the openssl command line when the demo
/// starts: a root CA, an intermediate it signed, and a leaf per server name signed by the
/// intermediate. Each server presents leaf, intermediate and root — at TLS 1.2 the three cross in
/// the clear, so the inspector shows the whole chain — and the clients trust the root alone.
package struct DemoCertificates: Sendable {
    static let rootSubject = "/O=TunnelVision Demo/CN=TunnelVision Demo Root CA"
    package static let intermediateSubject = "/O=TunnelVision Demo/CN=TunnelVision Demo Intermediate CA"

    let directory: URL

    /// The root the clients trust (curl's `--cacert`, aioquic's verify locations).
    package var root: String { path("root.pem") }

    /// Leaf, intermediate and root for `name`, in the order a server sends them.
    package func chain(for name: String) -> String { path("\(name).chain.pem") }
    package func key(for name: String) -> String { path("\(name).key") }

    /// Makes the root, the intermediate and one leaf per name in `directory`, and checks that each
    /// leaf verifies against the root, so a client that checks accepts it.
    package init(in directory: URL, names: [String]) throws(CommandError) {
        self.directory = directory
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try write("basicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign,cRLSign\n", to: "ca.ext")
        try ExternalCommand.run(["openssl", "req", "-x509"] + key + ["-keyout", path("root.key"), "-subj", Self.rootSubject,
                                 "-days", "3650", "-addext", "basicConstraints=critical,CA:TRUE", "-out", root])
        try sign(subject: Self.intermediateSubject, as: "intermediate", by: "root", serial: 2, extensions: "ca.ext")
        for name in names {
            try write("subjectAltName=DNS:\(name)\nextendedKeyUsage=serverAuth\n", to: "\(name).ext")
            try sign(subject: "/O=TunnelVision Demo/CN=\(name)", as: name, by: "intermediate", serial: 3, extensions: "\(name).ext")
            let pems = [path("\(name).pem"), path("intermediate.pem"), root]
            do {
                try pems.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }.reduce(Data(), +)
                    .write(to: URL(fileURLWithPath: chain(for: name)))
            } catch {
                throw .failed(command: "write \(chain(for: name))", status: 1, standardError: "\(error)")
            }
            try ExternalCommand.run(["openssl", "verify", "-CAfile", root, "-untrusted", path("intermediate.pem"), path("\(name).pem")])
        }
    }

    /// A key and a certificate `NAME.pem` for `subject`, signed by `issuer`'s key.
    private func sign(subject: String, as name: String, by issuer: String, serial: Int, extensions: String) throws(CommandError) {
        try ExternalCommand.run(["openssl", "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                                 "-nodes", "-keyout", key(for: name), "-subj", subject, "-out", path("\(name).csr")])
        try ExternalCommand.run(["openssl", "x509", "-req", "-in", path("\(name).csr"), "-CA", path("\(issuer).pem"),
                                 "-CAkey", path("\(issuer).key"), "-set_serial", "\(serial)", "-days", "825",
                                 "-extfile", path(extensions), "-out", path("\(name).pem")])
    }

    private func write(_ text: String, to name: String) throws(CommandError) {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path(name)))
        } catch {
            throw .failed(command: "write \(path(name))", status: 1, standardError: "\(error)")
        }
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}
