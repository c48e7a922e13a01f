#if canImport(Glibc)
import Glibc
#endif

/// The one loop that writes a whole buffer to a descriptor: capture files, standard output and
/// standard error all go through it.
package enum FileDescriptor {
    /// Writes every byte, retrying short writes and EINTR. Returns nil on success, or the errno of
    /// the failure (ENOSPC for a full disk, EPIPE for a closed pipe).
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        guard let base = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
            let result = write(descriptor, base + offset, bytes.count - offset)
            if result < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += result
        }
        return nil
    }

    /// Writes `text` whole; a failure is ignored (for diagnostics on standard error, which have
    /// nowhere else to go).
    package static func writeAll(_ descriptor: Int32, text: String) {
        var text = text
        text.withUTF8 { _ = writeAll(descriptor, UnsafeRawBufferPointer($0)) }
    }
}
