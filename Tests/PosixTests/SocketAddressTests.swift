#if canImport(Glibc)
import Glibc
#endif
import Posix
import Shared
import Testing

/// `IPEndpoint` ⇄ `sockaddr_in` / `sockaddr_in6`, byte by byte.
@Suite("SocketAddress")
struct SocketAddressTests {
    /// The kernel's bytes of an address.
    private func bytes(_ address: SocketAddress) -> [UInt8] {
        withUnsafeBytes(of: address.storage) { Array($0.prefix(Int(address.length))) }
    }

    @Test("an endpoint becomes a sockaddr_in or sockaddr_in6, port and address in network order", arguments: [
        ("127.0.0.1", UInt16(443), AF_INET, 16, 4, [UInt8]([127, 0, 0, 1])),
        ("fd00:7::2", UInt16(8443), AF_INET6, 28, 8, [0xFD, 0, 0, 7] + [UInt8](repeating: 0, count: 11) + [2]),
    ])
    func layout(text: String, port: UInt16, family: Int32, length: Int, addressOffset: Int, addressBytes: [UInt8]) throws {
        let endpoint = IPEndpoint(address: try #require(IPAddress(parsing: text)), port: port)
        let address = SocketAddress(endpoint)
        #expect(address.family == family)
        #expect(Int(address.length) == length)
        let raw = bytes(address)
        #expect(Array(raw[2..<4]) == [UInt8(port >> 8), UInt8(port & 0xFF)])
        #expect(Array(raw[addressOffset..<addressOffset + addressBytes.count]) == addressBytes)
        #expect(address.endpoint == endpoint)
    }

    @Test("another family or a short length is no endpoint")
    func notAnEndpoint() {
        var storage = sockaddr_storage()
        storage.ss_family = sa_family_t(AF_UNIX)
        #expect(SocketAddress(storage: storage, length: 110).endpoint == nil)
        storage.ss_family = sa_family_t(AF_INET6)
        #expect(SocketAddress(storage: storage, length: 16).endpoint == nil)
    }

    @Test("a socket bound to port 0 reports the port the kernel chose")
    func boundSocket() throws {
        let descriptor = socket(AF_INET6, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(descriptor) }
        let any = SocketAddress(IPEndpoint(address: try #require(IPAddress(parsing: "::1")), port: 0))
        #expect(any.withSockaddr { bind(descriptor, $0, $1) } == 0)
        let local = try #require(SocketAddress.of(descriptor)?.endpoint)
        #expect(local.address.description == "::1")
        #expect(local.port != 0)
        #expect(SocketAddress.of(descriptor, peer: true) == nil)
    }
}
