#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Linux
import Testing

/// Two runs as one user share the home's `.pki/nssdb`: the one ending first must not remove the
/// mount point the other's command reads its database through. Real directories, real `flock`.
@Suite("The home's NSS mount point, shared by runs")
struct InspectionNSSMountPointTests {
    /// A home of its own and a folder standing for the trust directories' parent.
    final class Scene {
        let root: String
        var home: String { root + "/home" }
        var parent: String { root + "/tmp" }
        var mountPoint: String { home + "/.pki/nssdb" }
        let created = [".pki", ".pki/nssdb"]

        init() throws {
            root = NSTemporaryDirectory() + "nss-mount-point-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: root + "/home/.pki/nssdb", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root + "/tmp", withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        var pending: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []).filter {
                $0.hasPrefix(InspectionNSSMountPoint.pendingPrefix)
            }
        }

        func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
    }

    @Test("while a second run holds the mount point, the first run's end keeps it and leaves a record; the second's end removes both")
    func theLastRunOutRemovesIt() throws {
        let scene = try Scene()
        guard case .held(let second) = InspectionNSSMountPoint.hold(home: scene.home) else {
            Issue.record("the mount point could not be held")
            return
        }
        // The first run made the directories and ends while the second still runs.
        #expect(InspectionNSSMountPoint.removeUnlessHeld(home: scene.home, scene.created) == false)
        #expect(scene.exists(scene.mountPoint), "the second run's mount point was taken from under it")
        InspectionNSSMountPoint.recordPending(.init(home: scene.home, created: scene.created), in: scene.parent)
        InspectionNSSMountPoint.sweepPending(parent: scene.parent)
        #expect(scene.exists(scene.mountPoint) && scene.pending.count == 1, "a sweep while it is held removes nothing")
        // The second run ends: it lets go, and its sweep carries out the first run's removal.
        close(second)
        InspectionNSSMountPoint.sweepPending(parent: scene.parent)
        #expect(!scene.exists(scene.home + "/.pki"), "the folders the first run made outlived both runs")
        #expect(scene.pending.isEmpty, "the carried-out record was kept: \(scene.pending)")
        #expect(scene.exists(scene.home))
    }

    @Test("with no run holding it, the directories made go at once, innermost first, and what another put there stays")
    func removedAtOnceWhenFree() throws {
        let scene = try Scene()
        #expect(InspectionNSSMountPoint.removeUnlessHeld(home: scene.home, scene.created))
        #expect(!scene.exists(scene.home + "/.pki"))

        let kept = try Scene()
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: kept.mountPoint + "/cert9.db"))
        #expect(InspectionNSSMountPoint.removeUnlessHeld(home: kept.home, kept.created))
        #expect(kept.exists(kept.mountPoint + "/cert9.db"), "a file someone put in the mount point was removed")
        // Only the plan's folders are ever removed, whatever a record names.
        try FileManager.default.createDirectory(atPath: kept.home + "/Documents", withIntermediateDirectories: false)
        #expect(InspectionNSSMountPoint.removeUnlessHeld(home: kept.home, ["Documents"]))
        #expect(kept.exists(kept.home + "/Documents"))
    }

    @Test("a mount point removed before it is held is said to have vanished, so the run makes it again")
    func vanishedBeforeHeld() throws {
        let scene = try Scene()
        try FileManager.default.removeItem(atPath: scene.mountPoint)
        #expect(InspectionNSSMountPoint.hold(home: scene.home) == .vanished)
    }

    @Test("a pending record that is not ours, or reached through a link, is never acted on")
    func foreignRecordsIgnored() throws {
        let scene = try Scene()
        let manifest = try JSONEncoder().encode(InspectionNSSMountPoint.Manifest(home: scene.home, created: scene.created))
        let planted = scene.parent + "/" + InspectionNSSMountPoint.pendingPrefix + "planted"
        try manifest.write(to: URL(fileURLWithPath: planted))
        let linked = scene.parent + "/" + InspectionNSSMountPoint.pendingPrefix + "linked"
        #expect(symlink(planted, linked) == 0)
        #expect(InspectionNSSMountPoint.readManifest(linked) == nil, "a record reached through a link was read")
        // Another user's (needs root, as the suite runs).
        #expect(chown(planted, 65534, 65534) == 0, "chown: \(String(cString: strerror(errno)))")
        InspectionNSSMountPoint.sweepPending(parent: scene.parent)
        #expect(scene.exists(scene.mountPoint), "another user's record removed the folders")
        #expect(scene.exists(planted))
    }
}
