#if canImport(Glibc)
import Glibc
#endif
import Foundation
import App
import AppLinux
import Shared

/// `tunnelvision down` and `tunnelvision status`: the service of one data directory, stopped and
/// shown through the monitoring control's manager (`LinuxServiceManager`).
enum ServiceCommands {
    static let downHelp = """
    tunnelvision down [--data-dir D]

    Stops the monitoring service running on the data directory ('tunnelvision up'): it is sent
    SIGTERM, takes its rules and routes away and closes its session, and 'down' returns once it
    has ended. Needs the rights to signal it (root, for a service root started).
    Exit status 0 once it has stopped; 3 when no service runs there; 1 when it could not be
    stopped (no rights, or still running after 30 seconds).
    """

    static let statusHelp = """
    tunnelvision status [--data-dir D] [--json]

    Says whether a monitoring service runs on the data directory ('tunnelvision up'), what it
    monitors, through which device, since when and as which process — or, when none runs, what the
    last one's record says (why it failed, or that it ended without stopping, killed). A
    'tunnelvision run' recording into the directory is said too: it is not a service.
    --json   one JSON object: {"state" (live, starting, stopping, off), "status" (the service's
             connected, connecting, disconnecting, disconnected), "dataDirectory", "service" (pid,
             target {kind, name|pid}, targetDescription, device, inspect, phase, startedAt,
             problem; null when none runs), "lastService" (the record a service that ended left),
             "run", "note"}.
    Exit status 0 when a service runs, 3 when none does, 1 when the directory cannot be read.
    """

    /// systemctl's word for "not running": a script tells it from a failure.
    static let notRunningStatus: Int32 = 3

    static func down(dataDirectory override: String?) async -> Int32 {
        let dataDirectory = location(override)
        let manager = LinuxServiceManager(dataDirectory: dataDirectory)
        let running: ServiceReport
        do { running = try manager.report() } catch {
            printError("tunnelvision: down: \(error)")
            return 1
        }
        guard let record = running.record, running.runningPID != nil else {
            printError("tunnelvision: down: no service runs on \(dataDirectory.path)")
            return notRunningStatus
        }
        printError("stopping the service monitoring \(record.target) (pid \(record.pid))…")
        do {
            try await manager.stop()
        } catch .notRunning {
            printError("tunnelvision: down: no service runs on \(dataDirectory.path)")
            return notRunningStatus
        } catch {
            printError("tunnelvision: down: \(error)")
            return 1
        }
        let after = try? manager.report()
        print("stopped monitoring \(record.target)")
        if let note = after?.note { printError("tunnelvision: \(note)") }
        return 0
    }

    static func status(dataDirectory override: String?, json: Bool) async -> Int32 {
        let dataDirectory = location(override)
        let manager = LinuxServiceManager(dataDirectory: dataDirectory)
        let report: ServiceReport
        do { report = try manager.report() } catch {
            printError("tunnelvision: status: \(error)")
            return 1
        }
        let runRecording = report.runningPID == nil && TunnelControl.channel.presence(in: dataDirectory) == .live
        let screen = ServiceStatusScreen(report: report, dataDirectory: dataDirectory.path, runRecording: runRecording)
        print(json ? screen.json : screen.text)
        return report.runningPID == nil ? notRunningStatus : 0
    }

    private static func location(_ override: String?) -> URL {
        DataDirectory.location(override: override, environment: ProcessInfo.processInfo.environment, effectiveUserID: geteuid())
    }
}
