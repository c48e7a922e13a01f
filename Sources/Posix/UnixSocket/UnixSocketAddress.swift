#if canImport(Glibc)
import Glibc
#endif

/// A `sockaddr_un` for a filesystem path (or an abstract name), built in one place. Paths longer than `sun_path`
/// (107 bytes and a NUL) cannot be socket names; callers get nil and say so.
package struct UnixSocketAddress {
    private var storage = sockaddr_un()
    /// The address's length: the whole structure for a path (NUL-terminated inside it); for an
    /// abstract name exactly up to its last byte, because every byte given is part of the name.
    private var length = socklen_t(MemoryLayout<sockaddr_un>.size)

    /// A path, or — starting with "@", as systemd writes NOTIFY_SOCKET — a name in the abstract
    /// namespace (a NUL byte first, no file).
    package init?(notifySocket value: String) {
        guard value.hasPrefix("@") else {
            guard let address = UnixSocketAddress(path: value) else { return nil }
            self = address
            return
        }
        let bytes = [0] + Array(value.utf8.dropFirst())
        guard bytes.count > 1, bytes.count <= MemoryLayout.size(ofValue: storage.sun_path) else { return nil }
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { $0.copyBytes(from: bytes) }
        length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
    }

    package init?(path: String) {
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else { return nil }
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
    }

    package func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafeBytes(of: storage) { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
        }
    }
}
