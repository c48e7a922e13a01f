import Foundation
import Linux
import Shared
import TestSupport

/// A lab CA made with the openssl command line, and leaves it signed directly (as the local CA
/// does): PEM files for the real peers (`s_server`, `s_client -CAfile`) and `MintedCertificate`s
/// for our server sessions. A second, unrelated root plays the CA a client does not trust.
final class InspectionCertificates: @unchecked Sendable {
    let directory = TemporaryDirectory("inspection-certs")

    var root: String { path("root.pem") }
    var otherRoot: String { path("other.pem") }

    init() throws {
        try makeRoot("root")
        try makeRoot("other")
    }

    func path(_ name: String) -> String { directory.url.appendingPathComponent(name).path }

    /// A leaf for `host` signed by `issuer`, valid for `days` (negative: already expired).
    /// Returns the PEM certificate's path; its key is `NAME.key`.
    @discardableResult
    func leaf(_ name: String, host: String, issuer: String = "root", days: Int = 30, alternativeName: String? = nil) throws -> String {
        try Data("subjectAltName=\(alternativeName ?? "DNS:\(host)")\nextendedKeyUsage=serverAuth\n".utf8)
            .write(to: URL(fileURLWithPath: path("\(name).ext")))
        try run(["openssl", "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                 "-keyout", path("\(name).key"), "-subj", "/CN=\(host)", "-out", path("\(name).csr")])
        try run(["openssl", "x509", "-req", "-in", path("\(name).csr"), "-CA", path("\(issuer).pem"),
                 "-CAkey", path("\(issuer).key"), "-set_serial", "\(Int.random(in: 1000...999_999))",
                 "-days", "\(days)", "-extfile", path("\(name).ext"), "-out", path("\(name).pem")])
        return path("\(name).pem")
    }

    /// The leaf `name` as the local CA hands it over: DER certificate, PKCS#8 DER key.
    func minted(_ name: String, host: String) throws -> MintedCertificate {
        try run(["openssl", "x509", "-in", path("\(name).pem"), "-outform", "DER", "-out", path("\(name).der")])
        try run(["openssl", "pkcs8", "-topk8", "-nocrypt", "-in", path("\(name).key"), "-outform", "DER",
                 "-out", path("\(name).p8")])
        return MintedCertificate(host: host, certificateDER: try Data(contentsOf: URL(fileURLWithPath: path("\(name).der"))),
                                 privateKeyDER: try Data(contentsOf: URL(fileURLWithPath: path("\(name).p8"))))
    }

    private func makeRoot(_ name: String) throws {
        try run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                 "-keyout", path("\(name).key"), "-out", path("\(name).pem"), "-subj", "/CN=Inspection Lab \(name)",
                 "-days", "30", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"])
    }

    private func run(_ arguments: [String]) throws {
        _ = try ExternalCommand.run(arguments)
    }
}
