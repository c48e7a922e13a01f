#if canImport(Glibc)
import Glibc
#endif
import Shared

/// Something tvlab was asked to do and could not (exit status 1).
struct Failure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }

    init(_ message: String) { self.message = message }

    /// `what` failed with `errno`-style `code`.
    init(_ what: String, errno code: Int32) {
        message = "\(what): \(SystemError.text(code))"
    }
}

/// Lines for people on standard error, written at once so they never interleave mid-line.
enum Console {
    static func progress(_ message: String) {
        write(message + "\n")
    }

    static func error(_ message: String) {
        write("tvlab: " + message + "\n")
    }

    private static func write(_ text: String) {
        FileDescriptor.writeAll(STDERR_FILENO, text: text)
    }
}
