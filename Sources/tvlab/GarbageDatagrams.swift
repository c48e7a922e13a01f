#if canImport(Glibc)
import Glibc
#endif
import Fixtures

/// `tvlab net garbage`: malformed datagrams written into the monitored namespace's tunnel device
/// through a packet socket, so the tunnel reads bytes no kernel stack would send — truncated
/// headers, wrong versions and lengths, random options. Run as a monitored command; the relay's
/// sockets are in the lab's host namespace, which routes nowhere but the lab.
enum GarbageDatagrams {
    /// Longest datagram sent: past every header, inside any MTU.
    static let maximumLength = 300

    static func send(count: Int, seed: UInt64) throws(Failure) {
        guard let interface = firstNonLoopbackInterface() else { throw Failure("garbage: no interface but loopback here") }
        let descriptor = socket(AF_PACKET, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("garbage: cannot open a packet socket (needs root)", errno: errno) }
        defer { close(descriptor) }
        var random = SeededRandom(seed: seed)
        var sent = 0
        var datagram = [UInt8](repeating: 0, count: maximumLength)
        for _ in 0..<count {
            let length = Int.random(in: 1...maximumLength, using: &random)
            for index in 0..<length { datagram[index] = UInt8.random(in: 0...255, using: &random) }
            // Most say IPv4 or IPv6 in their first nibble, so the parser goes past the version check.
            if Bool.random(using: &random) { datagram[0] = (datagram[0] & 0x0F) | (Bool.random(using: &random) ? 0x40 : 0x60) }
            let address = Self.linkAddress(interface: interface.index, ipv6: datagram[0] >> 4 == 6)
            let written = datagram.withUnsafeBytes { bytes in
                address.withUnsafeBytes {
                    sendto(descriptor, bytes.baseAddress, length, 0, $0.baseAddress?.assumingMemoryBound(to: sockaddr.self),
                           socklen_t(address.count))
                }
            }
            if written == length { sent += 1 }
        }
        print("sent \(sent) of \(count) malformed datagrams into \(interface.name)")
    }

    /// EtherTypes: what the packet socket hands the device as the datagram's protocol.
    static let etherTypeIPv4: UInt16 = 0x0800
    static let etherTypeIPv6: UInt16 = 0x86DD

    /// A `struct sockaddr_ll` (linux/if_packet.h, which Glibc's module does not import), byte by
    /// byte: family, protocol (network order), interface index, then hardware fields left zero.
    static func linkAddress(interface: UInt32, ipv6: Bool) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 20)
        withUnsafeBytes(of: UInt16(AF_PACKET)) { bytes.replaceSubrange(0..<2, with: $0) }
        withUnsafeBytes(of: (ipv6 ? etherTypeIPv6 : etherTypeIPv4).bigEndian) { bytes.replaceSubrange(2..<4, with: $0) }
        withUnsafeBytes(of: Int32(bitPattern: interface)) { bytes.replaceSubrange(4..<8, with: $0) }
        return bytes
    }

    private static func firstNonLoopbackInterface() -> (index: UInt32, name: String)? {
        guard let list = if_nameindex() else { return nil }
        defer { if_freenameindex(list) }
        var entry = list
        while entry.pointee.if_index != 0 {
            let name = String(cString: entry.pointee.if_name)
            if name != "lo" { return (entry.pointee.if_index, name) }
            entry += 1
        }
        return nil
    }
}
