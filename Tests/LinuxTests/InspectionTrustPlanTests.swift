import Foundation
import Linux
import TestSupport
import Testing

/// The command's trust store planned for each layout distributions ship, surveyed from a temp
/// tree standing for the system's root (its links relative, as they resolve inside the tree).
@Suite("The --inspect trust plan")
struct InspectionTrustPlanTests {
    static let hash = "1a2b3c4d"
    static let privateDirectory = "/tmp/tunnelvision-trust-test"

    /// Makes `files` (path → contents) and `links` (path → relative target) under a new tree.
    func tree(files: [String: String], links: [String: String] = [:]) throws -> TemporaryDirectory {
        let root = TemporaryDirectory("trust-layout")
        for (path, text) in files {
            let url = URL(fileURLWithPath: root.url.path + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        for (path, target) in links {
            let url = URL(fileURLWithPath: root.url.path + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
        }
        return root
    }

    func plan(_ system: InspectionSystemTrust) -> InspectionTrustPlan {
        InspectionTrustPlan(system: system, rootSubjectHash: Self.hash, privateDirectory: Self.privateDirectory)
    }

    @Test("Debian: the bundle over ca-certificates.crt after a copy of /etc/ssl/certs with the root's hash name")
    func debian() throws {
        let root = try tree(files: ["/etc/ssl/certs/ca-certificates.crt": "roots", "/usr/share/ca-certificates/a.crt": "a"],
                            links: ["/etc/ssl/certs/a.pem": "../../../usr/share/ca-certificates/a.crt",
                                    "/etc/ssl/certs/\(Self.hash).0": "a.pem"])
        let system = InspectionSystemTrust.survey(root: root.url.path)
        #expect(system.bundles == [.init(path: "/etc/ssl/certs/ca-certificates.crt", resolved: "/etc/ssl/certs/ca-certificates.crt")])
        #expect(system.hashedDirectory == "/etc/ssl/certs")
        let plan = plan(system)
        #expect(plan.systemBundle == "/etc/ssl/certs/ca-certificates.crt")
        // A root with the same subject hash already there: OpenSSL reads .0, .1, … — ours is the next.
        #expect(plan.hashedCopy == .init(directory: "/etc/ssl/certs", rootEntry: "\(Self.hash).1"))
        #expect(plan.mounts == [.init(source: "\(Self.privateDirectory)/certs", target: "/etc/ssl/certs"),
                                .init(source: "\(Self.privateDirectory)/bundle.pem", target: "/etc/ssl/certs/ca-certificates.crt")])
        #expect(plan.environment == ["SSL_CERT_FILE": "\(Self.privateDirectory)/bundle.pem",
                                     "CURL_CA_BUNDLE": "\(Self.privateDirectory)/bundle.pem",
                                     "REQUESTS_CA_BUNDLE": "\(Self.privateDirectory)/bundle.pem",
                                     "NODE_EXTRA_CA_CERTS": "\(Self.privateDirectory)/root.pem"])
        #expect(system.missingBundleNotice == nil)
    }

    @Test("Fedora: /etc/ssl/certs leads to /etc/pki/tls/certs, whose bundle leads to the extracted file — each mounted once, where it leads")
    func fedora() throws {
        let root = try tree(files: ["/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem": "roots"],
                            links: ["/etc/pki/tls/certs/ca-bundle.crt": "../../ca-trust/extracted/pem/tls-ca-bundle.pem",
                                    "/etc/ssl/certs": "../pki/tls/certs"])
        let system = InspectionSystemTrust.survey(root: root.url.path)
        #expect(system.bundles.map(\.path) == ["/etc/pki/tls/certs/ca-bundle.crt", "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem"])
        #expect(system.hashedDirectory == "/etc/pki/tls/certs")
        let plan = plan(system)
        #expect(plan.systemBundle == "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem")
        #expect(plan.hashedCopy?.rootEntry == "\(Self.hash).0")
        #expect(plan.mounts.map(\.target) == ["/etc/pki/tls/certs", "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem"])
    }

    @Test("Alpine: /etc/ssl/cert.pem leads into /etc/ssl/certs, and the file is mounted once")
    func alpine() throws {
        let root = try tree(files: ["/etc/ssl/certs/ca-certificates.crt": "roots"],
                            links: ["/etc/ssl/cert.pem": "certs/ca-certificates.crt"])
        let plan = plan(InspectionSystemTrust.survey(root: root.url.path))
        #expect(plan.mounts.map(\.target) == ["/etc/ssl/certs", "/etc/ssl/certs/ca-certificates.crt"])
    }

    @Test("openSUSE: a bundle and no hashed directory — the bundle is mounted, no directory copied")
    func openSUSE() throws {
        let root = try tree(files: ["/etc/ssl/ca-bundle.pem": "roots"])
        let plan = plan(InspectionSystemTrust.survey(root: root.url.path))
        #expect(plan.hashedCopy == nil)
        #expect(plan.mounts == [.init(source: "\(Self.privateDirectory)/bundle.pem", target: "/etc/ssl/ca-bundle.pem")])
    }

    @Test("no system bundle at all: nothing to mount over, the bundle is the root alone, and it is said")
    func none() throws {
        let root = try tree(files: ["/etc/hostname": "x"])
        let system = InspectionSystemTrust.survey(root: root.url.path)
        let plan = plan(system)
        #expect(plan.systemBundle == nil && plan.mounts.isEmpty)
        #expect(plan.environment["SSL_CERT_FILE"] == "\(Self.privateDirectory)/bundle.pem")
        #expect(system.missingBundleNotice?.contains("trusts the local root alone") == true)
        let bundle = String(decoding: InspectionTrustPlan.bundle(systemRoots: nil, root: Data("ROOT\n".utf8)), as: UTF8.self)
        #expect(bundle.hasSuffix("ROOT\n") && !bundle.contains("roots"))
    }

    @Test("the bundle is the system's roots as they are, then the root, on a line of its own")
    func bundleText() {
        let text = String(decoding: InspectionTrustPlan.bundle(systemRoots: Data("SYSTEM".utf8), root: Data("ROOT".utf8)),
                          as: UTF8.self)
        #expect(text.hasPrefix("SYSTEM\n#"))
        #expect(text.hasSuffix("\nROOT\n"))
    }
}
