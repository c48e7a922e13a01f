#if canImport(Glibc)
import Glibc
#endif
import Shared

/// An `IPEndpoint` as the kernel wants it: a `sockaddr_in` or `sockaddr_in6` in a
/// `sockaddr_storage`, port and address in network order. The only place that converts between
/// the two, both ways.
package struct SocketAddress: Sendable {
    package private(set) var storage = sockaddr_storage()
    /// How many bytes of `storage` the family uses.
    package private(set) var length: socklen_t

    /// Where a family keeps its fields: `sockaddr_in` and `sockaddr_in6` share the family and
    /// port, and differ in length and where the address sits.
    private struct Layout {
        let family: Int32
        let length: Int
        let portOffset: Int
        let addressOffset: Int

        static let v4 = Layout(family: AF_INET, length: MemoryLayout<sockaddr_in>.size,
                               portOffset: MemoryLayout<sockaddr_in>.offset(of: \.sin_port)!,
                               addressOffset: MemoryLayout<sockaddr_in>.offset(of: \.sin_addr)!)
        static let v6 = Layout(family: AF_INET6, length: MemoryLayout<sockaddr_in6>.size,
                               portOffset: MemoryLayout<sockaddr_in6>.offset(of: \.sin6_port)!,
                               addressOffset: MemoryLayout<sockaddr_in6>.offset(of: \.sin6_addr)!)
    }

    package init(_ endpoint: IPEndpoint) {
        let layout = endpoint.address.version == .v4 ? Layout.v4 : Layout.v6
        length = socklen_t(layout.length)
        withUnsafeMutableBytes(of: &storage) { bytes in
            bytes.storeBytes(of: sa_family_t(layout.family), toByteOffset: 0, as: sa_family_t.self)
            bytes.storeBytes(of: endpoint.port.bigEndian, toByteOffset: layout.portOffset, as: UInt16.self)
            endpoint.address.store(to: bytes.baseAddress! + layout.addressOffset)
        }
    }

    /// Wraps what the kernel filled in (getsockname, recvfrom, accept).
    package init(storage: sockaddr_storage, length: socklen_t) {
        self.storage = storage
        self.length = length
    }

    /// The socket family (AF_INET or AF_INET6) for `socket(2)`.
    package var family: Int32 { Int32(storage.ss_family) }

    /// The endpoint back, or nil for a family other than IPv4 and IPv6 or a short length.
    package var endpoint: IPEndpoint? {
        let (layout, version): (Layout, IPVersion)
        switch family {
        case AF_INET: (layout, version) = (.v4, .v4)
        case AF_INET6: (layout, version) = (.v6, .v6)
        default: return nil
        }
        guard length >= layout.length else { return nil }
        return withUnsafeBytes(of: storage) { bytes in
            IPEndpoint(address: .load(version, from: bytes.baseAddress! + layout.addressOffset),
                       port: UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: layout.portOffset, as: UInt16.self)))
        }
    }

    /// Lends the address to a call such as `connect` or `bind`.
    package func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafeBytes(of: storage) { body($0.baseAddress!.assumingMemoryBound(to: sockaddr.self), length) }
    }

    /// The local (`getsockname`) or remote (`getpeername`) address of a socket, or nil.
    package static func of(_ descriptor: Int32, peer: Bool = false) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutableBytes(of: &storage) {
            let pointer = $0.baseAddress!.assumingMemoryBound(to: sockaddr.self)
            return peer ? getpeername(descriptor, pointer, &length) : getsockname(descriptor, pointer, &length)
        }
        return result == 0 ? SocketAddress(storage: storage, length: length) : nil
    }
}
