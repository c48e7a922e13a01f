#if canImport(Glibc)
import Glibc
#endif
import Shared

/// The addresses of every interface of the network namespace this thread is in (getifaddrs), which
/// tell a passive target's own traffic from traffic that only passes by (`LocalAddressDirection`).
/// Asked again on each tick, so an address that comes or goes counts from the next second on.
enum LocalAddresses {
    /// nil when the system could not say (errno is left for the caller); the last known set is then kept.
    static func current() -> Set<IPAddress>? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return nil }
        defer { freeifaddrs(list) }
        var addresses = Set<IPAddress>()
        var entry = list
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            guard let address = current.pointee.ifa_addr else { continue }
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                let value = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
                addresses.insert(IPAddress(ipv4: UInt32(bigEndian: value)))
            case AF_INET6:
                let raw = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                if let found = withUnsafeBytes(of: raw, { IPAddress(bytes: $0) }) { addresses.insert(found) }
            default: break
            }
        }
        return addresses
    }
}
