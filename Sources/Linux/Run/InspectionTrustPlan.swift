import Foundation

/// What `run --inspect` gives CMD, and CMD alone, to trust the local root — decided from the
/// system's trust store, with no I/O: the bundle (the system's roots, then ours) and the root
/// alone, in the run's private directory; bind mounts, made inside CMD's own mount namespace,
/// of that bundle over every existing system bundle file and of a copy of OpenSSL's hashed
/// directory with the root's `<hash>.N` added; and the variables that point at the files.
///
/// The hashed directory too: Debian's OpenSSL default CAfile (/usr/lib/ssl/cert.pem) does not
/// exist, so a program on OpenSSL's defaults that ignores the variables — Python's
/// `ssl.create_default_context()` after `env -i`, say — finds its roots only there.
package struct InspectionTrustPlan: Sendable, Equatable {
    static let bundleFileName = "bundle.pem"
    static let rootFileName = "root.pem"
    static let hashedCopyName = "certs"
    /// The variables that name a CA file for OpenSSL, curl, Python requests: the whole bundle.
    static let bundleVariables = ["SSL_CERT_FILE", "CURL_CA_BUNDLE", "REQUESTS_CA_BUNDLE"]
    /// Node adds this file's certificates to its own compiled-in roots: the local root alone.
    static let extraRootVariable = "NODE_EXTRA_CA_CERTS"

    package struct Mount: Sendable, Equatable {
        package let source: String
        package let target: String
        /// Set when `target` lies in a directory a user controls (their home): the part of
        /// `target` below this one is reached without following a symbolic link, so the mount
        /// cannot be led elsewhere between our look and the mount.
        package let noLinksBeneath: String?
        package init(source: String, target: String, noLinksBeneath: String? = nil) {
            self.source = source
            self.target = target
            self.noLinksBeneath = noLinksBeneath
        }
    }

    /// Where the system's roots are read from; nil when no known bundle exists (the bundle is
    /// then the local root alone, and `notice` says so).
    package let systemBundle: String?
    /// The hashed directory copied, and the name the root gets in the copy.
    package struct HashedCopy: Sendable, Equatable {
        package let directory: String
        package let rootEntry: String
        package init(directory: String, rootEntry: String) {
            self.directory = directory
            self.rootEntry = rootEntry
        }
    }

    package let hashedCopy: HashedCopy?
    /// In order: the directory first, so a bundle inside it is mounted over the copy's file.
    package let mounts: [Mount]
    package let environment: [String: String]
    package let bundleFile: String
    package let rootFile: String
    let hashedCopyDirectory: String

    package init(system: InspectionSystemTrust, rootSubjectHash: String, privateDirectory: String) {
        let bundleFile = privateDirectory + "/" + Self.bundleFileName, rootFile = privateDirectory + "/" + Self.rootFileName
        let hashedCopyDirectory = privateDirectory + "/" + Self.hashedCopyName
        self.bundleFile = bundleFile
        self.rootFile = rootFile
        self.hashedCopyDirectory = hashedCopyDirectory
        systemBundle = system.bundles.first?.resolved
        // OpenSSL looks up `<hash>.0`, `.1`, … until one is missing: the first free number.
        let hashedCopy = system.hashedDirectory.map { directory in
            let free = (0...).first { !system.hashedEntries.contains("\(rootSubjectHash).\($0)") }!
            return HashedCopy(directory: directory, rootEntry: "\(rootSubjectHash).\(free)")
        }
        self.hashedCopy = hashedCopy
        var mounts = hashedCopy.map { [Mount(source: hashedCopyDirectory, target: $0.directory)] } ?? []
        var seen = Set<String>()
        for bundle in system.bundles where seen.insert(bundle.resolved).inserted {
            mounts.append(Mount(source: bundleFile, target: bundle.resolved))
        }
        self.mounts = mounts
        var environment = Dictionary(uniqueKeysWithValues: Self.bundleVariables.map { ($0, bundleFile) })
        environment[Self.extraRootVariable] = rootFile
        self.environment = environment
    }

    /// The bundle's text: the system's roots as they are, then the local root.
    package static func bundle(systemRoots: Data?, root: Data) -> Data {
        var text = systemRoots ?? Data()
        if let last = text.last, last != UInt8(ascii: "\n") { text.append(UInt8(ascii: "\n")) }
        text.append(Data("# TunnelVision's local root, for this run's command only\n".utf8))
        text.append(root)
        if root.last != UInt8(ascii: "\n") { text.append(UInt8(ascii: "\n")) }
        return text
    }
}
