#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The system's trust store as this machine lays it out: which of the known bundle files exist
/// and where each leads, and OpenSSL's hashed directory. Read only, never written.
package struct InspectionSystemTrust: Sendable, Equatable {
    /// The bundle files distributions ship, most common first (Go's crypto/x509 list, plus the
    /// OpenSSL default of Debian's layout): the first that exists gives the system's roots.
    static let knownBundlePaths = [
        "/etc/ssl/certs/ca-certificates.crt",                  // Debian, Ubuntu, Gentoo, Arch, Alpine
        "/etc/pki/tls/certs/ca-bundle.crt",                    // Fedora, RHEL 6
        "/etc/ssl/ca-bundle.pem",                              // openSUSE
        "/etc/pki/tls/cacert.pem",                             // OpenELEC
        "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",   // CentOS, RHEL 7
        "/etc/ssl/cert.pem",                                   // Alpine, and OpenSSL's default CAfile
        "/usr/lib/ssl/cert.pem",                               // Debian's OPENSSLDIR/cert.pem
    ]
    /// OpenSSL's CApath on Debian (OPENSSLDIR/certs leads here) and, through a link, on Fedora.
    static let hashedDirectoryPath = "/etc/ssl/certs"

    /// A known bundle path that exists, and the file it leads to (itself when it is no link).
    package struct Bundle: Sendable, Equatable {
        package let path: String
        package let resolved: String
        package init(path: String, resolved: String) {
            self.path = path
            self.resolved = resolved
        }
    }

    /// Every known bundle path that exists, in the order of `knownBundlePaths`.
    package var bundles: [Bundle]
    /// The hashed directory, resolved, when it exists.
    package var hashedDirectory: String?
    /// The names in the hashed directory (to add the root's `<hash>.N` without a clash).
    var hashedEntries: Set<String>

    package init(bundles: [Bundle], hashedDirectory: String?, hashedEntries: Set<String>) {
        self.bundles = bundles
        self.hashedDirectory = hashedDirectory
        self.hashedEntries = hashedEntries
    }

    /// What the person should know before CMD starts; nil when a system bundle was found.
    package var missingBundleNotice: String? {
        guard bundles.isEmpty else { return nil }
        return "no system CA bundle was found (looked for \(Self.knownBundlePaths.joined(separator: ", "))); the command "
            + "trusts the local root alone, so TLS it makes to servers the tunnel does not inspect will fail"
    }

    /// Looks at the machine — or, for tests, at a tree under `root` whose links are relative —
    /// and gives every path as the machine (the tree) names it, `root` left off.
    package static func survey(root: String = "/") -> InspectionSystemTrust {
        let prefix = root == "/" ? "" : (root.hasSuffix("/") ? String(root.dropLast()) : root)
        func resolved(_ path: String) -> String? {
            guard let real = realpath(prefix + path, nil) else { return nil }
            defer { free(real) }
            let text = String(cString: real)
            guard prefix.isEmpty || text == prefix || text.hasPrefix(prefix + "/") else { return nil }
            return text == prefix ? "/" : String(text.dropFirst(prefix.count))
        }
        var isDirectory: ObjCBool = false
        let bundles = knownBundlePaths.compactMap { path -> Bundle? in
            guard let target = resolved(path),
                  FileManager.default.fileExists(atPath: prefix + target, isDirectory: &isDirectory), !isDirectory.boolValue
            else { return nil }
            return Bundle(path: path, resolved: target)
        }
        let directory = resolved(hashedDirectoryPath).flatMap { path in
            FileManager.default.fileExists(atPath: prefix + path, isDirectory: &isDirectory) && isDirectory.boolValue ? path : nil
        }
        let entries = directory.map { (try? FileManager.default.contentsOfDirectory(atPath: prefix + $0)) ?? [] } ?? []
        return InspectionSystemTrust(bundles: bundles, hashedDirectory: directory, hashedEntries: Set(entries))
    }
}
