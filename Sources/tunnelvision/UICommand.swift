#if canImport(Glibc)
import Glibc
#endif
import App
import AppLinux
import Dispatch
import Foundation
import Shared

/// `tunnelvision ui [--data-dir D] [--listen ADDR:PORT] [--no-open] [--json]`: the web app for one
/// data directory. Parses, wires and prints; the server is `WebServer`, who may look is
/// `WebAccess`'s, the answers are `WebAPI`'s, the live events are `live --json`'s lines.
enum UICommand {
    struct Request: Equatable {
        var dataDirectory: String?
        var listen: WebListenAddress?
        var noOpen = false
        var json = false
    }

    static let help = """
    tunnelvision ui [--data-dir D] [--listen ADDR:PORT] [--no-open] [--json]

    Serves the app — dashboard, timeline, flow inspector, captures, settings, diagnostics — to a
    browser on this machine, for the history in the data directory, whether or not a tunnel is
    running on it (its live session shows when one is). It prints the address to open:

      TunnelVision is at http://127.0.0.1:PORT/?key=SECRET (open it in a browser on this machine; Ctrl-C stops it)

    The key is new at every start; opening the address trades it for a session cookie, and every
    request without that cookie is refused (401), as are requests naming another host (421) and
    changes from another site's page (403). Refusals are logged on stderr, one line each.
    Runs until Ctrl-C or TERM (exit status 0).

    --data-dir D         the data directory (default: as 'tunnelvision run' chooses it)
    --listen ADDR:PORT   where to listen (default 127.0.0.1:0, a free port on loopback; [::1]:PORT
                         for IPv6). Another address lets other machines connect: it is warned about.
    --no-open            do not open a browser (one is opened with xdg-open only when a display is set)
    --json               print the address as one JSON line: {"url", "listen", "dataDirectory"}
    """

    static func parse(_ arguments: [String], json: Bool) throws(Invocation.UsageError) -> Request {
        var request = Request(json: json)
        var remaining = arguments
        request.dataDirectory = try Invocation.takeDataDirectory(from: &remaining, command: "ui")
        var rest = remaining[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--listen":
                guard let value = rest.popFirst() else {
                    throw Invocation.UsageError(message: "ui: --listen needs ADDRESS:PORT, e.g. 127.0.0.1:8080")
                }
                do {
                    request.listen = try WebListenAddress(parsing: value)
                } catch {
                    throw Invocation.UsageError(message: "ui: \(error)")
                }
            case "--no-open":
                request.noOpen = true
            default:
                throw Invocation.UsageError(message: "ui: unknown argument \(argument) (\(help.prefix { $0 != "\n" }))")
            }
        }
        return request
    }

    static func run(_ request: Request) async -> Int32 {
        let directory = HistoryAccess.dataDirectory(override: request.dataDirectory)
        let listen = request.listen ?? .standard
        let session: WebAppSession
        do {
            session = try await WebAppSession.start(directory: directory, listen: listen)
        } catch {
            printError("tunnelvision: \(error)")
            return 1
        }
        if let warning = listen.exposureWarning { printError("tunnelvision: warning: \(warning)") }
        let announcement = session.announcement(dataDirectory: directory, lifetime: .untilStopped)
        FileHandle.standardOutput.write(Data(((request.json ? announcement.json : announcement.text) + "\n").utf8))
        openBrowser(session.server.url, noOpen: request.noOpen)
        await untilStopped()
        await session.stop()
        return 0
    }

    /// Until INT or TERM arrives (exit status 0 then: stopping is how the server ends).
    static func untilStopped() async {
        let (stops, stop) = AsyncStream.makeStream(of: Void.self)
        let signals = StopSignals.handle(queue: DispatchQueue(label: "ui stop")) { stop.yield() }
        defer { signals.forEach { $0.cancel() } }
        for await _ in stops { break }
    }

    static func openBrowser(_ url: String, noOpen: Bool) {
        switch BrowserLaunch.decide(noOpen: noOpen, environment: ProcessInfo.processInfo.environment, effectiveUserID: geteuid()) {
        case .skip(let sentence):
            if let sentence { printError("tunnelvision: \(sentence)") }
        case .open:
            let opener = Process()
            opener.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            opener.arguments = ["xdg-open", url]
            opener.standardOutput = FileHandle.nullDevice
            opener.standardError = FileHandle.nullDevice
            do {
                try opener.run()
            } catch {
                printError("tunnelvision: could not start xdg-open (\(error)); open the address above yourself")
            }
        }
    }
}
