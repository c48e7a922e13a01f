#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// `tunnelvision settings [set KEY VALUE]`: the shell around `SettingsStore` — resolve the data
/// directory, read, show, change one setting, save. The settings' names, values and what this
/// build does with them are `SettingName`'s (Shared/Settings), which the web app shares.
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
                            + "The settings are \(SettingName.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            do {
                return .set(try SettingChange.parse(key: rest[1], value: rest[2]), dataDirectory: dataDirectory, force: force)
            } catch {
                throw usage("settings set: \(error)")
            }
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
            let width = SettingName.allCases.map(\.rawValue.count).max() ?? 0
            for setting in SettingName.allCases {
                let name = setting.rawValue.padding(toLength: width + 2, withPad: " ", startingAt: 0)
                print(name + setting.value(in: reading.settings))
            }
            for (value, support) in SettingName.unhonoured(in: reading.settings) {
                printError("tunnelvision: \(note(value, support, stored: false))")
            }
        }
        guard let problem = reading.problem else { return 0 }
        let consequence = "A tunnel started now would use the factory settings shown, so 'run' refuses to start "
            + "until the file is fixed or --no-capture is given."
        if case .corruptData = problem {
            printError("tunnelvision: \(problem)\nThe file was left as it is. \(consequence) Edit it, or "
                       + "'tunnelvision settings set KEY VALUE --force' sets it aside and starts from the factory settings.")
        } else {
            printError("tunnelvision: \(problem)\n\(consequence)")
        }
        return 1
    }

    /// Changes one setting and keeps the others. Over a file that cannot be read it refuses
    /// (saving over it would drop whatever it held that this build did not understand) unless
    /// forced, and then the file is first set aside whole, never overwritten.
    private static func set(_ change: SettingChange, in store: SettingsStore, force: Bool) -> Int32 {
        if case let .refused(reason) = change.support {
            printError("tunnelvision: \(change.setting.rawValue) \(change.spelling) is refused: \(reason). Nothing was changed.")
            return 1
        }
        var settings: AppSettings
        do {
            settings = try store.load()
        } catch {
            guard case .corruptData = error, force else {
                let advice = if case .corruptData = error {
                    "Nothing was changed. Edit the file, or add --force to set it aside (kept whole, beside it) "
                        + "and start from the factory settings plus this one change."
                } else {
                    "Nothing was changed."
                }
                printError("tunnelvision: \(error)\n\(advice)")
                return 1
            }
            let aside = SetAsideName.path(for: store.location, why: "unreadable", at: Date())
            guard rename(store.location, aside) == 0 else {
                printError("tunnelvision: cannot set \(store.location) aside as \(aside): \(SystemError.text(errno)). Nothing was changed.")
                return 1
            }
            printError("tunnelvision: set the unreadable \(store.location) aside as \(aside)")
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
        if change.support != .enforced { printError("tunnelvision: \(note(change, change.support, stored: true))") }
        return 0
    }

    /// "retention-age 1w is not enforced: …", for a value this build does not honour; `stored`
    /// when it was just saved.
    static func note(_ value: SettingChange, _ support: SettingSupport, stored: Bool) -> String {
        let named = "\(value.setting.rawValue) \(value.spelling)"
        return switch support {
        case .enforced: "\(named) is enforced"
        case let .storedOnly(reason): "\(named) is \(stored ? "stored, but " : "")not enforced: \(reason)"
        case let .refused(reason): "\(named) is not honoured: \(reason); a tunnel runs as without it"
        }
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
