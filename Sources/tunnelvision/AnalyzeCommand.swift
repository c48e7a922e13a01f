#if canImport(Glibc)
import Glibc
#endif
import App
import Foundation
import Linux
import Shared

/// `tunnelvision analyze FILE [--data-dir D] [--json] [--workers N]`: the shell around
/// `CaptureAnalysis` and `AnalysisReport`. Ends the process with the exit status.
enum AnalyzeCommand {
    static func run(path: String, dataDirectory: String?, json: Bool, workers: Int? = nil) async -> Never {
        let progress = ProgressLine(enabled: isatty(STDERR_FILENO) == 1)
        let analysis: AnalyzedCapture
        do {
            analysis = try CaptureAnalysis.run(path: path, workers: workers ?? CaptureAnalysis.defaultWorkers,
                                               keepingPackets: dataDirectory != nil) {
                progress.show(records: $0)
            }
        } catch {
            progress.clear()
            printError("tunnelvision: \(path): \(error)")
            exit(1)
        }
        progress.clear()
        let status = await report(analysis, dataDirectory: dataDirectory, json: json, workers: workers)
        // The analysis is never freed: its conversations are tens of thousands of records of many
        // small allocations each, and freeing them one by one took a tenth of a two-worker
        // analyze's time (perf), while the process's end returns the memory at once.
        withExtendedLifetime(analysis) { exit(status) }
    }

    /// Prints the report, then adds the conversations to the history in `dataDirectory` if given.
    private static func report(_ analysis: AnalyzedCapture, dataDirectory: String?, json: Bool, workers: Int?) async -> Int32 {
        // The report first: a history that cannot be written must not cost the reading.
        if let failure = printReport(analysis, json: json, renderers: workers ?? CaptureAnalysis.defaultWorkers) {
            printError("tunnelvision: \(failure)")
            return 1
        }
        guard let dataDirectory else { return 0 }
        let directory = URL(fileURLWithPath: dataDirectory)
        do {
            try DataDirectory.prepare(directory)
            try await CaptureAnalysis.save(analysis, toDataDirectory: directory)
        } catch {
            printError("tunnelvision: the conversations above were not added to the history in \(dataDirectory): \(error)")
            return 1
        }
        return 0
    }

    /// Writes the report to standard output (the JSON piece by piece as it is made); a closed
    /// pipe ends it quietly.
    private static func printReport(_ analysis: AnalyzedCapture, json: Bool, renderers: Int) -> StandardOutput.OutputError? {
        var output = StandardOutput()
        var failure: StandardOutput.OutputError?
        let report = AnalysisReport(analysis)
        if json {
            report.writeJSON(renderers: renderers) { piece in
                guard failure == nil, !output.pipeClosed else { return }
                do throws(StandardOutput.OutputError) { try output.write(piece) } catch { failure = error }
            }
        } else {
            output.writer.append(report.text())
        }
        output.writer.append(UInt8(ascii: "\n"))
        do { try output.flush() } catch { failure = failure ?? error }
        return failure
    }
}
