#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing
@testable import Shared

@Suite struct SettingsStoreTests {
    static let choices = AppSettings(tlsInspectionEnabled: true, captureDetail: .metadataOnly,
                                     retention: RetentionSettings(maxAge: .unlimited, maxCaptureSize: .megabytes256))

    /// The file's bytes and identity, to show a read left it exactly as it was.
    static func fingerprint(_ file: URL) throws -> [String] {
        var status = stat()
        _ = stat(file.path, &status)
        return [try Data(contentsOf: file).base64EncodedString(), "\(status.st_ino)",
                "\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)", "\(status.st_mode)"]
    }

    @Test func nothingStoredIsTheFactorySettings() throws {
        let temporary = TemporaryDirectory()
        let missingDirectory = temporary.url.appendingPathComponent("never-created")
        #expect(try SettingsStore(dataDirectory: temporary.url).load() == .default)
        #expect(try SettingsStore(dataDirectory: missingDirectory).load() == .default)
        #expect(SettingsStore(dataDirectory: missingDirectory).loadForSession()
                == SettingsReading(settings: .default, problem: nil))
        // Reading creates nothing.
        #expect(!FileManager.default.fileExists(atPath: missingDirectory.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.url.path).isEmpty)
        #expect(try SettingsStore(reading: { nil }, writing: { _ in }).load() == .default)
    }

    @Test func saveThenLoadRoundTrips() throws {
        let temporary = TemporaryDirectory()
        let store = SettingsStore(dataDirectory: temporary.url.appendingPathComponent("data"))
        try store.save(Self.choices)
        #expect(try store.load() == Self.choices)
        #expect(store.location == temporary.url.appendingPathComponent("data/settings.json").path)
        try store.save(.default)
        #expect(try store.load() == .default)
    }

    @Test func theFileIsPrettyPrintedWithSortedKeysForAPersonToRead() throws {
        let temporary = TemporaryDirectory()
        try SettingsStore(dataDirectory: temporary.url).save(.default)
        let text = try String(contentsOf: DataDirectoryLayout.settings(in: temporary.url), encoding: .utf8)
        #expect(text == """
            {
              "captureDetail" : "fullPayload",
              "captureEnabled" : true,
              "monitoringTarget" : {
                "kind" : "host"
              },
              "plaintextPersistenceEnabled" : false,
              "retention" : {
                "maxAge" : "oneWeek",
                "maxCaptureSize" : "gigabytes1",
                "maxPlaintextAge" : "oneDay"
              },
              "tlsInspectionEnabled" : false
            }

            """)
    }

    @Test func aCorruptFileIsReportedAndLeftExactlyAsItWas() throws {
        let temporary = TemporaryDirectory()
        let file = DataDirectoryLayout.settings(in: temporary.url)
        try Data("{\"captureEnabled\": fals".utf8).write(to: file)
        let before = try Self.fingerprint(file)
        let store = SettingsStore(dataDirectory: temporary.url)
        let error = #expect(throws: SettingsError.self) { try store.load() }
        guard case let .corruptData(path, reason)? = error else {
            Issue.record("expected corruptData, got \(String(describing: error))")
            return
        }
        #expect(path == file.path && reason.hasPrefix("not JSON"))
        #expect(try Self.fingerprint(file) == before)
        let reading = store.loadForSession()
        #expect(reading.settings == .default && reading.problem == error)
        #expect(try Self.fingerprint(file) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.url.path) == ["settings.json"])
    }

    @Test func jsonThatIsNotAnObjectIsCorrupt() throws {
        for blob in ["[]", #"[{"captureEnabled":false}]"#, "42", "null", "", "\u{FEFF}"] {
            let store = SettingsStore(location: "memory", reading: { Data(blob.utf8) }, writing: { _ in })
            #expect(throws: SettingsError.self, "\(blob) loaded") { try store.load() }
            if case .corruptData(path: "memory", reason: _)? = store.loadForSession().problem {} else {
                Issue.record("\(blob): expected corruptData")
            }
        }
    }

    @Test func anUnreachableStoreIsNotTheSameAsNothingStored() throws {
        let temporary = TemporaryDirectory()
        let notADirectory = temporary.url.appendingPathComponent("data")
        try Data("a file where the data directory should be".utf8).write(to: notADirectory)
        let store = SettingsStore(dataDirectory: notADirectory)
        let settingsPath = notADirectory.appendingPathComponent("settings.json").path
        #expect(throws: SettingsError.storeUnavailable(path: settingsPath, reason: "Not a directory")) { try store.load() }
        #expect(store.loadForSession() == SettingsReading(
            settings: .default, problem: .storeUnavailable(path: settingsPath, reason: "Not a directory")))
        #expect {
            try store.save(.default)
        } throws: { error in
            guard case let .storeUnavailable(path, reason)? = error as? SettingsError else { return false }
            return path == settingsPath && reason.contains("Not a directory")
        }

        // A directory where the file should be cannot be read either.
        let blocked = TemporaryDirectory()
        try FileManager.default.createDirectory(at: DataDirectoryLayout.settings(in: blocked.url),
                                                withIntermediateDirectories: false)
        #expect(throws: SettingsError.storeUnavailable(path: DataDirectoryLayout.settings(in: blocked.url).path,
                                                       reason: "not a regular file")) {
            try SettingsStore(dataDirectory: blocked.url).load()
        }
    }

    @Test func theSeamReportsItsFailuresAsUnavailableAndPassesSettingsErrorsThrough() {
        struct Denied: Error, CustomStringConvertible { var description: String { "permission denied" } }
        let failing = SettingsStore(location: "memory", reading: { throw Denied() }, writing: { _ in throw Denied() })
        #expect(throws: SettingsError.storeUnavailable(path: "memory", reason: "permission denied")) { try failing.load() }
        #expect(throws: SettingsError.storeUnavailable(path: "memory", reason: "permission denied")) {
            try failing.save(.default)
        }
        let specific = SettingsError.corruptData(path: "elsewhere", reason: "as the closure said")
        let passing = SettingsStore(reading: { throw specific }, writing: { _ in })
        #expect(throws: specific) { try passing.load() }
    }

    @Test func saveOverACorruptFileRepairsIt() throws {
        let temporary = TemporaryDirectory()
        let file = DataDirectoryLayout.settings(in: temporary.url)
        try Data([0xFF, 0x00, 0x7B]).write(to: file)
        let store = SettingsStore(dataDirectory: temporary.url)
        #expect(throws: SettingsError.self) { try store.load() }
        try store.save(Self.choices)
        #expect(try store.load() == Self.choices)
        #expect(store.loadForSession() == SettingsReading(settings: Self.choices, problem: nil))
    }

    @Test func theFileIsOwnerOnlyAndReplacedAtomically() throws {
        let temporary = TemporaryDirectory()
        let store = SettingsStore(dataDirectory: temporary.url)
        let file = DataDirectoryLayout.settings(in: temporary.url)
        try store.save(.default)
        var first = stat()
        stat(file.path, &first)
        try store.save(Self.choices)
        var second = stat()
        stat(file.path, &second)
        #expect(first.st_mode & 0o7777 == 0o600 && second.st_mode & 0o7777 == 0o600)
        #expect(first.st_ino != second.st_ino)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.url.path) == ["settings.json"])
    }

    @Test func theSeamSeesExactlyTheBytesThatAreSaved() throws {
        let written = Written()
        let store = SettingsStore(reading: { written.data }, writing: { written.data = $0 })
        try store.save(Self.choices)
        let data = try #require(written.data)
        #expect(data.last == UInt8(ascii: "\n"))
        #expect(try JSONDecoder().decode(AppSettings.self, from: data) == Self.choices)
        #expect(try store.load() == Self.choices)
    }

    final class Written: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Data?
        var data: Data? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }
}
