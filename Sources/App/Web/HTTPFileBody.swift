#if canImport(Glibc)
import Glibc
#endif
import Shared

/// A response body that stays on disk: an open file and the length said for it, read by the
/// server a chunk at a time as the client takes them (`HTTPConnection`'s `.readBody`), so a
/// download costs one chunk of memory whatever its size. The descriptor is this value's own and
/// is closed when the last reference goes — after the last chunk, or when the client leaves.
///
/// The length is fixed when the file is opened: a file that grows meanwhile (the capture being
/// recorded) is handed over as it was then, and one that shrinks ends the connection early
/// (`HTTPCloseReason.bodyUnreadable`) rather than send a body shorter than its Content-Length.
package final class HTTPFileBody: Sendable, Equatable, CustomStringConvertible {
    private let descriptor: Int32
    package let length: UInt64
    /// The path it was opened from, for the log and the error sentences.
    package let path: String

    /// Why a file could not be opened for sending, in the system's words ("cannot open PATH: …").
    package struct OpenFailure: Error, Sendable, Equatable, CustomStringConvertible {
        package let description: String
    }

    /// Opens `path` for reading (never through a symbolic link at its last component). `unlinking`
    /// removes the name once opened: a temporary file then lives exactly as long as its download.
    package init(opening path: String, unlinking: Bool = false) throws(OpenFailure) {
        let opened = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard opened >= 0 else {
            throw OpenFailure(description: "cannot open \(path): \(SystemError.text(openingWithoutFollowing: errno))")
        }
        var status = stat()
        let looked = fstat(opened, &status) == 0 ? nil : errno
        guard looked == nil, status.st_mode & S_IFMT == S_IFREG else {
            close(opened)
            throw OpenFailure(description: "cannot send \(path): " + (looked.map { SystemError.text($0) } ?? "it is not a regular file"))
        }
        if unlinking { unlink(path) }
        descriptor = opened
        length = UInt64(status.st_size)
        self.path = path
    }

    deinit { close(descriptor) }

    /// Up to `buffer.count` bytes from `offset`: how many were read (0 past the end of the file),
    /// or nil with `errno` set when the read failed.
    package func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        while true {
            let count = pread(descriptor, buffer.baseAddress, buffer.count, off_t(clamping: offset))
            if count >= 0 { return count }
            if errno != EINTR { return nil }
        }
    }

    package static func == (lhs: HTTPFileBody, rhs: HTTPFileBody) -> Bool { lhs === rhs }

    package var description: String { "\(path) (\(length) bytes)" }
}
