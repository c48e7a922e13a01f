import Foundation
import Linux

/// A CA → intermediate → leaf chain made with the openssl command line, for the lab's TLS and
/// QUIC servers, which send leaf and intermediate: the "chain of two certificates".
///
/// The names are chosen to exercise the contract's text: a comma to escape and a multi-valued
/// RDN with a UTF-8 value in the intermediate, a UTF-8 state and a leading `#` in the leaf. The
/// intermediate ends after 2049, so its notAfter is a GeneralizedTime; the leaf's is a UTCTime
/// (RFC 5280 §4.1.2.5). The leaf's key is RSA, for an ECDHE-RSA suite at TLS 1.2.
struct HandshakeCertificates {
    static let leafName = "leaf.example.test"
    static let caSubject = "/C=XX/O=Lab Root/CN=Lab Root CA"
    static let intermediateSubject = "/C=XX/O=Lab, Inc./OU=Tests+OU=Réseau/CN=Lab Intermediate CA"
    static let leafSubject = "/C=XX/ST=Île-de-France/O=Lab/OU=#1 Team/CN=\(leafName)"

    let directory: URL

    var leaf: String { path("leaf.pem") }
    var leafKey: String { path("leaf.key") }
    var intermediate: String { path("intermediate.pem") }
    /// Leaf then intermediate, in one file (aioquic's `load_cert_chain`).
    var chain: String { path("chain.pem") }

    init(in directory: URL) throws {
        self.directory = directory
        let caExtensions = path("ca.ext")
        let leafExtensions = path("leaf.ext")
        try Data("basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n".utf8)
            .write(to: URL(fileURLWithPath: caExtensions))
        try Data("subjectAltName=DNS:\(Self.leafName)\nextendedKeyUsage=serverAuth\n".utf8)
            .write(to: URL(fileURLWithPath: leafExtensions))
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try ExternalCommand.run(["openssl", "req", "-x509"] + ec + ["-keyout", path("ca.key"), "-subj", Self.caSubject,
                                 "-days", "10000", "-addext", "basicConstraints=critical,CA:TRUE", "-out", path("ca.pem")])
        try ExternalCommand.run(["openssl", "req", "-new"] + ec + ["-keyout", path("intermediate.key"), "-utf8",
                                 "-multivalue-rdn", "-subj", Self.intermediateSubject, "-out", path("intermediate.csr")])
        try ExternalCommand.run(["openssl", "x509", "-req", "-in", path("intermediate.csr"), "-CA", path("ca.pem"),
                                 "-CAkey", path("ca.key"), "-set_serial", "2", "-days", "9500", "-extfile", caExtensions,
                                 "-out", intermediate])
        try ExternalCommand.run(["openssl", "req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", leafKey, "-utf8",
                                 "-subj", Self.leafSubject, "-out", path("leaf.csr")])
        try ExternalCommand.run(["openssl", "x509", "-req", "-in", path("leaf.csr"), "-CA", intermediate,
                                 "-CAkey", path("intermediate.key"), "-set_serial", "3", "-days", "400",
                                 "-extfile", leafExtensions, "-out", leaf])
        try (Data(contentsOf: URL(fileURLWithPath: leaf)) + Data(contentsOf: URL(fileURLWithPath: intermediate)))
            .write(to: URL(fileURLWithPath: chain))
        // The chain verifies, so a client that checked would accept it: the lab's names are real ones.
        try ExternalCommand.run(["openssl", "verify", "-CAfile", path("ca.pem"), "-untrusted", intermediate, leaf])
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}
