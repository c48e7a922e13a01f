import App
import AppLinux
import Foundation
import Linux
import Shared

/// `tunnelvision run [options] [--] CMD ARGS…`: CMD runs in a fresh network namespace whose only
/// way out is the tunnel, for exactly CMD's life (`MonitoredRun` makes and takes down all of it);
/// every packet is recorded; at the end a summary of its connections goes to standard error
/// (standard output stays CMD's), and `run` exits with CMD's status.
enum RunCommand {
    struct Request: Equatable {
        var options: MonitoredRun.Options
        var jsonSummary: String?
        /// `--ui`: the web app on the run's data directory, for as long as the run lasts.
        var ui = false
        var noOpen = false
    }

    /// IPv6 needs at least 1280 (RFC 8200 §5); 65 520 is the largest a TUN device takes and what
    /// pasta and slirp4netns use to cut the packet rate.
    static let mtuRange = 1280...65_520

    /// Options come before CMD; the first argument that is not one (or everything after `--`)
    /// is CMD, whose own options are never read as ours.
    static func parse(_ arguments: [String]) throws(Invocation.UsageError) -> Request {
        var request = Request(options: MonitoredRun.Options(command: []))
        var inspect = false, upstreamCA: String?, keyLog: String?
        var index = 0
        func value(_ option: String) throws(Invocation.UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw Invocation.UsageError(message: "run: \(option) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--":
                request.options.command = Array(arguments[(index + 1)...])
                index = arguments.count
                continue
            case "--data-dir": request.options.dataDirectory = try value(argument)
            case "--capture-detail":
                let text = try value(argument)
                guard case let .captureDetail(detail)? = SettingName.captureDetail.choice(named: text)?.change else {
                    let choices = SettingName.captureDetail.choices.map(\.spelling).joined(separator: " or ")
                    throw Invocation.UsageError(message: "run: --capture-detail takes \(choices), not \(text)")
                }
                request.options.captureDetail = detail
            case "--no-capture": request.options.captureOff = true
            case "--no-programs": request.options.namesPrograms = false
            case "--json-summary": request.jsonSummary = try value(argument)
            case "--ui": request.ui = true
            case "--no-open": request.noOpen = true
            case "--inspect": inspect = true
            case "--upstream-ca": upstreamCA = try value(argument)
            case "--keylog": keyLog = try value(argument)
            case "--mtu":
                let text = try value(argument)
                guard let mtu = Int(text), RunCommand.mtuRange.contains(mtu) else {
                    throw Invocation.UsageError(message: "run: --mtu takes \(RunCommand.mtuRange.lowerBound)…\(RunCommand.mtuRange.upperBound), not \(text)")
                }
                request.options.mtu = mtu
            default:
                guard !argument.hasPrefix("-") else { throw Invocation.UsageError(message: "run: unknown option \(argument)") }
                request.options.command = Array(arguments[index...])
                index = arguments.count
                continue
            }
            index += 1
        }
        guard !request.options.command.isEmpty else {
            throw Invocation.UsageError(message: "run: which command? (tunnelvision run -- CMD ARGS…)")
        }
        if request.noOpen && !request.ui {
            throw Invocation.UsageError(message: "run: --no-open is for --ui (tunnelvision run --ui --no-open -- CMD)")
        }
        request.options.inspection = try inspection(inspect: inspect, upstreamCA: upstreamCA, keyLog: keyLog)
        return request
    }

    /// `--inspect` and the options that only mean something with it, their files checked; `command`
    /// and `example` name who asks (`run`, `up`) in a refusal.
    static func inspection(inspect: Bool, upstreamCA: String?, keyLog: String?, command: String = "run",
                           example: String = "tunnelvision run --inspect OPTION FILE -- CMD")
        throws(Invocation.UsageError) -> InspectionRunOptions? {
        guard inspect else {
            if let option = upstreamCA.map({ _ in "--upstream-ca" }) ?? keyLog.map({ _ in "--keylog" }) {
                throw Invocation.UsageError(message: "\(command): \(option) is for TLS inspection "
                                            + "(\(example.replacingOccurrences(of: "OPTION", with: option)))")
            }
            return nil
        }
        if let path = upstreamCA, let problem = InspectionRunOptions.upstreamCAProblem(path) {
            throw Invocation.UsageError(message: "\(command): --upstream-ca: \(problem)")
        }
        if let path = keyLog, let problem = InspectionRunOptions.keyLogProblem(path) {
            throw Invocation.UsageError(message: "\(command): --keylog: \(problem)")
        }
        return InspectionRunOptions(upstreamCA: upstreamCA.map { URL(fileURLWithPath: $0) },
                                    keyLog: keyLog.map { URL(fileURLWithPath: $0) })
    }

