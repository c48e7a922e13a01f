#if canImport(Glibc)
import Glibc
#endif
import App
import Foundation
import Linux
import Shared

/// `tunnelvision analyze FILE [--data-dir D] [--json]`: the shell around `CaptureAnalysis` and
/// `AnalysisReport`. Returns the exit status.
enum AnalyzeCommand {
    static func run(path: String, dataDirectory: String?, json: Bool) async -> Int32 {
        let progress = ProgressLine(enabled: isatty(STDERR_FILENO) == 1)
        let analysis: AnalyzedCapture
        do {
            analysis = try CaptureAnalysis.run(path: path) { progress.show(records: $0) }
        } catch {
            progress.clear()
            printError("tunnelvision: \(path): \(error)")
            return 1
        }
        progress.clear()
        // The report first: a history that cannot be written must not cost the reading.
        print(json ? AnalysisReport(analysis).json() : AnalysisReport(analysis).text())
        guard let dataDirectory else { return 0 }
        let directory = URL(fileURLWithPath: dataDirectory)
        do {
            try DataDirectory.prepare(directory)
            let store = try FlowStore(dataDirectory: directory)
            try await CaptureAnalysis.save(analysis, to: store)
        } catch {
            printError("tunnelvision: the conversations above were not added to the history in \(dataDirectory): \(error)")
            return 1
        }
        return 0
    }
}
