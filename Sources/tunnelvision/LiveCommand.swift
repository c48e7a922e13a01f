#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import App
import AppLinux
import Shared
import Synchronization

/// `tunnelvision live [--data-dir D] [--json]`: the running tunnel's live feed. On a terminal, a
/// full-screen dashboard redrawn at most once a second; otherwise one line (or JSON object) a
/// second. Every decision is `LiveDashboard*`'s; this file parses, wires and writes.
enum LiveCommand {
    struct Request: Equatable {
        var dataDirectory: String?
        var json = false
    }

    static let help = """
    tunnelvision live [--data-dir D] [--json]

    Shows what the tunnel running on the data directory moves, as it happens. On a terminal it is a
    full-screen dashboard: received and sent over the last minute as two charts, the rates of the
    last whole second, this session's counters (received, sent, packets, connections), the busiest
    remote hosts of the last minute (by name where the history knows one), the recent connections,
    and — only when the tunnel was busier than the screen could follow — how many records it did
    not show. It follows the feed as records arrive but draws at most once a second, and fits
    the terminal's size. q (or Ctrl-C) quits and gives the terminal back as it was.

    With no tunnel on the data directory it says so and waits for one; when the tunnel's session
    ends it says so, keeps the last minute on screen, and picks up the next session by itself.
    A data directory that does not exist is an error (exit status 1): check --data-dir.

    The feed has one reader at a time, so that each sees every record: while another 'live' or a
    'tunnelvision ui' (its Dashboard) follows the same data directory, this one says so and
    waits, and reads once that one stops.

    When standard output is not a terminal (a pipe, a file), it prints one line a second until it
    is stopped (TERM or Ctrl-C, exit status 0).

    --data-dir D   the tunnel's data directory (default: as 'tunnelvision run' chooses it).
    --json         one JSON object a line, a line a second: {"time" (UTC), "bytesIn", "bytesOut"
                   (this session), "bytesInPerSecond", "bytesOutPerSecond" (the last whole
                   second), "packets", "connections", "dropped" (records the tunnel could not
                   hand over: the counters leave them out), "droppedNote" (that, in a sentence,
                   or null), "attached" (a ring is open), "state" (live | noTunnel |
                   sessionEnded | unreadable, then with "problem": why, in a sentence),
                   "session", "topTalkers": [{"host" (the remote
                   address), "name" (as the history names it; null until it does), "flow" (the
                   id 'tunnelvision flow ID' shows: the host's latest connection, or the one its
                   name came from; null until the history holds it), "bytes", "bytesIn",
                   "bytesOut"}] (the busiest remote hosts of the last minute, busiest first, as
                   the terminal lists them)}.

    \(JSONSizeHelp.paragraph)
    """

    static func parse(_ arguments: [String], json: Bool) throws(Invocation.UsageError) -> Request {
        var request = Request(json: json)
        var rest = arguments
        request.dataDirectory = try Invocation.takeDataDirectory(from: &rest, command: "live")
        if let argument = rest.first {
            throw Invocation.UsageError(message: "live: unknown argument \(argument) (tunnelvision live [--data-dir D] [--json])")
        }
        return request
    }

    static func run(_ request: Request) async -> Int32 {
        let directory = HistoryAccess.dataDirectory(override: request.dataDirectory)
        do {
            try DataDirectory.verify(directory, access: .read)
        } catch {
            printError("tunnelvision: \(error)")
            return 1
        }
        // A directory that is not there is a mistyped --data-dir far more often than a tunnel yet
        // to come: said at once, not waited on forever. An existing one without a ring is waited on.
        guard PathStatus.of(directory.path) != nil else {
            printError("tunnelvision: no data directory at \(directory.path): no tunnel has run with it "
                + "(check --data-dir, or start one with 'sudo tunnelvision run -- COMMAND')")
            return 1
        }
        let reader = LiveFeedReader(dataDirectory: directory, wakeup: RingFutexWakeup(dataDirectory: directory))
        await reader.start()
        let interactive = TerminalScreen.outputIsTerminal && !request.json
        let status = interactive
            ? await dashboard(reader: reader, directory: directory.path)
            : await lines(reader: reader, directory: directory.path, json: request.json)
        await reader.stop()
        return status
    }

    private enum Event: Sendable {
        case snapshot(LiveFeedSnapshot)
        case due
        case terminal(TerminalEvent)
    }

    private static func dashboard(reader: LiveFeedReader, directory: String) async -> Int32 {
        let screen: TerminalScreen
        do { screen = try TerminalScreen() } catch {
            printError("tunnelvision: \(error)")
            return 1
        }
        defer { screen.restore() }
        let (events, sink) = AsyncStream.makeStream(of: Event.self)
        let terminal = TerminalEvents()
        terminal.start(readKeys: TerminalScreen.inputIsTerminal) { sink.yield(.terminal($0)) }
        let feed = Task {
            for await snapshot in await reader.snapshots() { sink.yield(.snapshot(snapshot)) }
        }
        defer { feed.cancel() }
        var pacing = LiveDashboardPacing()
        var latest = await reader.snapshot
        for await event in events {
            switch event {
            case .terminal(.quit):
                return 0
            case .snapshot(let snapshot):
                latest = snapshot
                switch pacing.snapshotArrived(now: Date()) {
                case .drawNow: break
                case .alreadyOwed: continue
                case .drawAt(let due):
                    Task {
                        try? await Task.sleep(for: .seconds(max(0, due.timeIntervalSinceNow)))
                        sink.yield(.due)
                    }
                    continue
                }
            case .due, .terminal(.resized):
                break
            }
            let size = TerminalScreen.size() ?? (80, 24)
            let layout = LiveDashboardLayout(columns: size.columns, rows: size.rows, samples: latest.throughput.count)
            screen.draw(LiveDashboard(snapshot: latest, names: latest.names, directory: directory).frame(layout))
            pacing.drew(at: Date())
        }
        return 0
    }

    private static func lines(reader: LiveFeedReader, directory: String, json: Bool) async -> Int32 {
        let stop = StopRequest()
        let signals = StopSignals.handle(queue: DispatchQueue(label: "live stop")) { stop.request() }
        defer { signals.forEach { $0.cancel() } }
        var output = StandardOutput()
        while !stop.isRequested {
            let now = Date()
            let line = LiveQuestion.line(await reader.snapshot, directory: directory, at: now, json: json)
            do {
                output.writer.append(line + "\n")
                try output.flush()
            } catch {
                printError("tunnelvision: \(error)")
                return 1
            }
            if output.pipeClosed { return 0 }
            // The next whole second, so lines stay a second apart however long a line took.
            let wait = 1 - Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 1)
            try? await Task.sleep(for: .seconds(wait))
        }
        return 0
    }
}

/// Set by a stop signal, read by the line loop once a second.
private final class StopRequest: Sendable {
    private let flag = Atomic<Bool>(false)
    func request() { flag.store(true, ordering: .releasing) }
    var isRequested: Bool { flag.load(ordering: .acquiring) }
}
