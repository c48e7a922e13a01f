#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Linux
import Shared

/// `tunnelvision settings [set KEY VALUE]`: the shell around `SettingsStore` — resolve the data
/// directory, read, show, change one setting, save.
enum SettingsCommand {
    /// What was asked.
    enum Request: Equatable {
        case show(dataDirectory: String?, json: Bool)
        case set(SettingChange, dataDirectory: String?, force: Bool)
    }

    /// The arguments after `settings` (`--json` already taken out by `Invocation`).
    static func parse(_ arguments: [String], json: Bool) throws(Invocation.UsageError) -> Request {
        var rest = arguments
        let dataDirectory = try takeValue(of: "--data-dir", from: &rest)
        let force = rest.contains("--force")
        rest.removeAll { $0 == "--force" }
        if let unknown = rest.first(where: { $0.hasPrefix("-") && $0 != "-" }) {
            throw usage("settings: unknown option \(unknown)")
        }
        switch rest.first {
        case nil:
            if force { throw usage("settings: --force only goes with 'settings set'") }
            return .show(dataDirectory: dataDirectory, json: json)
        case "set":
            if json { throw usage("settings set: --json is for showing the settings") }
            guard rest.count == 3 else {
                throw usage("settings set: which setting, and what value? (tunnelvision settings set KEY VALUE)\n"
                            + "The settings are \(Setting.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            return .set(try SettingChange.parse(key: rest[1], value: rest[2]), dataDirectory: dataDirectory, force: force)
        case let other?:
            throw usage("settings: unexpected \(other) (to change one: tunnelvision settings set KEY VALUE)")
        }
    }

    /// Runs the request; returns the exit status.
    static func run(_ request: Request) -> Int32 {
        switch request {
        case let .show(dataDirectory, json): show(store(dataDirectory), json: json)
        case let .set(change, dataDirectory, force): set(change, in: store(dataDirectory), force: force)
        }
    }

    private static func store(_ override: String?) -> SettingsStore {
        let directory = DataDirectory.location(override: override, environment: ProcessInfo.processInfo.environment,
                                               effectiveUserID: geteuid())
        return SettingsStore(dataDirectory: directory)
    }

    /// Prints what a tunnel starting now would use. A file that cannot be read is reported and
    /// left alone, and the exit status says so.
    private static func show(_ store: SettingsStore, json: Bool) -> Int32 {
        let reading = store.loadForSession()
        if json {
            print(String(decoding: SettingsStore.encode(reading.settings), as: UTF8.self), terminator: "")
        } else {
            let width = Setting.allCases.map(\.rawValue.count).max() ?? 0
            for setting in Setting.allCases {
                let name = setting.rawValue.padding(toLength: width + 2, withPad: " ", startingAt: 0)
                print(name + setting.value(in: reading.settings))
            }
        }
        guard let problem = reading.problem else { return 0 }
        let consequence = "A tunnel started now uses the factory settings shown."
        if case .corruptData = problem {
            printError("tunnelvision: \(problem)\nThe file was left as it is. \(consequence) "
                       + "'tunnelvision settings set KEY VALUE --force' replaces it.")
        } else {
            printError("tunnelvision: \(problem)\n\(consequence)")
        }
        return 1
    }

    /// Changes one setting and keeps the others. Over a file that cannot be decoded it refuses
    /// unless forced, so that a slip never silently wipes the person's other choices.
    private static func set(_ change: SettingChange, in store: SettingsStore, force: Bool) -> Int32 {
        var settings: AppSettings
        do {
            settings = try store.load()
        } catch {
            guard case .corruptData = error, force else {
                let advice = if case .corruptData = error {
                    "Nothing was changed. --force replaces the file with the factory settings plus this one change, "
                        + "discarding whatever else it held."
                } else {
                    "Nothing was changed."
                }
                printError("tunnelvision: \(error)\n\(advice)")
                return 1
            }
            settings = .default
        }
        change.apply(to: &settings)
        do {
            try store.save(settings)
        } catch {
            printError("tunnelvision: \(error)")
            return 1
        }
        print("\(change.setting.rawValue) \(change.setting.value(in: settings))")
        return 0
    }

    private static func takeValue(of option: String, from arguments: inout [String]) throws(Invocation.UsageError) -> String? {
        if let index = arguments.firstIndex(where: { $0.hasPrefix(option + "=") }) {
            return String(arguments.remove(at: index).dropFirst(option.count + 1))
        }
        guard let index = arguments.firstIndex(of: option) else { return nil }
        guard index + 1 < arguments.count else { throw usage("settings: \(option) needs a directory") }
        defer { arguments.removeSubrange(index...index + 1) }
        return arguments[index + 1]
    }

    private static func usage(_ message: String) -> Invocation.UsageError { Invocation.UsageError(message: message) }
}

/// The settings as the command line names them, in the order they are listed.
enum Setting: String, CaseIterable {
    case tlsInspection = "tls-inspection"
    case plaintextPersistence = "plaintext-persistence"
    case capture
    case captureDetail = "capture-detail"
    case retentionAge = "retention-age"
    case retentionSize = "retention-size"

    /// The values it takes, as they are listed and printed.
    var choices: [String] {
        switch self {
        case .tlsInspection, .plaintextPersistence, .capture: ["on", "off"]
        case .captureDetail: ["metadata", "full"]
        case .retentionAge: ["1d", "1w", "30d", "unlimited"]
        case .retentionSize: ["256MiB", "1GiB", "4GiB", "unlimited"]
        }
    }

    /// Other spellings of each choice, in the same order, as `normalized` leaves them.
    private var aliases: [[String]] {
        switch self {
        case .tlsInspection, .plaintextPersistence, .capture:
            [["true", "yes", "1", "enabled", "enable"], ["false", "no", "0", "disabled", "disable"]]
        case .captureDetail: [["metadataonly", "headers", "headersonly"], ["fullpayload", "payload"]]
        case .retentionAge:
            [["oneday", "1day", "day", "24h"], ["oneweek", "1week", "week", "7d"], ["onemonth", "1month", "month"],
             ["none", "never", "forever", "nolimit"]]
        case .retentionSize:
            [["megabytes256", "256mb", "256m"], ["gigabytes1", "1gb", "1g", "1024mib", "1024mb"], ["gigabytes4", "4gb", "4g"],
             ["none", "nolimit"]]
        }
    }

    /// The index in `choices` that `text` names, ignoring case, spaces, "-" and "_".
    func choice(named text: String) -> Int? {
        let word = Self.normalized(text)
        return choices.indices.first { Self.normalized(choices[$0]) == word || aliases[$0].contains(word) }
    }

    /// Its value in `settings`, spelled as in `choices`.
    func value(in settings: AppSettings) -> String {
        let index = switch self {
        case .tlsInspection: settings.tlsInspectionEnabled ? 0 : 1
        case .plaintextPersistence: settings.plaintextPersistenceEnabled ? 0 : 1
        case .capture: settings.captureEnabled ? 0 : 1
        case .captureDetail: settings.captureDetail == .metadataOnly ? 0 : 1
        case .retentionAge: RetentionAge.allCases.firstIndex(of: settings.retention.maxAge) ?? 0
        case .retentionSize: RetentionSize.allCases.firstIndex(of: settings.retention.maxCaptureSize) ?? 0
        }
        return choices[index]
    }

    private static func normalized(_ text: String) -> String {
        String(text.lowercased().filter { !" -_".contains($0) })
    }
}

/// One setting and its new value, as typed values.
enum SettingChange: Equatable {
    case tlsInspection(Bool)
    case plaintextPersistence(Bool)
    case capture(Bool)
    case captureDetail(CaptureDetail)
    case retentionAge(RetentionAge)
    case retentionSize(RetentionSize)

    /// Reads `KEY VALUE`; anything else is a usage error that lists what is valid.
    static func parse(key: String, value: String) throws(Invocation.UsageError) -> SettingChange {
        guard let setting = Setting(rawValue: key.lowercased()) else {
            throw Invocation.UsageError(message: "settings set: no setting \(key); the settings are "
                                        + Setting.allCases.map(\.rawValue).joined(separator: ", "))
        }
        guard let index = setting.choice(named: value) else {
            throw Invocation.UsageError(message: "settings set: \(setting.rawValue) cannot be \(value); it takes "
                                        + setting.choices.joined(separator: ", "))
        }
        return switch setting {
        case .tlsInspection: .tlsInspection(index == 0)
        case .plaintextPersistence: .plaintextPersistence(index == 0)
        case .capture: .capture(index == 0)
        case .captureDetail: .captureDetail(index == 0 ? .metadataOnly : .fullPayload)
        case .retentionAge: .retentionAge(RetentionAge.allCases[index])
        case .retentionSize: .retentionSize(RetentionSize.allCases[index])
        }
    }

    var setting: Setting {
        switch self {
        case .tlsInspection: .tlsInspection
        case .plaintextPersistence: .plaintextPersistence
        case .capture: .capture
        case .captureDetail: .captureDetail
        case .retentionAge: .retentionAge
        case .retentionSize: .retentionSize
        }
    }

    func apply(to settings: inout AppSettings) {
        switch self {
        case let .tlsInspection(on): settings.tlsInspectionEnabled = on
        case let .plaintextPersistence(on): settings.plaintextPersistenceEnabled = on
        case let .capture(on): settings.captureEnabled = on
        case let .captureDetail(detail): settings.captureDetail = detail
        case let .retentionAge(age): settings.retention.maxAge = age
        case let .retentionSize(size): settings.retention.maxCaptureSize = size
        }
    }
}
