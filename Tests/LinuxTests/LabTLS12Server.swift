import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// `openssl s_server -www` at TLS 1.2 on 4433 in a lab's server namespace, with a fresh
/// self-signed P-256 certificate for `tls.lab.test`: TLS 1.2 sends the certificate in the clear,
/// so a flow's answer and chain can both be read. The live naming tests' TLS peer.
struct LabTLS12Server {
    static let name = "tls.lab.test"
    static let port = 4433

    private let keys: TemporaryDirectory
    let process: Process

    init(in lab: Lab) throws {
        keys = TemporaryDirectory("lab-tls12")
        let key = keys.url.appendingPathComponent("key.pem").path
        let certificate = keys.url.appendingPathComponent("cert.pem").path
        try ExternalCommand.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                                 "-nodes", "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=\(Self.name)"])
        process = try LabScripts.start(["openssl", "s_server", "-accept", String(Self.port), "-cert", certificate, "-key", key,
                                        "-tls1_2", "-www", "-quiet"], in: lab.server)
    }

    func stop() { LabScripts.stop(process) }

    /// Records an issue unless `flow` holds this server's TLS 1.2 answer and its certificate.
    static func expectAnswerAndChain(of flow: StoredFlow) {
        guard case .negotiated(let negotiated)? = flow.serverTLS else {
            Issue.record("no server answer on \(flow)")
            return
        }
        #expect(negotiated.version == .tls12)
        guard case .chain(let chain)? = flow.serverCertificates else {
            Issue.record("no certificate chain on \(flow)")
            return
        }
        #expect(chain.certificates.first?.subject.text == "CN=\(name)")
    }
}
