#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation

/// What the terminal tells the dashboard: a key that quits, a resize, or a signal to end.
package enum TerminalEvent: Sendable, Equatable {
    case quit
    case resized
}

/// Turns keys and signals into `TerminalEvent`s: `q`, `Q`, Ctrl-C (raw input delivers it as a
/// byte, not a signal), Ctrl-D and end of input quit; SIGINT, SIGTERM and SIGHUP quit (so the
/// terminal is restored rather than left raw); SIGWINCH is a resize.
package final class TerminalEvents {
    private var sources: [any DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "terminal events")

    package init() {}

    /// Whether `byte`, typed, ends the dashboard.
    package static func quits(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "q") || byte == UInt8(ascii: "Q") || byte == 0x03 || byte == 0x04
    }

    /// Starts listening; `readKeys` only when standard input is a terminal (else a pipe's end
    /// would quit at once).
    package func start(readKeys: Bool, handler: @escaping @Sendable (TerminalEvent) -> Void) {
        for (signalNumber, event) in [(SIGINT, TerminalEvent.quit), (SIGTERM, .quit), (SIGHUP, .quit), (SIGWINCH, .resized)] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { handler(event) }
            source.resume()
            sources.append(source)
        }
        guard readKeys else { return }
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(STDIN_FILENO, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 || Self.quits(byte) {
                    handler(.quit)
                    return
                }
            }
        }
        thread.name = "terminal keys"
        thread.start()
    }
}

/// SIGINT, SIGTERM and SIGHUP as one "stop" call, for the line-per-second form (no terminal to
/// restore, but an ending a script can tell from a crash: exit status 0).
package enum StopSignals {
    package static func handle(queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM, SIGHUP].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }
}