    /// Runs the request and returns the exit status: CMD's, or the failure's — 1 also when the
    /// JSON summary cannot be written (the message then says CMD's own).
    static func run(_ request: Request) async -> Int32 {
        if let path = request.jsonSummary, let problem = SummaryFile.unwritableDirectory(of: path) {
            printError("tunnelvision: cannot write the JSON summary to \(path): \(problem); nothing was started")
            return 1
        }
        let notices = DispatchQueue(label: "run.notices")
        let outcome: MonitoredRun.Outcome
        var ui: WebAppSession?
        do {
            let run = try MonitoredRun(options: request.options, environment: ProcessInfo.processInfo.environment)
            // Before the warnings, one of which would say the run goes ahead on the factory settings.
            if let refusal = run.settingsRefusal {
                printError("tunnelvision: \(refusal)")
                return 1
            }
            for warning in run.warnings { printError("tunnelvision: \(warning)") }
            ui = request.ui ? await startUI(on: run.dataDirectory, noOpen: request.noOpen) : nil
            // Told from the tunnel's threads, which must not wait for a terminal: queued, in order.
            outcome = try await run.run(notice: { line in notices.async { printError("tunnelvision: \(line)") } })
            notices.sync {}
        } catch {
            await ui?.stop()
            printError("tunnelvision: \(error)")
            return error.exitStatus
        }
        if let ui {
            await ui.stop()
            printError("tunnelvision: the web app stopped with the run (read the history again with 'tunnelvision ui')")
        }
        let summary = await RunSummary.of(command: request.options.command.joined(separator: " "),
                                          ending: outcome.ending, ranAsRoot: outcome.account == nil,
                                          tunnelFailure: outcome.tunnelFailure.map { "\($0)" }, recording: outcome.recording,
                                          inspectionTrust: outcome.trust.map(\.word))
        printError(summary.text())
        if let path = request.jsonSummary {
            do {
                try SummaryFile.write(summary.json() + "\n", to: path, owner: outcome.account.map { ($0.uid, $0.gid) })
            } catch {
                printError("tunnelvision: cannot write the JSON summary to \(path): \(error) "
                           + "(\(summary.command) \(summary.ending); the summary above is complete)")
                return 1
            }
        }
        return outcome.exitStatus
    }
}

extension RunCommand {
    /// The web app beside the run; its address goes to standard error (standard output is CMD's).
    /// Failing to start it is said and the run goes on: monitoring matters more than the view.
    static func startUI(on directory: URL, noOpen: Bool) async -> WebAppSession? {
        do {
            let session = try await WebAppSession.start(directory: directory, listen: .standard, lifetime: .withTheRun)
            printError("tunnelvision: " + session.announcement.text)
            if let problem = session.linkProblem { printError("tunnelvision: warning: \(problem)") }
            UICommand.openBrowser(session, noOpen: noOpen)
            Task {
                for await failure in session.failures {
                    printError("tunnelvision: the web app stopped serving (\(failure)); the run goes on without it")
                }
            }
            return session
        } catch {
            printError("tunnelvision: the web app could not start (\(error)); the run goes on without it")
            return nil
        }
    }
}

extension RunSummary {
    /// The summary of what `recording` holds: the session's connections, as the history answers
    /// for them, its capture files, and the history.
    static func of(command: String, exitStatus: Int32?, signal: Int32?, ranAsRoot: Bool = false,
                   tunnelFailure: String? = nil, recording: SessionRecording) async -> RunSummary {
        var summary = RunSummary(command: command, exitStatus: exitStatus, signal: signal,
                   connections: await SessionHistory(store: recording.store).connections(ofSession: recording.sessionID)
                       .recorded(with: RecordingLosses(recording.pipelineStats)),
                   captureFiles: recording.captureFiles.map { RunSummary.CaptureFile(path: $0.path, bytes: $0.bytes) },
                   captureProblem: RecordingLosses(recording.pipelineStats).captureProblem,
                   databasePath: recording.databasePath, recordingStops: recording.recordingStops, ranAsRoot: ranAsRoot,
                   tunnelFailure: tunnelFailure,
                   readingCommand: HistoryWhereabouts.readingCommand(
                       dataDirectory: URL(fileURLWithPath: recording.databasePath).deletingLastPathComponent(),
                       isRoot: geteuid() == 0, viaSudo: ProcessInfo.processInfo.environment["SUDO_USER"] != nil))
        summary.captureFilesGone = recording.captureFilesGone
        if let pruned = recording.retention?.flowsPruned, pruned > 0, let age = recording.retentionAge {
            summary.historyPruned = RunSummary.HistoryPruning(count: pruned, ageLimit: age)
        }
        let device = recording.shellStats.device
        summary.deviceDrops = device.kernel.map { .counted($0) } ?? device.kernelProblem.map { .unknown($0) }
        return summary
    }

    /// The summary of a monitored command that ended as `ending`.
    static func of(command: String, ending: MonitoredCommand.Ending, ranAsRoot: Bool, tunnelFailure: String? = nil,
                   recording: SessionRecording, inspectionTrust: String? = nil) async -> RunSummary {
        let (status, signal): (Int32?, Int32?) = switch ending {
        case let .exited(status): (status, nil)
        case let .signalled(signal): (nil, signal)
        }
        var summary = await of(command: command, exitStatus: status, signal: signal, ranAsRoot: ranAsRoot,
                               tunnelFailure: tunnelFailure, recording: recording)
        summary.inspectionTrust = inspectionTrust
        return summary
    }
}
