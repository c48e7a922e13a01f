#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// An `InspectionNSSPlan.Grant` carried out: the private database made in the run's trust
/// directory (the user's files copied, certutil adding the root as CMD's user), and the mount
/// point's missing directories made in the home — recorded first in the trust directory, so the
/// sweep of a killed run removes them too. `removeCreated` takes those away when the run ends,
/// unless another run still holds the mount point (`InspectionNSSMountPoint`): the last run out
/// removes them. Every step in the home goes through `PathBeneath`; the user's database is only read.
struct InspectionNSSDatabase: Sendable {
    /// The record of the directories made in the home, in the trust directory.
    static let manifestName = "home-directories.json"

    /// Which tools this machine has for it.
    struct Tools: Sendable, Equatable {
        let certutil: String?
        let setpriv: String?
        init(certutil: String?, setpriv: String?) {
            self.certutil = certutil
            self.setpriv = setpriv
        }

        static func locate() -> Tools {
            Tools(certutil: ExternalCommand.locate("certutil"), setpriv: ExternalCommand.locate("setpriv"))
        }
    }

    let grant: InspectionNSSPlan.Grant
    /// The directories this run made in the home (relative, outer first): those it removes.
    let created: [String]
    /// The mount point, open with a shared lock while the run lasts (-1: none could be had), so
    /// no other run's end removes it from under this one's command.
    let hold: Int32
    /// Where a removal put off by another run's hold is recorded: beside the trust directories.
    let pendingParent: String

    /// Makes the database and the mount point; on failure, undoes what it made and throws the
    /// reason (for the run's one notice — never its failure).
    static func make(_ grant: InspectionNSSPlan.Grant, trustDirectory: String) throws(NSSSetUpError) -> InspectionNSSDatabase {
        do {
            try makeDatabase(grant)
            try ExternalCommand.run(grant.command)
        } catch let error as CommandError {
            try? FileManager.default.removeItem(atPath: grant.database)
            throw NSSSetUpError(reason: "certutil could not add the root: \(error)")
        } catch {
            try? FileManager.default.removeItem(atPath: grant.database)
            throw error as? NSSSetUpError ?? NSSSetUpError(reason: "\(error)")
        }
        let pendingParent = (trustDirectory as NSString).deletingLastPathComponent
        if !grant.created.isEmpty {
            do {
                let manifest = try JSONEncoder().encode(InspectionNSSMountPoint.Manifest(home: grant.home, created: grant.created))
                try manifest.write(to: URL(fileURLWithPath: trustDirectory + "/" + manifestName), options: .withoutOverwriting)
            } catch {
                try? FileManager.default.removeItem(atPath: grant.database)
                throw NSSSetUpError(reason: "cannot record what it makes in \(grant.home): \(error.localizedDescription)")
            }
        }
        // Another run's end may remove the mount point between its making and its holding: then
        // it is made again (what this run made then is its own to remove).
        var created: [String] = []
        for _ in 0..<3 {
            for path in grant.created {
                let outcome = makeDirectory(home: grant.home, path.split(separator: "/").map(String.init), owner: grant.owner)
                if outcome == 0 {
                    if !created.contains(path) { created.append(path) }
                } else if outcome != EEXIST {
                    InspectionNSSDatabase(grant: grant, created: created, hold: -1, pendingParent: pendingParent).removeCreated()
                    try? FileManager.default.removeItem(atPath: grant.database)
                    throw NSSSetUpError(reason: "cannot make \(grant.home)/\(path): \(SystemError.text(outcome))")
                }
            }
            switch InspectionNSSMountPoint.hold(home: grant.home) {
            case .held(let descriptor):
                return InspectionNSSDatabase(grant: grant, created: created, hold: descriptor, pendingParent: pendingParent)
            case .unavailable:
                return InspectionNSSDatabase(grant: grant, created: created, hold: -1, pendingParent: pendingParent)
            case .vanished:
                continue
            }
        }
        InspectionNSSDatabase(grant: grant, created: created, hold: -1, pendingParent: pendingParent).removeCreated()
        try? FileManager.default.removeItem(atPath: grant.database)
        throw NSSSetUpError(reason: "\(grant.home)/\(InspectionNSSPlan.databaseComponents.joined(separator: "/")) kept vanishing "
                            + "as it was made (another run ending each time)")
    }

