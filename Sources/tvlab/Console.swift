#if canImport(Glibc)
import Glibc
#endif

/// Something tvlab was asked to do and could not (exit status 1).
struct Failure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }

    init(_ message: String) { self.message = message }

    /// `what` failed with `errno`-style `code`.
    init(_ what: String, errno code: Int32) {
        message = "\(what): \(String(cString: strerror(code)))"
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
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
