#if canImport(Glibc)
import Glibc
#endif
import Shared

/// Buffered writes to a file descriptor. A closed pipe (`| head`) ends the output quietly.
struct StandardOutput {
    let descriptor: Int32
    private(set) var pipeClosed = false
    var writer = ASCIIWriter(capacity: 1 << 17)
    static let flushThreshold = 1 << 16

    init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
    }

    var isTerminal: Bool { isatty(descriptor) == 1 }

    /// Writes the buffer out once it has grown past the threshold.
    mutating func flushIfFull() throws(OutputError) {
        if writer.count >= Self.flushThreshold { try flush() }
    }

    /// Writes `bytes` after what is buffered, without copying them into the buffer.
    mutating func write(_ bytes: ArraySlice<UInt8>) throws(OutputError) {
        try flush()
        guard !pipeClosed else { return }
        try check(bytes.withUnsafeBytes { FileDescriptor.writeAll(descriptor, $0) })
    }

    /// Moves what `document` has written into the buffer once it has grown past the threshold
    /// (or at once, `whole`), emptying it, and writes the buffer out when it is full.
    mutating func take(_ document: inout JSONWriter, whole: Bool = false) throws(OutputError) {
        guard whole || document.writer.count >= Self.flushThreshold else { return }
        document.writer.bytes.withUnsafeBytes { writer.append(bytes: $0) }
        document.writer.removeAll()
        try flushIfFull()
    }

    mutating func flush() throws(OutputError) {
        defer { writer.removeAll() }
        guard !pipeClosed, writer.count > 0 else { return }
        try check(writer.bytes.withUnsafeBytes { FileDescriptor.writeAll(descriptor, $0) })
    }

    /// A closed pipe is remembered, any other failure thrown.
    private mutating func check(_ failure: Int32?) throws(OutputError) {
        switch failure {
        case nil: return
        case EPIPE?: pipeClosed = true
        case let code?: throw OutputError(errno: code)
        }
    }

    struct OutputError: Error, CustomStringConvertible {
        let errno: Int32
        var description: String { "cannot write output: \(SystemError.text(errno))" }
    }
}

/// A line on standard error.
func printError(_ message: String) {
    FileDescriptor.writeAll(STDERR_FILENO, text: message + "\n")
}
