#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared
import TestSupport
import Testing

/// The commands that only read (`stats`, `settings`) refuse an untrusted data directory and a
/// planted link as `run` does, naming the fix. No tunnel is started: these read files and a
/// socket in a temporary directory.
@Suite struct ReadingCommandsTrustTests {
    static let refusal = "it is a symbolic link; refusing to follow it (remove it)"

    func tunnelvision(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), arguments)
    }

    @Test("stats refuses a data directory everyone may write, with the chmod to type")
    func statsRefusesAWritableDirectory() throws {
        let data = TemporaryDirectory("tv-stats-writable")
        chmod(data.url.path, 0o777)
        let result = try tunnelvision(["stats", "--data-dir", data.url.path])
        #expect(result.status == 1)
        #expect(result.err == "tunnelvision: data directory \(data.url.path) is writable by its group and everyone (mode 0777): chmod 700 \(data.url.path)\n")
    }

    @Test("stats refuses a control socket that is a link instead of connecting to where it points")
    func statsRefusesALinkedSocket() throws {
        let data = TemporaryDirectory("tv-stats-link")
        chmod(data.url.path, 0o700)
        let elsewhere = TemporaryDirectory("tv-stats-target")
        try SweepFixtures.staleSocket(at: elsewhere.url.appendingPathComponent("theirs.sock").path)
        let link = DataDirectoryLayout.controlSocket(in: data.url).path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: elsewhere.url.appendingPathComponent("theirs.sock").path)
        let result = try tunnelvision(["stats", "--data-dir", data.url.path])
        #expect(result.status == 1)
        #expect(result.err == "tunnelvision: \(link): \(Self.refusal)\n")
    }

    @Test("settings refuses a linked settings file, reading nothing through it and leaving its target as it was")
    func settingsRefusesALinkedFile() throws {
        let data = TemporaryDirectory("tv-settings-link")
        chmod(data.url.path, 0o700)
        let elsewhere = TemporaryDirectory("tv-settings-target")
        let target = elsewhere.url.appendingPathComponent("theirs.json")
        let theirs = SettingsStore.encode(AppSettings(captureEnabled: false))
        try theirs.write(to: target)
        let link = DataDirectoryLayout.settings(in: data.url).path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target.path)
        let shown = try tunnelvision(["settings", "--data-dir", data.url.path])
        #expect(shown.status == 1)
        #expect(shown.err.contains("tunnelvision: cannot reach the settings at \(link): \(Self.refusal)\n"), "\(shown.err)")
        let set = try tunnelvision(["settings", "set", "capture", "off", "--data-dir", data.url.path])
        #expect(set.status == 1, "\(set.err)")
        #expect(set.err.contains(Self.refusal), "\(set.err)")
        #expect(try Data(contentsOf: target) == theirs)
        #expect(PathStatus.of(link)?.kind == .symbolicLink)
    }
}
