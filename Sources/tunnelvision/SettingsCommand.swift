import Foundation
import App
import AppLinux
import Shared

/// `tunnelvision settings [set KEY VALUE]`: the shell around `SettingsStore` — resolve the data
/// directory, read, show, change one setting, save. The settings' names, values and what this
/// build does with them are `SettingName`'s (Shared/Settings), which the web app shares.
enum SettingsCommand {
    /// What was asked.
    enum Request: Equatable {
        case show(dataDirectory: String?, json: Bool)
        case set(SettingChange, dataDirectory: String?, force: Bool, json: Bool)
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
            guard rest.count == 3 else {
                throw usage("settings set: which setting, and what value? (tunnelvision settings set KEY VALUE)\n"
                            + "The settings are \(SettingName.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            do {
                return .set(try SettingsQuestion.change(key: rest[1], value: rest[2]), dataDirectory: dataDirectory, force: force, json: json)
            } catch {
                throw usage(error.message)
            }
        case let other?:
            throw usage("settings: unexpected \(other) (to change one: tunnelvision settings set KEY VALUE)")
        }
    }

    /// Runs the request; returns the exit status.
    static func run(_ request: Request) -> Int32 {
        switch request {
        case let .show(dataDirectory, json): show(SettingsQuestion(dataDirectory: dataDirectory), json: json)
        case let .set(change, dataDirectory, force, json): set(change, in: SettingsQuestion(dataDirectory: dataDirectory), force: force, json: json)
        }
    }

    /// Prints what a tunnel starting now would use. A file that cannot be read is reported and
    /// left alone, and the exit status says so.
    private static func show(_ question: SettingsQuestion, json: Bool) -> Int32 {
        let reading = question.reading()
        if json {
            print(SettingsQuestion.json(reading.settings), terminator: "")
        } else {
            let width = SettingName.allCases.map(\.rawValue.count).max() ?? 0
            for setting in SettingName.allCases {
                let name = setting.rawValue.padding(toLength: width + 2, withPad: " ", startingAt: 0)
                print(name + setting.value(in: reading.settings))
            }
            for (value, support) in SettingName.unhonoured(in: reading.settings) {
                printError("tunnelvision: \(SettingsQuestion.note(value, support, stored: false))")
            }
        }
        guard let problem = reading.problem else { return 0 }
        printError("tunnelvision: \(SettingsQuestion.problemSentence(problem))")
        return 1
    }

    private static func set(_ change: SettingChange, in question: SettingsQuestion, force: Bool, json: Bool) -> Int32 {
        let done: SettingsQuestion.Change
        do {
            done = try question.set(change, force: force, tunnel: .channel)
        } catch {
            printError("tunnelvision: \(error)")
            // A value refused as it stands (no CA for inspection, one this build refuses): a usage error.
            return error.kind == .badParameter ? 2 : 1
        }
        if let setAside = done.setAside { printError("tunnelvision: \(setAside)") }
        print(json ? done.json : done.text)
        if let note = done.note, !json { printError("tunnelvision: \(note)") }
        if let tunnel = done.tunnel, !json { printError("tunnelvision: \(tunnel)") }
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
