import Foundation
import Testing
import Shared
import CTunnelVision

@Suite struct DataDirectoryTests {
    @Test func theFlagWinsThenTheEnvironmentThenTheUsersDefault() {
        let environment = ["TUNNELVISION_DATA": "/srv/tv", "HOME": "/home/ana", "XDG_DATA_HOME": "/data/ana"]
        #expect(DataDirectory.location(override: "/tmp/x", environment: environment, effectiveUserID: 1000).path == "/tmp/x")
        #expect(DataDirectory.location(override: nil, environment: environment, effectiveUserID: 0).path == "/srv/tv")
        #expect(DataDirectory.location(override: nil, environment: ["HOME": "/root"], effectiveUserID: 0).path == "/var/lib/tunnelvision")
        #expect(DataDirectory.location(override: nil, environment: ["HOME": "/home/ana", "XDG_DATA_HOME": "/data/ana"],
                                       effectiveUserID: 1000).path == "/data/ana/tunnelvision")
        // A relative XDG_DATA_HOME is invalid by the XDG spec and ignored.
        #expect(DataDirectory.location(override: nil, environment: ["HOME": "/home/ana", "XDG_DATA_HOME": "rel"],
                                       effectiveUserID: 1000).path == "/home/ana/.local/share/tunnelvision")
    }

    @Test func preparingCreatesAnOwnerOnlyDirectoryAndRefusesAFile() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tv-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let directory = base.appendingPathComponent("a/b/data")
        try DataDirectory.prepare(directory)
        try DataDirectory.prepare(directory)                         // already there: fine
        let mode = try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        let file = base.appendingPathComponent("file")
        try Data().write(to: file)
        #expect(throws: DirectoryError(path: file.path, errno: ENOTDIR)) { try DataDirectory.prepare(file) }
    }

    @Test func theTUNConstantsAreTheKernels() {
        #expect(ctv_tun_set_iff() == 0x4004_54CA)
        #expect(ctv_iff_tun() == 0x0001 && ctv_iff_no_pi() == 0x1000)
    }
}
