import Foundation
import App
import AppLinux
import Shared

/// `tunnelvision diagnostics [--data-dir D] [--json]`: the diagnostics screen in the terminal —
/// `DiagnosticsViewModel` asking the tunnel running on the data directory over its control channel.
enum DiagnosticsCommand {
    static let help = """
    tunnelvision diagnostics [--data-dir D] [--json]

    Asks the tunnel running on the data directory for its counters and says, in a sentence,
    whether looking inside secure traffic works — with a warning above it when the monitored
    programs cannot look up names — then the counters it read that from: what was recorded,
    what was forwarded, name resolution, and the names read from TCP, QUIC and lookups, each
    with a line saying what its counters mean (encrypted DNS, say, leaves nothing to read).
    The counters belong to the running session: with no tunnel running there is nothing to
    diagnose, and the exit status is 1 (as for 'tunnelvision stats').
    --json   one JSON object: {"monitoring", "headline": {"verdict", "text"}, "resolverNotice"
             ({"verdict", "text"} or null), "sections": [{"key", "title", "note",
             "rows": [{"key", "label", "value"}]}]}.
    """

    static func run(dataDirectory override: String?, json: Bool) async -> Int32 {
        let question = DiagnosticsQuestion(dataDirectory: override)
        let screen: DiagnosticsScreen
        do { screen = try await question.answer(tunnel: .channel) } catch {
            printError("tunnelvision: \(error)")
            return 1
        }
        if json { print(screen.json) }
        guard screen.isMonitoring else {
            if !json { printError("tunnelvision: \(DiagnosticsPresentation.nothingToDiagnose(on: question.directory.path))") }
            return 1
        }
        if !json { print(screen.text) }
        return 0
    }
}
