#if canImport(Glibc)
import Glibc
#endif
import App
import AppLinux
import Dispatch
import Foundation
import Posix
import Shared

/// `tunnelvision ui [--data-dir D] [--listen ADDR:PORT] [--no-open] [--json]`: the web app for one
/// data directory; `tunnelvision ui link [--data-dir D] [--json]`: a new address from the one
/// running. Parses, wires and prints; the server is `WebServer`, who may look is `WebAccess`'s,
/// the answers are `WebAPI`'s, the live events are `live --json`'s lines.
enum UICommand {
    struct Request: Equatable {
        var dataDirectory: String?
        var listen: WebListenAddress?
        var noOpen = false
        var json = false
        /// `ui link`: ask the running server for a new address rather than start one.
        var link = false
    }

    static let lifetime = WebServerLimits.standard.keyLifetimeText

    static let help = """
    tunnelvision ui [--data-dir D] [--listen ADDR:PORT] [--no-open] [--json]
    tunnelvision ui link [--data-dir D] [--json]

    Serves the app — dashboard, timeline, flow inspector, captures, settings, diagnostics — to a
    browser on this machine, for the history in the data directory, whether or not a tunnel is
    running on it (its live session shows when one is). It prints the address to open:

      TunnelVision is at http://127.0.0.1:PORT/?key=KEY (open it in a browser on this machine within \(lifetime); …)

    The key opens one browser, once: opening the address trades it for a session cookie, good
    while the server runs; the same address opened again is refused, and so is one not opened
    within \(lifetime). Every request without the cookie is refused (401), as are requests
    naming another host (421) and changes from another site's page (403). Refusals are logged on
    stderr, one line each. When a display is set, a browser is opened with xdg-open — on a page in
    a file only you can read (0600, in $XDG_RUNTIME_DIR or a new private directory) that carries a
    key of its own, never on the address itself, which any user of the machine could read in
    xdg-open's arguments; the file is removed once its key is used or expires, and when the
    server stops. Runs until Ctrl-C or TERM (exit status 0).

    'tunnelvision ui link' asks the web app already serving the data directory (ui, run --ui or
    demo --ui) for a new address — for a second browser, or when the first one expired — and
    prints it the same way. Only the data directory's owner, the user serving it, and root can
    ask: the request goes over a socket in DATA/ui/ that only they can reach, and carries no
    secret. Exit status 1 when no web app serves the data directory.

    --data-dir D         the data directory (default: as 'tunnelvision run' chooses it)
    --listen ADDR:PORT   where to listen (default 127.0.0.1:0, a free port on loopback; [::1]:PORT
                         for IPv6). Another address lets other machines connect: it is warned
                         about, since the key and the session cookie then travel in plain HTTP.
    --no-open            do not open a browser (one is opened with xdg-open only when a display is set)
    --json               print the address as one JSON line: {"url", "listen", "dataDirectory",
                         "keyLifetimeSeconds"} (ui link: one line for each web app serving D)
    """

    static func parse(_ arguments: [String], json: Bool) throws(Invocation.UsageError) -> Request {
        var request = Request(json: json)
        var remaining = arguments
        if remaining.first == "link" {
            remaining.removeFirst()
            request.link = true
            request.dataDirectory = try Invocation.takeDataDirectory(from: &remaining, command: "ui link")
            if let argument = remaining.first {
                throw Invocation.UsageError(message: "ui link: unknown argument \(argument) (tunnelvision ui link [--data-dir D] [--json])")
            }
            return request
        }
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
        if request.link { return link(request) }
        let directory = HistoryAccess.dataDirectory(override: request.dataDirectory)
        let listen = request.listen ?? .standard
        let session: WebAppSession
        do {
            session = try await WebAppSession.start(directory: directory, listen: listen, lifetime: .untilStopped)
        } catch {
            printError("tunnelvision: \(error)")
            return 1
        }
        if let warning = listen.exposureWarning { printError("tunnelvision: warning: \(warning)") }
        if let problem = session.linkProblem { printError("tunnelvision: warning: \(problem)") }
        let announcement = session.announcement
        FileHandle.standardOutput.write(Data(((request.json ? announcement.json : announcement.text) + "\n").utf8))
        openBrowser(session, noOpen: request.noOpen)
        let failure = await untilStopped(session)
        await session.stop()
        return failure == nil ? 0 : 1
    }

    /// `ui link`: a new address from every web app serving the data directory.
    static func link(_ request: Request) -> Int32 {
        let directory = HistoryAccess.dataDirectory(override: request.dataDirectory)
        let replies: [WebLinkReply]
        do {
            replies = try WebLinkChannel.ask(dataDirectory: directory)
        } catch {
            printError("tunnelvision: ui link: cannot ask the web app on \(directory.path): \(error)")
            return 1
        }
        guard !replies.isEmpty else {
            printError("tunnelvision: ui link: no web app serves \(directory.path) "
                       + "(start one with 'tunnelvision ui', 'run --ui' or 'demo --ui' on it)")
            return 1
        }
        var printed = false
        for reply in replies {
            switch reply {
            case .address(let announcement):
                FileHandle.standardOutput.write(Data(((request.json ? announcement.json : announcement.text) + "\n").utf8))
                printed = true
            case .refused(let sentence):
                printError("tunnelvision: ui link: \(sentence)")
            }
        }
        return printed ? 0 : 1
    }

    /// Until INT or TERM arrives (nil: stopping is how the server ends, exit status 0), or until
    /// the server stops serving by itself: then its reason, said.
    static func untilStopped(_ session: WebAppSession) async -> EventLoopError? {
        let (stops, stop) = AsyncStream.makeStream(of: EventLoopError?.self)
        let signals = StopSignals.handle(queue: DispatchQueue(label: "ui stop")) { stop.yield(nil) }
        defer { signals.forEach { $0.cancel() } }
        let failed = Task {
            for await failure in session.failures { stop.yield(failure) }
        }
        defer { failed.cancel() }
        for await reason in stops {
            if let reason { printError("tunnelvision: the web app stopped serving: \(reason)") }
            return reason
        }
        return nil
    }

    /// Opens a browser on `session` when `BrowserLaunch` says to: `xdg-open` is given the path of
    /// a private page that carries a key of its own (`BrowserLaunchFile`), never an address with
    /// a key — any user can read a process's arguments.
    static func openBrowser(_ session: WebAppSession, noOpen: Bool) {
        let environment = ProcessInfo.processInfo.environment
        switch BrowserLaunch.decide(noOpen: noOpen, environment: environment, effectiveUserID: geteuid()) {
        case .skip(let sentence):
            if let sentence { printError("tunnelvision: \(sentence)") }
        case .open:
            let file: BrowserLaunchFile
            do {
                file = try session.browserFile(environment: environment)
            } catch {
                printError("tunnelvision: not opening a browser: \(error); open the address above yourself")
                return
            }
            let opener = Process()
            opener.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            opener.arguments = ["xdg-open", file.path]
            opener.standardOutput = FileHandle.nullDevice
            opener.standardError = FileHandle.nullDevice
            do {
                try opener.run()
            } catch {
                file.remove()
                printError("tunnelvision: could not start xdg-open (\(error)); open the address above yourself")
            }
        }
    }
}
