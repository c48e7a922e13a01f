#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// The run's private trust directory, written as an `InspectionTrustPlan` says: made by
/// mkdtemp (0700, owned by the account CMD runs as, so the variables' files are readable by CMD
/// and nobody else), filled, and removed by `remove` — which `MonitoredRun` calls however the
/// run ends. The system's files are only read. With `nss`, it also holds the NSS database of an
/// `InspectionNSSPlan`, or the notice saying why NSS readers go without.
struct InspectionTrustBundle: Sendable {
    let directory: String
    let plan: InspectionTrustPlan
    /// The NSS database made for CMD's home, when one was.
    private(set) var nss: InspectionNSSDatabase?
    /// Why NSS readers (Chromium) do not trust the root this run, when they do not.
    private(set) var nssNotice: String?

    /// Every bind mount CMD's mount namespace gets: the plan's, then the NSS database's.
    var mounts: [InspectionTrustPlan.Mount] { plan.mounts + (nss.map { [$0.grant.mount] } ?? []) }

    /// Writes the bundle, the root alone and the hashed directory's copy under a new directory
    /// in `parent`; reads the system's files under `systemRoot` (a test's tree; "/" for real).
    /// `nss`: CMD's home (nil: none known) and the tools there are, to give NSS readers the root
    /// too; nil leaves NSS alone. On failure nothing is left behind; NSS never fails the write.
    static func write(ca: LocalCA, system: InspectionSystemTrust, systemRoot: String = "/",
                              parent: String, owner: CommandAccount?,
                              nss: (home: String?, tools: InspectionNSSDatabase.Tools)? = nil) throws(InspectionRefusal) -> InspectionTrustBundle {
        var template = Array(InspectionTrustLeftovers.template(in: parent).utf8CString)
        guard let made = mkdtemp(&template) else {
            throw .bundle("cannot make a private directory in \(parent): \(SystemError.text(errno))")
        }
        let directory = String(cString: made)
        guard let subjectHash = ca.subjectHash else {
            rmdir(directory)
            throw .bundle("cannot read the local root with OpenSSL to file it in a hashed directory")
        }
        var bundle = InspectionTrustBundle(directory: directory,
                                           plan: InspectionTrustPlan(system: system, rootSubjectHash: subjectHash,
                                                                     privateDirectory: directory))
        do {
            try bundle.fill(ca: ca, systemRoot: systemRoot == "/" ? "" : systemRoot, owner: owner)
        } catch {
            bundle.remove()
            throw .bundle("cannot write the command's trust store in \(directory): \(error)")
        }
        if let (home, tools) = nss {
            let decision = InspectionNSSPlan(home: home.map(InspectionNSSHome.survey), account: owner, certutil: tools.certutil,
                                             setpriv: tools.setpriv, privateDirectory: directory, rootFile: bundle.plan.rootFile).decision
            switch decision {
            case let .skip(notice): bundle.nssNotice = notice
            case let .grant(grant):
                do { bundle.nss = try InspectionNSSDatabase.make(grant, trustDirectory: directory) } catch {
                    bundle.nssNotice = InspectionNSSPlan.notice("\(error)")
                }
            }
        }
        return bundle
    }

    private func fill(ca: LocalCA, systemRoot prefix: String, owner: CommandAccount?) throws {
        if let owner, chown(directory, owner.uid, owner.gid) != 0 {
            throw BundleWriteError(path: directory, reason: SystemError.text(errno))
        }
        let systemRoots = try plan.systemBundle.map { path in
            do { return try Data(contentsOf: URL(fileURLWithPath: prefix + path)) } catch {
                throw BundleWriteError(path: prefix + path, reason: "the system's bundle cannot be read (\(error.localizedDescription))")
            }
        }
        let rootPEM = Data(ca.rootCertificatePEM.utf8)
        try Self.create(plan.rootFile, rootPEM)
        try Self.create(plan.bundleFile, InspectionTrustPlan.bundle(systemRoots: systemRoots, root: rootPEM))
        if let copy = plan.hashedCopy {
            try Self.copyTree(from: prefix + copy.directory, to: plan.hashedCopyDirectory)
            try Self.create(plan.hashedCopyDirectory + "/" + copy.rootEntry, rootPEM)
        }
    }

    /// Removes the directory and all in it, and what was made in CMD's home; a run's end calls
    /// it whatever happened.
    func remove() {
        nss?.removeCreated()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A new file, world-readable like the system's bundles (the directory above keeps others out).
    private static func create(_ path: String, _ bytes: Data) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw BundleWriteError(path: path, reason: SystemError.text(errno)) }
        defer { close(descriptor) }
        if fchmod(descriptor, 0o644) != 0 { throw BundleWriteError(path: path, reason: SystemError.text(errno)) }
        if let code = bytes.withUnsafeBytes({ FileDescriptor.writeAll(descriptor, $0) }) {
            throw BundleWriteError(path: path, reason: SystemError.text(code))
        }
    }

    /// Copies a directory: links as links (the hashed names are links, relative or absolute,
    /// and mean the same at the mount point), files by content, folders by recursion.
    private static func copyTree(from source: String, to target: String) throws {
        guard mkdir(target, 0o755) == 0 else { throw BundleWriteError(path: target, reason: SystemError.text(errno)) }
        chmod(target, 0o755)
        let entries: [String]
        do { entries = try FileManager.default.contentsOfDirectory(atPath: source) } catch {
            throw BundleWriteError(path: source, reason: error.localizedDescription)
        }
        for entry in entries.sorted() {
            let from = source + "/" + entry, to = target + "/" + entry
            switch PathStatus.of(from)?.kind {
            case .symbolicLink:
                let link = try FileManager.default.destinationOfSymbolicLink(atPath: from)
                guard symlink(link, to) == 0 else { throw BundleWriteError(path: to, reason: SystemError.text(errno)) }
            case .directory: try copyTree(from: from, to: to)
            case .regularFile:
                do { try create(to, try Data(contentsOf: URL(fileURLWithPath: from))) } catch let error as BundleWriteError {
                    throw error
                } catch { throw BundleWriteError(path: from, reason: error.localizedDescription) }
            default: continue   // a socket or device has no place in a trust store
            }
        }
    }
}

private struct BundleWriteError: Error, CustomStringConvertible {
    let path: String
    let reason: String
    var description: String { "\(path): \(reason)" }
}