    /// Lets go of the mount point and removes the directories this run made, innermost first,
    /// each only while empty — or, while another run still holds the mount point, leaves that
    /// run's end to do it. Then carries out the removals other runs left to this one.
    func removeCreated() {
        if hold >= 0 { close(hold) }
        if !InspectionNSSMountPoint.removeUnlessHeld(home: grant.home, created) {
            InspectionNSSMountPoint.recordPending(.init(home: grant.home, created: created), in: pendingParent)
        }
        InspectionNSSMountPoint.sweepPending(parent: pendingParent)
    }

    /// What a killed run made in a home, recorded in its trust directory `directory`, removed as
    /// `removeCreated` would have — or left in a pending record while a live run holds it.
    /// Trusted only when the record is a plain file of ours (the directory belongs to CMD's user,
    /// who could write another), and only the directories the plan makes are ever removed.
    static func sweepCreated(trustDirectory directory: String) {
        guard let manifest = InspectionNSSMountPoint.readManifest(directory + "/" + manifestName) else { return }
        if !InspectionNSSMountPoint.removeUnlessHeld(home: manifest.home, manifest.created) {
            InspectionNSSMountPoint.recordPending(manifest, in: (directory as NSString).deletingLastPathComponent)
        }
    }

    /// The private database: a new 0700 directory of CMD's user, holding a copy of each of the
    /// user's files, looked at again as they are opened.
    private static func makeDatabase(_ grant: InspectionNSSPlan.Grant) throws(NSSSetUpError) {
        guard mkdir(grant.database, 0o700) == 0 else {
            throw NSSSetUpError(reason: "cannot make \(grant.database): \(SystemError.text(errno))")
        }
        let target = Glibc.open(grant.database, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard target >= 0 else { throw NSSSetUpError(reason: "cannot open \(grant.database): \(SystemError.text(errno))") }
        defer { close(target) }
        if let owner = grant.owner, fchown(target, owner.uid, owner.gid) != 0 {
            throw NSSSetUpError(reason: "cannot give \(grant.database) to \(owner.name): \(SystemError.text(errno))")
        }
        guard let userDatabase = grant.userDatabase, !grant.copied.isEmpty else { return }
        let source = PathBeneath.open(grant.home, InspectionNSSPlan.databaseComponents)
        guard source >= 0 else { throw NSSSetUpError(reason: "cannot open \(userDatabase): \(SystemError.text(errno))") }
        defer { close(source) }
        for name in grant.copied {
            if let problem = copy(name, from: source, to: target, owner: grant.owner) {
                throw NSSSetUpError(reason: "cannot copy \(userDatabase)/\(name): \(problem)")
            }
        }
    }

    /// Copies one file of the user's database; nil, or what went wrong.
    private static func copy(_ name: String, from source: Int32, to target: Int32, owner: CommandAccount?) -> String? {
        let input = openat(source, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard input >= 0 else { return SystemError.text(errno) }
        defer { close(input) }
        var status = stat()
        guard fstat(input, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return "it is no longer a plain file" }
        if let owner, status.st_uid != owner.uid { return "it is no longer \(owner.name)'s" }
        let output = openat(target, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard output >= 0 else { return SystemError.text(errno) }
        defer { close(output) }
        if let owner, fchown(output, owner.uid, owner.gid) != 0 { return SystemError.text(errno) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let got = read(input, &buffer, buffer.count)
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { return SystemError.text(errno) }
            if got == 0 { return nil }
            if let code = buffer.withUnsafeBytes({ FileDescriptor.writeAll(output, UnsafeRawBufferPointer(rebasing: $0[..<got])) }) {
                return SystemError.text(code)
            }
        }
    }

    /// Makes `components`' last directory under the home (0700, the owner's); 0, or the errno.
    private static func makeDirectory(home: String, _ components: [String], owner: CommandAccount?) -> Int32 {
        guard let name = components.last else { return EINVAL }
        let parent = PathBeneath.open(home, components.dropLast())
        guard parent >= 0 else { return errno }
        defer { close(parent) }
        guard mkdirat(parent, name, 0o700) == 0 else { return errno }
        let made = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard made >= 0 else { return errno }
        defer { close(made) }
        guard fchmod(made, 0o700) == 0 else { return errno }
        if let owner, fchown(made, owner.uid, owner.gid) != 0 { return errno }
        return 0
    }
}

/// Why the NSS database could not be made: said in the run's one notice, never a failure.
struct NSSSetUpError: Error, Sendable, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
