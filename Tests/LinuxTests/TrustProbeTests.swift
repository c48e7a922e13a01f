import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// The trust probe against leaves and bundles the openssl command line made: it says trusted
/// only when the bundle alone makes it so.
@Suite("The trust probe")
struct TrustProbeTests {
    static let systemBundle = URL(fileURLWithPath: "/etc/ssl/certs/ca-certificates.crt")

    func bundle(of ca: InspectionTestCA, in work: TemporaryDirectory) throws -> URL {
        let file = work.url.appendingPathComponent("bundle.pem")
        try InspectionTrustPlan.bundle(systemRoots: try Data(contentsOf: Self.systemBundle),
                                       root: try Data(contentsOf: URL(fileURLWithPath: ca.root))).write(to: file)
        return file
    }

    @Test("a leaf of the local root is trusted by the system's roots plus the root, for its host")
    func trustedWithTheBundle() throws {
        let work = TemporaryDirectory("probe")
        let ca = try InspectionTestCA(dataDirectory: work.url)
        let leaf = try ca.leaf(host: TrustProbe.probeHost, at: work.url.appendingPathComponent("leaf.pem"))
        let verdict = TrustProbe.evaluate(bundle: try bundle(of: ca, in: work)) { host in
            MintedCertificate(host: host, certificateDER: leaf, privateKeyDER: Data())
        }
        #expect(verdict == .trusted)
    }

    @Test("the same leaf is not trusted by the system's bundle alone, nor for another host")
    func notTrustedWithoutTheRoot() throws {
        let work = TemporaryDirectory("probe-system")
        let ca = try InspectionTestCA(dataDirectory: work.url)
        let leaf = try ca.leaf(host: TrustProbe.probeHost, at: work.url.appendingPathComponent("leaf.pem"))
        let alone = TrustProbe.verify(leafDER: leaf, host: TrustProbe.probeHost, bundle: Self.systemBundle)
        guard case let .notTrusted(reason) = alone else { Issue.record("\(alone)"); return }
        #expect(reason.contains("unable to get local issuer certificate"))
        let otherHost = TrustProbe.verify(leafDER: leaf, host: "other.invalid", bundle: try bundle(of: ca, in: work))
        guard case let .notTrusted(hostReason) = otherHost else { Issue.record("\(otherHost)"); return }
        #expect(hostReason.contains("hostname mismatch"))
    }

    @Test("bytes that are not a certificate, a bundle with none and a leaf that cannot be minted cannot be evaluated")
    func cannotEvaluate() throws {
        let work = TemporaryDirectory("probe-garbage")
        let empty = work.url.appendingPathComponent("empty.pem")
        try Data("not a certificate\n".utf8).write(to: empty)
        let garbage = TrustProbe.verify(leafDER: Data("hello, not DER".utf8), host: TrustProbe.probeHost, bundle: Self.systemBundle)
        guard case let .cannotEvaluate(reason) = garbage else { Issue.record("\(garbage)"); return }
        #expect(reason.contains("not a DER certificate"))
        let ca = try InspectionTestCA(dataDirectory: work.url)
        let leaf = try ca.leaf(host: TrustProbe.probeHost, at: work.url.appendingPathComponent("leaf.pem"))
        guard case .cannotEvaluate = TrustProbe.verify(leafDER: leaf, host: TrustProbe.probeHost, bundle: empty) else {
            Issue.record("an empty bundle was evaluated"); return
        }
        struct NoMinting: Error {}
        guard case .cannotEvaluate = TrustProbe.evaluate(bundle: Self.systemBundle, mint: { _ in throw NoMinting() }) else {
            Issue.record("a failed mint was evaluated"); return
        }
    }

    @Test("the run's own leaf for the probe is trusted by the bundle, and openssl verify agrees")
    func runsOwnLeaf() throws {
        let work = TemporaryDirectory("probe-own")
        let ca = try InspectionTestCA(dataDirectory: work.url)
        let loaded = try #require(try LocalCA.load(dataDirectory: work.url))
        let bundle = try bundle(of: ca, in: work)
        #expect(TrustProbe.evaluate(bundle: bundle) { try loaded.authority.mintLeaf(forHost: $0) } == .trusted)
        let minted = try loaded.authority.mintLeaf(forHost: TrustProbe.probeHost)
        let der = work.url.appendingPathComponent("own.der")
        try minted.certificateDER.write(to: der)
        let pem = work.url.appendingPathComponent("own.pem").path
        try ExternalCommand.run(["openssl", "x509", "-inform", "DER", "-in", der.path, "-out", pem])
        let verified = try ExternalCommand.run(["openssl", "verify", "-CAfile", bundle.path, "-purpose", "sslserver",
                                                "-verify_hostname", TrustProbe.probeHost, pem])
        #expect(verified.standardOutput.contains("OK"))
    }
}
