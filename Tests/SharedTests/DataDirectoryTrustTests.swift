#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import Shared

/// The data directory's trust check (OpenSSH StrictModes-like), decided from statuses, then the
/// same refusals on real directories.
@Suite struct DataDirectoryTrustTests {
    let directory = PathStatus(kind: .directory, mode: 0o700, owner: 0)
    let root = [(path: "/", status: PathStatus(kind: .directory, mode: 0o755, owner: 0))]

    func refusal(_ status: PathStatus, parents: [(path: String, status: PathStatus)]? = nil,
                 access: DataDirectoryTrust.Access = .write) -> String? {
        DataDirectoryTrust.refusal(of: "/x", status: status, parents: parents ?? root, user: 0, userName: "root",
                                   access: access)?.description
    }

    @Test("a private directory of the tunnel's user, in root-owned parents, is trusted")
    func aPrivateDirectoryIsTrusted() {
        #expect(refusal(directory) == nil)
        #expect(refusal(PathStatus(kind: .directory, mode: 0o755, owner: 0)) == nil)
    }

    @Test("a group- or world-writable directory is refused with the chmod to type")
    func writableDirectoriesAreRefused() {
        #expect(refusal(PathStatus(kind: .directory, mode: 0o775, owner: 0))
                == "data directory /x is writable by its group (mode 0775): chmod 700 /x")
        #expect(refusal(PathStatus(kind: .directory, mode: 0o757, owner: 0))
                == "data directory /x is writable by everyone (mode 0757): chmod 700 /x")
        #expect(refusal(PathStatus(kind: .directory, mode: 0o1777, owner: 0))
                == "data directory /x is writable by its group and everyone (mode 1777): chmod 700 /x")
    }

    @Test("a directory owned by another user is refused with the chown to type; a reader also trusts root's")
    func anotherUsersDirectoryIsRefused() {
        #expect(refusal(PathStatus(kind: .directory, mode: 0o700, owner: 1000))
                == "data directory /x is owned by uid 1000, not root (the user tunnelvision runs as): chown root /x or choose another --data-dir")
        let rootsDirectory = PathStatus(kind: .directory, mode: 0o700, owner: 0)
        let asUser = { (access: DataDirectoryTrust.Access) in
            DataDirectoryTrust.refusal(of: "/x", status: rootsDirectory, parents: root, user: 1000, userName: "ana",
                                       access: access)
        }
        #expect(asUser(.read) == nil)
        #expect(asUser(.write)?.problem == .ownedByAnother(owner: 0, user: 1000, userName: "ana"))
    }

    @Test("a symbolic link or a file where the directory should be is refused")
    func aLinkOrAFileIsRefused() {
        #expect(refusal(PathStatus(kind: .symbolicLink, mode: 0o777, owner: 0))
                == "/x: it is a symbolic link; refusing to follow it (remove it)")
        #expect(refusal(PathStatus(kind: .regularFile, mode: 0o600, owner: 0)) == "/x: \(SystemError.text(ENOTDIR))")
    }

    @Test("a parent others may write is refused unless sticky; a parent of another user is refused")
    func parentsAreChecked() {
        let tmp = [(path: "/tmp", status: PathStatus(kind: .directory, mode: 0o1777, owner: 0))] + root
        #expect(refusal(directory, parents: tmp) == nil)
        let shared = [(path: "/srv", status: PathStatus(kind: .directory, mode: 0o777, owner: 0))] + root
        #expect(refusal(directory, parents: shared)
                == "data directory /x sits in /srv, which is writable by its group and everyone (mode 0777): chmod go-w /srv or choose another --data-dir")
        let someoneElses = [(path: "/home/bo", status: PathStatus(kind: .directory, mode: 0o755, owner: 1001))] + root
        #expect(refusal(directory, parents: someoneElses)
                == "data directory /x sits in /home/bo, which is owned by uid 1001, not root (the user tunnelvision runs as): chown root /home/bo or choose another --data-dir")
    }

    @Test("the ancestors run from the nearest to /")
    func ancestors() {
        #expect(DataDirectoryTrust.ancestors(of: "/a/b/c") == ["/a/b", "/a", "/"])
        #expect(DataDirectoryTrust.ancestors(of: "/") == [])
    }

    // MARK: real directories

    @Test("preparing a real group-writable, another user's or symlinked directory refuses it and writes nothing")
    func realDirectoriesAreRefused() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tv-trust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        chmod(base.path, 0o700)
        let user = String(cString: getpwuid(geteuid())!.pointee.pw_name)

        let writable = base.appendingPathComponent("writable")
        try FileManager.default.createDirectory(at: writable, withIntermediateDirectories: false)
        chmod(writable.path, 0o775)
        #expect(throws: DirectoryError(path: writable.path, problem: .writableByOthers(mode: 0o775))) {
            try DataDirectory.prepare(writable)
        }

        let foreign = base.appendingPathComponent("foreign")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: false)
        chmod(foreign.path, 0o700)
        try #require(chown(foreign.path, geteuid() + 4242, getegid()) == 0)
        let error = try #require(throws: DirectoryError.self) { try DataDirectory.prepare(foreign) }
        #expect(error.description == "data directory \(foreign.path) is owned by uid \(geteuid() + 4242), not \(user) (the user tunnelvision runs as): chown \(user) \(foreign.path) or choose another --data-dir")
        #expect(throws: DirectoryError.self) { try DataDirectory.verify(foreign, access: .read) }

        // A link to a directory elsewhere: refused, and nothing appears at its target.
        let target = base.appendingPathComponent("target")
        let link = base.appendingPathComponent("link")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect(throws: DirectoryError(path: link.path, problem: .symbolicLink)) { try DataDirectory.prepare(link) }
        #expect(throws: DirectoryError(path: link.path, problem: .symbolicLink)) {
            try DataDirectory.verify(link, access: .read)
        }
        #expect(throws: (any Error).self) { try FlowStore(dataDirectory: link) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)

        // A missing directory is fine to read (it holds nothing yet), and is made 0700 to write.
        let fresh = base.appendingPathComponent("fresh")
        try DataDirectory.verify(fresh, access: .read)
        try DataDirectory.prepare(fresh)
        #expect(PathStatus.of(fresh.path)?.mode == 0o700)
    }
}
