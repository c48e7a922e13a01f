#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// The full-screen terminal of `tunnelvision live`: raw input (so one key quits), the alternate
/// screen, the cursor hidden — and all of it undone on every way out: `restore()`, `q`, Ctrl-C,
/// TERM, HUP, and `exit` from anywhere (an `atexit` hook). What is undone is kept in one place,
/// so a restore after a restore does nothing.
package final class TerminalScreen: Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// What we changed: whether the alternate screen is up, and the input settings as they were
    /// (nil when input is not a terminal). Emptied by the first restore.
    private struct Taken: Sendable {
        var alternateScreen = false
        var original: termios?
    }

    private static let taken = Mutex(Taken())
    private static let output = STDOUT_FILENO
    private static let input = STDIN_FILENO

    static let enterAlternateScreen = "\u{1b}[?1049h\u{1b}[?25l\u{1b}[H\u{1b}[2J"
    static let leaveAlternateScreen = "\u{1b}[?25h\u{1b}[?1049l"

    package static var outputIsTerminal: Bool { isatty(output) == 1 }
    package static var inputIsTerminal: Bool { isatty(input) == 1 }

    /// The terminal's size now (read each frame, so a resize is followed even without SIGWINCH).
    package static func size() -> (columns: Int, rows: Int)? {
        var window = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return nil }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Takes the terminal: raw input when standard input is one, the alternate screen, no cursor.
    package init() throws(Failure) {
        guard Self.outputIsTerminal else { throw Failure(description: "standard output is not a terminal") }
        if Self.inputIsTerminal {
            var original = termios()
            guard tcgetattr(Self.input, &original) == 0 else {
                throw Failure(description: "cannot read the terminal's settings: \(String(cString: strerror(errno)))")
            }
            var raw = original
            cfmakeraw(&raw)
            // Output keeps its usual processing (newline as CR LF); only input is raw.
            raw.c_oflag = original.c_oflag
            Self.taken.withLock { $0.original = original }
            tcsetattr(Self.input, TCSAFLUSH, &raw)
        }
        atexit { TerminalScreen.restoreTerminal() }
        Self.taken.withLock { $0.alternateScreen = true }
        Self.write(Self.enterAlternateScreen)
    }

    /// Draws `lines` from the top-left corner, each clearing the rest of its row, and clears
    /// below the last: one write, so a frame never shows half drawn.
    package func draw(_ lines: [String]) {
        var frame = "\u{1b}[H"
        for (index, line) in lines.enumerated() {
            frame += line + "\u{1b}[K"
            if index < lines.count - 1 { frame += "\r\n" }
        }
        frame += "\u{1b}[J"
        Self.write(frame)
    }

    /// Gives the terminal back as it was. Safe to call more than once and from a signal's path.
    package func restore() { Self.restoreTerminal() }

    static func restoreTerminal() {
        let undo = taken.withLock { state in
            defer { state = Taken() }
            return state
        }
        if undo.alternateScreen { write(leaveAlternateScreen) }
        guard var original = undo.original else { return }
        tcsetattr(input, TCSAFLUSH, &original)
    }

    private static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(output, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
