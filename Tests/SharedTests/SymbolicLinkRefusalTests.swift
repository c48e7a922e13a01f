#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing
@testable import Shared

/// Files in the data directory are opened without following symbolic links: each planted link
/// (pointing into a directory of the test's) is refused with what it is, and its target stays
/// absent or unchanged. Then every file and folder the writers make is owner-only.
@Suite struct SymbolicLinkRefusalTests {
    static let refusal = "it is a symbolic link; refusing to follow it (remove it)"

    /// A data directory and, beside it, a directory the links point into.
    let data = TemporaryDirectory("tv-links-data")
    let elsewhere = TemporaryDirectory("tv-links-target")

    func plant(_ name: String, pointingTo target: String) throws -> URL {
        let link = data.url.appendingPathComponent(name)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: elsewhere.url.appendingPathComponent(target).path)
        return link
    }

    @Test("a symlinked history is refused as a link, not as 'No such file', and nothing is created at its target")
    func aSymlinkedDatabaseIsRefused() throws {
        let link = try plant(DataDirectoryLayout.databaseFileName, pointingTo: "stolen.sqlite")
        let error = try #require(throws: StoreError.self) { try FlowStore(dataDirectory: data.url) }
        #expect(error.description == "cannot open the history at \(link.path): \(Self.refusal)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.url.path).isEmpty)
    }

    @Test("a symlinked WAL sidecar is refused before SQLite could create the WAL at its target")
    func aSymlinkedSidecarIsRefused() throws {
        let link = try plant(DataDirectoryLayout.databaseFileName + "-wal", pointingTo: "stolen-wal")
        let error = try #require(throws: StoreError.self) { try FlowStore(dataDirectory: data.url) }
        #expect(error.description == "cannot open the history at \(link.path): \(Self.refusal)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.url.path).isEmpty)
    }

    @Test("a symlinked captures folder is refused and no capture file is made at its target")
    func aSymlinkedCapturesFolderIsRefused() throws {
        let link = try plant(DataDirectoryLayout.capturesDirectoryName, pointingTo: "")
        let error = try #require(throws: PcapError.self) {
            try PcapFileWriter(config: .init(directory: DataDirectoryLayout.captures(in: data.url)), wallClock: { 0 })
        }
        #expect(error.description == "cannot create capture file \(link.path): \(Self.refusal)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.url.path).isEmpty)
    }

    @Test("a symlink planted at a capture file's name is never written through: the writer moves past it")
    func aSymlinkAtACaptureFileIsNeverFollowed() throws {
        let captures = DataDirectoryLayout.captures(in: data.url)
        try PrivateDirectory.create(captures)
        let link = captures.appendingPathComponent(CaptureFileName.make(sequence: 1, nanosecondsSince1970: 0))
        let target = elsewhere.url.appendingPathComponent("stolen.pcap")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
        let capture = try PcapFileWriter(config: .init(directory: captures), wallClock: { 0 })
        _ = try capture.write(packet: Data([0x45, 0, 0, 20]), originalLength: 20, timestamp: 0)
        try capture.close()
        #expect(capture.captureFiles().map(\.lastPathComponent) == [CaptureFileName.make(sequence: 2, nanosecondsSince1970: 0)])
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test("a symlinked settings file is refused, not read through, and saving leaves the link and its target alone")
    func aSymlinkedSettingsFileIsRefused() throws {
        let target = elsewhere.url.appendingPathComponent("their-settings.json")
        let theirs = SettingsStore.encode(AppSettings(captureEnabled: false))
        try theirs.write(to: target)
        let link = try plant(DataDirectoryLayout.settingsFileName, pointingTo: "their-settings.json")
        let store = SettingsStore(dataDirectory: data.url)
        let expected = SettingsError.storeUnavailable(path: link.path, reason: Self.refusal)
        #expect(throws: expected) { try store.load() }
        #expect(store.loadForSession().problem == expected)
        #expect(throws: expected) { try store.save(.default) }
        #expect(PathStatus.of(link.path)?.kind == .symbolicLink)
        #expect(try Data(contentsOf: target) == theirs)
    }

    @Test("what the history, the capture and the settings make is owner-only: folders 0700, files 0600")
    func everythingMadeIsOwnerOnly() async throws {
        let directory = data.url.appendingPathComponent("fresh")
        try DataDirectory.prepare(directory)
        let store = try FlowStore(dataDirectory: directory)
        _ = try await store.upsertFlow(StoreFixtures.record(StoreFixtures.key(1)))
        let capture = try PcapFileWriter(config: .init(directory: DataDirectoryLayout.captures(in: directory)))
        _ = try capture.write(packet: Data([0x45, 0, 0, 20]), originalLength: 20, timestamp: 0)
        try capture.close()
        try SettingsStore(dataDirectory: directory).save(.default)
        let made = try #require(FileManager.default.subpaths(atPath: directory.path)).map { directory.path + "/" + $0 }
        #expect(made.count >= 5, "\(made)")   // the history and its sidecars, the captures folder and file, the settings
        for path in [directory.path] + made {
            let status = try #require(PathStatus.of(path))
            #expect(status.mode == (status.kind == .directory ? 0o700 : 0o600), "\(path): \(String(status.mode, radix: 8))")
        }
        await store.close()
    }
}
