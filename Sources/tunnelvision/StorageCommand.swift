#if canImport(Glibc)
import Glibc
#endif
import Foundation
import App
import Shared

/// `tunnelvision storage [apply | clear [--yes]] [--data-dir D] [--json]`: what the captures and
/// the history take and what the limits will do; applying the limits now; deleting everything.
enum StorageCommand {
    enum Action: Equatable {
        case usage
        case apply
        case clear(confirmed: Bool)
    }

    struct Request: Equatable {
        var action: Action
        var dataDirectory: String?
        var json: Bool
    }

    static let help = """
    tunnelvision storage [--data-dir D] [--json]
    tunnelvision storage apply [--data-dir D] [--json]
    tunnelvision storage clear [--yes] [--data-dir D] [--json]

    Shows what TunnelVision keeps in the data directory: the captures (bytes, files — the one being
    recorded included), the history (bytes of the database and its journal, connections) and the
    total; then the retention limits ('tunnelvision help settings') and what applying them now
    would delete. The size limit governs the captures only (the history's database does not shrink
    when rows go); the history is kept by age.

    apply  applies the stored limits now, as the tunnel does when a session starts and at each new
           capture file: the oldest captures past the limits deleted (never the one being recorded),
           the connections last seen before the age limit deleted. Always answers, also "nothing to
           delete". Refuses, deleting nothing, when the settings or the captures cannot be read.
    clear  deletes every connection of the history and every capture but the one being recorded.
           On a terminal it asks first ("delete N connections and M captures (X)? [y/N]");
           --yes answers for it, and without a terminal --yes is required (exit status 1 otherwise).
           A running tunnel goes on recording: its session is kept, its connections so far go.

    --data-dir D  the data directory (else $TUNNELVISION_DATA, else /var/lib/tunnelvision for root
                  and $XDG_DATA_HOME/tunnelvision for anyone else).
    --json        one JSON object: usage {"captures" {"bytes", "files"}, "history" {"bytes",
                  "connections", "problem"}, "totalBytes", "totalComplete", "limits" {"maxAge",
                  "maxCaptureBytes", "problem"}, "plan" {"filesToDelete", "bytesReclaimed",
                  "captureBytesAfter", "historyCutoff" (UTC), "sizeCapUnreachable"}, "tunnel"};
                  apply and clear {"deletedFiles", "bytesReclaimed", "deletedConnections",
                  "failures", "sizeCapUnreachable", "changedAnything", "lines"}.

    Exit status 1 when something could not be read or deleted (each failure is said), 2 on a usage error.
    """

    static func parse(_ arguments: [String], json: Bool) throws(Invocation.UsageError) -> Request {
        var rest = arguments
        let dataDirectory = try Invocation.takeDataDirectory(from: &rest, command: "storage")
        let yes = rest.contains("--yes")
        rest.removeAll { $0 == "--yes" }
        if let unknown = rest.first(where: { $0.hasPrefix("-") }) {
            throw Invocation.UsageError(message: "storage: unknown option \(unknown)")
        }
        let action: Action
        switch rest.first {
        case nil: action = .usage
        case "apply": action = .apply
        case "clear": action = .clear(confirmed: yes)
        case let other?: throw Invocation.UsageError(message: "storage: unknown action \(other); it takes apply or clear")
        }
        if rest.count > 1 { throw Invocation.UsageError(message: "storage \(rest[0]): takes nothing more, got \(rest[1])") }
        if yes, action != .clear(confirmed: true) { throw Invocation.UsageError(message: "storage: --yes belongs to 'storage clear'") }
        return Request(action: action, dataDirectory: dataDirectory, json: json)
    }

    static func run(_ request: Request) async -> Int32 {
        let directory = HistoryAccess.dataDirectory(override: request.dataDirectory)
        do {
            try DataDirectory.verify(directory, access: request.action == .usage ? .read : .write)
        } catch {
            printError("tunnelvision: \(error)")
            return 1
        }
        let manager = StorageManager(library: CaptureLibrary(dataDirectory: directory),
                                     openingStore: storeOpener(dataDirectory: request.dataDirectory))
        let presence = CapturesCommand.presence(in: directory)
        if let notice = presence.notice, !request.json { printError("tunnelvision: \(notice)") }
        let settings = Result { () throws(SettingsError) in try SettingsStore(dataDirectory: directory).load().retention }
        do throws(StorageError) {
            switch request.action {
            case .usage:
                let usage = try await manager.usage()
                var plan: RetentionPlan?
                if case .success(let limits) = settings {
                    plan = try await manager.preview(limits, isMonitoring: presence.mayBeRecording)
                }
                return show(usage, settings: settings, plan: plan, presence: presence, json: request.json)
            case .apply:
                let limits: RetentionSettings
                switch settings {
                case .success(let read): limits = read
                case .failure(let problem):
                    printError("tunnelvision: the retention limits cannot be read, so nothing was deleted: \(problem). "
                               + "'tunnelvision settings' shows what is wrong")
                    return 1
                }
                let done = try await manager.enforce(limits, isMonitoring: presence.mayBeRecording)
                return answer(done.outcome, json: request.json)
            case .clear(let confirmed):
                if !confirmed {
                    guard isatty(STDIN_FILENO) == 1 else {
                        printError("tunnelvision: storage clear deletes every connection and capture; without a terminal "
                                   + "to ask, it needs --yes (nothing was deleted)")
                        return 1
                    }
                    let scope = try await manager.clearingPlan(isMonitoring: presence.mayBeRecording)
                    FileDescriptor.writeAll(STDERR_FILENO, text: StorageReport.clearQuestion(connections: scope.connections,
                                                                                           files: scope.files))
                    guard StorageReport.isYes(readLine()) else {
                        printError("nothing was deleted")
                        return 1
                    }
                }
                return answer(try await manager.clearEverything(isMonitoring: presence.mayBeRecording), json: request.json)
            }
        } catch {
            printError("tunnelvision: \(error)")
            return 1
        }
    }

    /// Opens the history for reading, never creating it: nil when there is none yet.
    static func storeOpener(dataDirectory override: String?) -> StorageManager.StoreOpener {
        {
            let database = DataDirectoryLayout.database(in: HistoryAccess.dataDirectory(override: override))
            if PathStatus.of(database.path) == nil, errno == ENOENT { return nil }
            return try HistoryAccess.openStore(dataDirectory: override)
        }
    }

    private static func show(_ usage: StorageUsage, settings: Result<RetentionSettings, SettingsError>, plan: RetentionPlan?,
                             presence: CapturesTunnelPresence, json: Bool) -> Int32 {
        let read = try? settings.get()
        let problem: String? = if case .failure(let error) = settings { error.description } else { nil }
        if json {
            print(StorageReport.usageJSON(usage, settings: read, problem: problem, plan: plan, presence: presence))
        } else {
            for line in StorageReport.usageLines(usage) + StorageReport.limitLines(settings: read, problem: problem, plan: plan) {
                print(line)
            }
        }
        return usage.isComplete && problem == nil ? 0 : 1
    }

    private static func answer(_ outcome: RetentionOutcome, json: Bool) -> Int32 {
        if json {
            print(StorageReport.outcomeJSON(outcome))
        } else {
            for line in StorageReport.outcomeLines(outcome) { print(line) }
            for failure in outcome.failures { printError("tunnelvision: \(failure)") }
        }
        return outcome.failures.isEmpty ? 0 : 1
    }
}
