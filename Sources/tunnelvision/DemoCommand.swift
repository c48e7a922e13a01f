#if canImport(Glibc)
import Glibc
#endif
import App
import AppLinux
import Foundation
import Linux
import Shared

/// `tunnelvision demo`: the tunnel in a lab of namespaces, needing nothing outside the machine
/// (`DemoScenario` builds, runs and removes it). Progress goes to standard error as it happens;
/// the summary, as `run` prints it, to standard output.
enum DemoCommand {
    static func run(dataDirectory requested: String?, json: Bool, ui: Bool = false, noOpen: Bool = false) async -> Int32 {
        // The web app reads the history after the lab is gone, so --ui without --data-dir keeps the
        // demo's in a temporary directory of its own (0700), removed when the app stops.
        var temporary: URL?
        if ui && requested == nil {
            let template = FileManager.default.temporaryDirectory.appendingPathComponent("tunnelvision-demo-ui.XXXXXX").path
            var bytes = Array(template.utf8CString)
            guard let made = mkdtemp(&bytes) else {
                printError("tunnelvision: demo: cannot make a temporary data directory under \(FileManager.default.temporaryDirectory.path) "
                           + "(errno \(errno)); pass --data-dir D")
                return 1
            }
            temporary = URL(fileURLWithPath: String(cString: made))
        }
        defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
        let override = requested ?? temporary?.path
        let outcome: DemoScenario.Outcome
        do {
            outcome = try await DemoScenario(dataDirectory: override).run { step(text(for: $0)) }
        } catch {
            if case .setUp = error { printError("tunnelvision: demo: \(error)") } else { printError("tunnelvision: \(error)") }
            return error.exitStatus
        }
        let summary = await RunSummary.of(command: "tunnelvision demo", exitStatus: outcome.clientsStatus, signal: nil,
                                          recording: outcome.recording)
        print(json ? summary.json() : summary.text())
        if outcome.interrupted {
            step("interrupted")
            return outcome.exitStatus
        }
        if ui, let override {
            return await serve(URL(fileURLWithPath: override), noOpen: noOpen, kept: requested != nil, demoStatus: outcome.exitStatus)
        }
        if let override {
            step("the record is kept: tunnelvision flows --data-dir \(TimelineListing.quoted(override)) "
                 + "(or see it in a browser: tunnelvision ui --data-dir \(TimelineListing.quoted(override)))")
        } else {
            step("(the demo's data directory is removed with the lab; pass --data-dir to keep it, or --ui to look at it in a browser)")
        }
        return outcome.exitStatus
    }

    /// `--ui`: the web app on the demo's history until Ctrl-C; then the demo's own exit status.
    private static func serve(_ directory: URL, noOpen: Bool, kept: Bool, demoStatus: Int32) async -> Int32 {
        let session: WebAppSession
        do {
            session = try await WebAppSession.start(directory: directory, listen: .standard, lifetime: .untilStopped)
        } catch {
            printError("tunnelvision: demo: the web app could not start: \(error)")
            return 1
        }
        step(session.announcement.text)
        if let problem = session.linkProblem { step("warning: \(problem)") }
        UICommand.openBrowser(session, noOpen: noOpen)
        let failure = await UICommand.untilStopped(session)
        await session.stop()
        step(kept ? "web app stopped; the record is kept in \(directory.path)" : "web app stopped; the demo's data directory is removed")
        return failure == nil ? demoStatus : 1
    }

    private static func step(_ text: String) { printError("demo: \(text)") }

    static func text(for step: DemoScenario.Step) -> String {
        switch step {
        case .buildingLab: "building the lab (namespaces host, server and monitored; \(Lab.hostIPv4) ↔ \(Lab.serverIPv4))…"
        case let .startingTunnel(dataDirectory): "starting the tunnel (data in \(dataDirectory))…"
        case let .client(client):
            switch client {
            case let .lookup(name): "looking up \(name) through the namespace's resolver…"
            case let .https(name, version): "fetching https://\(name)/ at TLS \(version) (a demo CA's chain)…"
            case let .quic(name): "a QUIC exchange with \(name)…"
            case let .download(name, bytes): "downloading \(bytes >> 20) MiB from http://\(name)…"
            case let .parallelRequests(name, count): "\(count) requests in parallel to \(name)…"
            case .udpExchange: "a UDP exchange…"
            }
        case let .clientFinished(ok): ok ? "  ok" : "  FAILED"
        case let .labRemoved(failures):
            failures.isEmpty ? "lab removed"
                : "the lab is not all removed (the next demo removes what is left): " + failures.joined(separator: "; ")
        }
    }
}
