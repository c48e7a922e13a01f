import Foundation

/// A walk over one question's options (a command's arguments, or the web API's query turned into
/// them), in order: each option's value taken from the next argument, and times read as
/// `HistoryTimeInput` reads them, with the command named in every complaint.
struct QuestionOptions {
    let command: String
    let arguments: [String]
    /// What relative times ("2h") count back from: one instant for the whole command line.
    let now: Date
    private(set) var index = 0

    init(command: String, arguments: [String], now: Date = Date()) {
        self.command = command
        self.arguments = arguments
        self.now = now
    }

    /// The option under the cursor; nil past the last.
    var current: String? { index < arguments.count ? arguments[index] : nil }

    mutating func advance() { index += 1 }

    /// The value after `option`, moving onto it.
    mutating func value(_ option: String) throws(QuestionFailure) -> String {
        index += 1
        guard index < arguments.count else { throw QuestionFailure.usage("\(command): \(option) needs a value") }
        return arguments[index]
    }

    /// The instant after `option`.
    mutating func instant(_ option: String) throws(QuestionFailure) -> Date {
        let text = try value(option)
        guard let date = HistoryTimeInput.parse(text, now: now) else {
            throw QuestionFailure.usage("\(command): \(option) '\(text)' is not a time: give \(HistoryTimeInput.accepted)")
        }
        return date
    }

    /// The time zone `--zone` names (`Europe/Berlin`, `UTC`), refused in one sentence when the
    /// system's zone database does not hold it.
    static func zone(_ name: String, command: String) throws(QuestionFailure) -> TimeZone {
        guard let zone = StretchClock.zone(named: name) else {
            throw QuestionFailure.usage("\(command): --zone '\(name)' is not a time zone: give a name such as UTC or Europe/Berlin")
        }
        return zone
    }
}

extension QuestionOptions {
    /// Whether the switch `option` (a flag with no value) stands in `arguments`, taken out wherever it stands.
    static func takeSwitch(_ option: String, from arguments: inout [String]) -> Bool {
        let given = arguments.contains(option)
        arguments.removeAll { $0 == option }
        return given
    }

    /// `--data-dir D` taken out of `arguments`, wherever it stands.
    static func takeDataDirectory(from arguments: inout [String], command: String) throws(QuestionFailure) -> String? {
        guard let index = arguments.firstIndex(of: "--data-dir") else { return nil }
        guard index + 1 < arguments.count else { throw .usage("\(command): --data-dir needs a value") }
        defer { arguments.removeSubrange(index...index + 1) }
        return arguments[index + 1]
    }
}
