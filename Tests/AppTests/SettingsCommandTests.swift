import Foundation
import TestSupport
import Testing
import Shared

/// `tunnelvision settings`, run through the built binary over a data directory of its own.
@Suite(.serialized) struct SettingsCommandTests {
    let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("tv-settings-\(UUID().uuidString)")
    var file: URL { DataDirectoryLayout.settings(in: dataDirectory) }

    func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["settings"] + arguments + ["--data-dir", dataDirectory.path])
    }

    func clean() { try? FileManager.default.removeItem(at: dataDirectory) }

    static let factoryListing = """
        tls-inspection         off
        plaintext-persistence  off
        capture                on
        capture-detail         full
        retention-age          1w
        retention-size         1GiB
        plaintext-age          1d
        monitoring-target      host

        """

    @Test func nothingSavedShowsTheFactorySettingsAndCreatesNothing() throws {
        defer { clean() }
        let shown = try run([])
        #expect(shown.status == 0)
        #expect(shown.out == Self.factoryListing)
        // The factory retention limits are enforced now: nothing to warn about.
        #expect(shown.err.isEmpty)
        let json = try run(["--json"])
        #expect(json.status == 0)
        #expect(try JSONDecoder().decode(AppSettings.self, from: Data(json.out.utf8)) == .default)
        #expect(Data(json.out.utf8) == SettingsStore.encode(.default))
        #expect(!FileManager.default.fileExists(atPath: dataDirectory.path))
    }

    @Test func everySettingCanBeSetAndKeepsTheOthers() throws {
        defer { clean() }
        let changes: [(key: String, value: String, shown: String)] = [
            ("tls-inspection", "off", "off"), ("plaintext-persistence", "no", "off"), ("capture", "OFF", "off"),
            ("capture-detail", "metadata", "metadata"), ("retention-age", "30d", "30d"),
            ("retention-size", "256MiB", "256MiB"), ("plaintext-age", "1h", "1h"),
            ("monitoring-target", "Interface:eth0", "interface:eth0"),
        ]
        for change in changes {
            let result = try run(["set", change.key, change.value])
            #expect(result.status == 0, "\(change.key) \(change.value): \(result.err)")
            #expect(result.out == "\(change.key) \(change.shown)\n")
        }
        let expected = AppSettings(captureEnabled: false, captureDetail: .metadataOnly,
                                   retention: RetentionSettings(maxAge: .oneMonth, maxCaptureSize: .megabytes256,
                                                                maxPlaintextAge: .oneHour),
                                   monitoringTarget: .interface("eth0"))
        #expect(try SettingsStore(dataDirectory: dataDirectory).load() == expected)
        let shown = try run([])
        #expect(shown.status == 0)
        #expect(shown.out.split(separator: "\n").map { $0.split(separator: " ").map(String.init) } == changes.map { [$0.key, $0.shown] })
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func theObviousSpellingsAreAccepted() throws {
        defer { clean() }
        let spellings: [(key: String, value: String, shown: String)] = [
            ("plaintext-persistence", "disabled", "off"), ("tls-inspection", "false", "off"), ("capture", "1", "on"),
            ("capture", "no", "off"), ("capture-detail", "full-payload", "full"), ("capture-detail", "metadataOnly", "metadata"),
            ("retention-age", "1d", "1d"), ("retention-age", "7d", "1w"), ("retention-age", "1 week", "1w"),
            ("retention-age", "oneMonth", "30d"), ("retention-age", "unlimited", "unlimited"), ("retention-age", "never", "unlimited"),
            ("retention-size", "1GB", "1GiB"), ("retention-size", "4gib", "4GiB"), ("retention-size", "256 MB", "256MiB"),
            ("retention-size", "none", "unlimited"),
        ]
        for spelling in spellings {
            let result = try run(["set", spelling.key, spelling.value])
            #expect(result.status == 0 && result.out == "\(spelling.key) \(spelling.shown)\n", "\(spelling.value): \(result.err)")
        }
    }

    @Test func anythingElseIsRefusedWithTheValidValues() throws {
        defer { clean() }
        let value = try run(["set", "retention-size", "2GiB"])
        #expect(value.status == 2 && value.out.isEmpty)
        #expect(value.err.contains("retention-size cannot be 2GiB; it takes 256MiB, 1GiB, 4GiB, unlimited"))
        let age = try run(["set", "retention-age", "1y"])
        #expect(age.status == 2 && age.err.contains("1d, 1w, 30d, unlimited"))
        let toggle = try run(["set", "capture", "maybe"])
        #expect(toggle.status == 2 && toggle.err.contains("it takes on, off"))
        let key = try run(["set", "colour", "blue"])
        #expect(key.status == 2 && key.err.contains("no setting colour") && key.err.contains("retention-size"))
        #expect(try run(["set", "capture"]).status == 2)
        #expect(try run(["set", "capture", "--json"]).status == 2)
        #expect(try run(["--force"]).status == 2)
        #expect(try run(["show"]).status == 2)
        #expect(try run(["--verbose"]).status == 2)
        #expect(!FileManager.default.fileExists(atPath: dataDirectory.path))
    }

    @Test("'set … --json' says what was saved as JSON, and whether this build enforces it")
    func setAnswersInJSON() throws {
        defer { clean() }
        let saved = try run(["set", "retention-age", "7d", "--json"])
        #expect(saved.status == 0 && saved.err.isEmpty)
        #expect(saved.out == #"{"setting":"retention-age","value":"1w","enforced":true,"note":null,"setAside":null,"tunnel":null}"# + "\n")
        let shown = try run(["--json"])
        #expect(shown.status == 0 && shown.out.contains("retention"))
    }

    @Test("decrypting and keeping plaintext are stored like any setting, with no warning, once there is a CA to decrypt with")
    func decryptingAndKeepingPlaintextAreStored() throws {
        defer { clean() }
        let created = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["ca", "create", "--data-dir", dataDirectory.path])
        #expect(created.status == 0, "\(created.err)")
        for (key, value) in [("tls-inspection", "on"), ("plaintext-persistence", "yes")] {
            let stored = try run(["set", key, value])
            #expect(stored.status == 0 && stored.out == "\(key) on\n" && stored.err.isEmpty, "\(stored.err)")
        }
        let settings = try SettingsStore(dataDirectory: dataDirectory).load()
        #expect(settings.tlsInspectionEnabled && settings.plaintextPersistenceEnabled)
    }

    @Test("tls-inspection on with no CA, or one that cannot be read, is refused with why and the command that fixes it: exit status 2, nothing saved")
    func inspectionWithoutACAIsRefused() throws {
        defer { clean() }
        let none = try run(["set", "tls-inspection", "on"])
        #expect(none.status == 2 && none.out.isEmpty)
        #expect(none.err.contains("tls-inspection on is refused: there is no local CA to sign with; 'tunnelvision ca create' makes one"))
        #expect(!FileManager.default.fileExists(atPath: file.path))
        // --force sets an unreadable settings file aside; it does not turn inspection on without a CA.
        #expect(try run(["set", "tls-inspection", "on", "--force"]).status == 2)
        // A CA whose key cannot be read is no CA to sign with either: refused with what is wrong.
        let created = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["ca", "create", "--data-dir", dataDirectory.path])
        #expect(created.status == 0, "\(created.err)")
        try Data("not a key".utf8).write(to: DataDirectoryLayout.caKey(in: dataDirectory))
        let unreadable = try run(["set", "tls-inspection", "on", "--json"])
        #expect(unreadable.status == 2 && unreadable.err.contains("tls-inspection on is refused: the local CA cannot be read"))
        #expect(unreadable.err.hasSuffix("'tunnelvision ca remove' deletes the CA so a new one can be made. Nothing was changed.\n"),
                "\(unreadable.err)")
        #expect(try run(["set", "tls-inspection", "off"]).status == 0)
    }

    @Test("a retention limit is stored without a warning: it is enforced")
    func aRetentionLimitIsStoredWithoutAWarning() throws {
        defer { clean() }
        let limited = try run(["set", "retention-age", "1d"])
        #expect(limited.status == 0 && limited.out == "retention-age 1d\n")
        #expect(limited.err.isEmpty)
        #expect(try SettingsStore(dataDirectory: dataDirectory).load().retention.maxAge == .oneDay)
        let unlimited = try run(["set", "retention-size", "unlimited"])
        #expect(unlimited.status == 0 && unlimited.err.isEmpty)
    }

    @Test("an opt-in stored by hand is shown, with no warning: it is honoured")
    func anOptInStoredByHandIsShownAsHonoured() throws {
        defer { clean() }
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        try SettingsStore.encode(AppSettings(tlsInspectionEnabled: true,
                                             retention: RetentionSettings(maxAge: .unlimited, maxCaptureSize: .unlimited)))
            .write(to: file)
        let shown = try run([])
        #expect(shown.status == 0 && shown.out.hasPrefix("tls-inspection         on\n"))
        #expect(shown.err.isEmpty, "\(shown.err)")
    }

    @Test func aCorruptFileIsReportedShownAsTheDefaultsAndLeftAlone() throws {
        defer { clean() }
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        let corrupt = Data("{\"captureEnabled\": false,\n\"retention\": {".utf8)
        try corrupt.write(to: file)
        let shown = try run([])
        #expect(shown.status == 1)
        #expect(shown.out == Self.factoryListing)
        #expect(shown.err.contains(file.path) && shown.err.contains("does not hold valid settings"))
        #expect(shown.err.contains("left as it is") && shown.err.contains("factory settings"))
        let json = try run(["--json"])
        #expect(json.status == 1 && Data(json.out.utf8) == SettingsStore.encode(.default))
        #expect(try Data(contentsOf: file) == corrupt)

        let refused = try run(["set", "capture-detail", "metadata"])
        #expect(refused.status == 1 && refused.out.isEmpty)
        #expect(refused.err.contains(file.path) && refused.err.contains("Nothing was changed"))
        #expect(refused.err.contains("add --force to set it aside"))
        #expect(try Data(contentsOf: file) == corrupt)

        let forced = try run(["set", "capture-detail", "metadata", "--force"])
        #expect(forced.status == 0 && forced.out == "capture-detail metadata\n")
        #expect(try SettingsStore(dataDirectory: dataDirectory).load() == AppSettings(captureDetail: .metadataOnly))
        // The unreadable file is kept whole beside the new one, never overwritten.
        let files = try FileManager.default.contentsOfDirectory(atPath: dataDirectory.path).sorted()
        #expect(files.count == 2 && files[0] == "settings.json" && files[1].hasPrefix("settings.json.unreadable-"), "\(files)")
        #expect(try Data(contentsOf: dataDirectory.appendingPathComponent(files[1])) == corrupt)
        #expect(forced.err.contains("set the unreadable \(file.path) aside as \(dataDirectory.path)/\(files[1])"))
    }

    /// The file's bytes as sha256sum sees them: the refusals must leave them exactly so.
    func sha256() throws -> String {
        try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), [file.path]).out
    }

    @Test("a settings file with a wrong type, an unknown value or an unknown key is unreadable: shown, refused, left byte for byte")
    func wrongTypesAndUnknownKeysAreUnreadableAndKept() throws {
        defer { clean() }
        let files: [(json: String, field: String)] = [
            ("{\"captureEnabled\": \"yes\"}\n", "captureEnabled is not Bool"),
            ("{\"captureDetail\": 7}\n", "captureDetail"),
            ("{\"captureEnabled\": false, \"futureKey\": 1}\n", "futureKey: not a setting this build knows"),
        ]
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        for (json, field) in files {
            try Data(json.utf8).write(to: file)
            let before = try sha256()
            let shown = try run([])
            #expect(shown.status == 1, "\(json): \(shown.err)")
            #expect(shown.err.contains("\(file.path) does not hold valid settings: \(field)"), "\(shown.err)")
            #expect(shown.err.contains("'run' refuses to start until the file is fixed or --no-capture is given"))
            let set = try run(["set", "retention-age", "30d"])
            #expect(set.status == 1 && set.out.isEmpty, "\(json): \(set.out)")
            #expect(set.err.contains("Nothing was changed. Edit the file, or add --force"), "\(set.err)")
            #expect(try sha256() == before, "\(json) was rewritten")
            #expect(try String(contentsOf: file, encoding: .utf8) == json)
        }
    }

    @Test func anUnreachableDataDirectoryIsAnErrorNotTheFactorySettings() throws {
        defer { clean() }
        try Data("a file where the data directory should be".utf8).write(to: dataDirectory)
        let shown = try run([])
        #expect(shown.status == 1 && shown.out == Self.factoryListing)
        #expect(shown.err.contains("cannot reach the settings") && shown.err.contains("Not a directory"))
        let set = try run(["set", "capture", "off", "--force"])
        #expect(set.status == 1 && set.err.contains("Nothing was changed"))
    }

    @Test func helpDescribesTheCommand() throws {
        let overview = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["--help"])
        #expect(overview.status == 0 && overview.out.contains("tunnelvision settings [--json]"))
        let help = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["help", "settings"])
        #expect(help.status == 0)
        for word in ["settings set SETTING VALUE", "--data-dir", "--force", "retention-size", "256MiB | 1GiB | 4GiB | unlimited",
                     "tls-inspection", "plaintext-age", "host | netns:NAME | pid:PID | interface:IF",
                     "applied by the tunnel when a session starts", "storage apply"] {
            #expect(help.out.contains(word), "\(word)")
        }
        #expect(try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["settings", "--help"]).out == help.out)
    }
}
