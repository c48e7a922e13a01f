import Foundation
@testable import Linux
import Shared
import Testing

/// The sock_diag request and answer as bytes, against layouts written out by hand from
/// linux/inet_diag.h and linux/netlink.h (host order is little-endian here; ports and addresses
/// big-endian).
@Suite("sock_diag messages")
struct SocketDiagMessageTests {
    static func endpoint(_ text: String, _ port: UInt16) -> IPEndpoint {
        IPEndpoint(address: IPAddress(parsing: text)!, port: port)
    }

    @Test("an IPv4 TCP lookup is a 72-byte exact request, by hand")
    func ipv4Request() throws {
        let lookup = SocketDiagMessage.Lookup(proto: .tcp, local: Self.endpoint("198.18.0.2", 40_000), remote: Self.endpoint("198.18.0.1", 443))
        let bytes = try #require(SocketDiagMessage.request(lookup, sequence: 7))
        let expected: [UInt8] = [72, 0, 0, 0, 20, 0, 1, 0, 7, 0, 0, 0, 0, 0, 0, 0]    // len, SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, seq, pid
            + [2, 6, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]                                  // AF_INET, TCP, no ext, pad, every state
            + [0x9C, 0x40, 0x01, 0xBB]                                              // sport 40000, dport 443
            + [198, 18, 0, 2] + [UInt8](repeating: 0, count: 12)                     // src
            + [198, 18, 0, 1] + [UInt8](repeating: 0, count: 12)                     // dst
            + [0, 0, 0, 0] + [UInt8](repeating: 0xFF, count: 8)                      // any interface, INET_DIAG_NOCOOKIE
        #expect(bytes == expected)
    }

    @Test("an IPv6 UDP lookup carries both 16-byte addresses, the peer's as the source (udp_diag.c's swap)")
    func ipv6Request() throws {
        let lookup = SocketDiagMessage.Lookup(proto: .udp, local: Self.endpoint("fd00::2", 5353), remote: Self.endpoint("fd00::1", 53))
        let bytes = try #require(SocketDiagMessage.request(lookup, sequence: 1))
        #expect(bytes.count == 72)
        #expect(Array(bytes[16..<20]) == [10, 17, 0, 0], "AF_INET6, UDP")
        #expect(Array(bytes[24..<28]) == [0x00, 0x35, 0x14, 0xE9], "sport 53 (the peer's), dport 5353")
        #expect(Array(bytes[28..<44]) == [0xFD, 0] + [UInt8](repeating: 0, count: 13) + [1])
        #expect(Array(bytes[44..<60]) == [0xFD, 0] + [UInt8](repeating: 0, count: 13) + [2])
    }

    @Test("no request for a protocol sock_diag does not look up, or for mixed families")
    func noRequest() {
        #expect(SocketDiagMessage.request(.init(proto: .icmp, local: Self.endpoint("198.18.0.2", 0), remote: Self.endpoint("198.18.0.1", 0)),
                                          sequence: 1) == nil)
        #expect(SocketDiagMessage.request(.init(proto: .tcp, local: Self.endpoint("198.18.0.2", 1), remote: Self.endpoint("fd00::1", 2)),
                                          sequence: 1) == nil)
    }

    /// An answer as the kernel writes it: the header, then inet_diag_msg with `uid` and `inode`.
    static func answer(sequence: UInt32, uid: UInt32, inode: UInt32, length: Int = 88) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(length), 0, 0, 0, 20, 0, 2, 0] + withUnsafeBytes(of: sequence.littleEndian, Array.init) + [0, 0, 0, 0]
        bytes += [2, 1, 0, 0] + [UInt8](repeating: 0xAB, count: 48) + [UInt8](repeating: 0, count: 12)   // family, ESTABLISHED, …
        bytes += withUnsafeBytes(of: uid.littleEndian, Array.init) + withUnsafeBytes(of: inode.littleEndian, Array.init)
        return bytes
    }

    @Test("the answer's uid and inode, at offsets 64 and 68 of inet_diag_msg")
    func readsTheOwner() throws {
        let owner = try SocketDiagMessage.owner(in: Self.answer(sequence: 9, uid: 1000, inode: 0x0123_4567), sequence: 9)
        #expect(owner == SocketDiagMessage.Owner(uid: 1000, inode: 0x0123_4567))
        #expect(try SocketDiagMessage.owner(in: Self.answer(sequence: 8, uid: 0, inode: 1), sequence: 9) == nil, "another request's answer is skipped")
    }

    @Test("an error answer is the kernel's errno; a cut or foreign answer is malformed")
    func failures() {
        let enoent: [UInt8] = [36, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0] + [0xFE, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 16)
        #expect(throws: SocketDiagMessage.Failure.kernel(errno: ENOENT)) { try SocketDiagMessage.owner(in: enoent, sequence: 3) }
        #expect(throws: SocketDiagMessage.Failure.self) { try SocketDiagMessage.owner(in: Array(Self.answer(sequence: 1, uid: 0, inode: 1)[0..<40]), sequence: 1) }
        #expect(throws: SocketDiagMessage.Failure.self) { try SocketDiagMessage.owner(in: Self.answer(sequence: 1, uid: 0, inode: 1, length: 40), sequence: 1) }
        var foreign = Self.answer(sequence: 1, uid: 0, inode: 1)
        foreign[4] = 16
        #expect(throws: SocketDiagMessage.Failure.malformed("message type 16, not SOCK_DIAG_BY_FAMILY")) {
            try SocketDiagMessage.owner(in: foreign, sequence: 1)
        }
        #expect(throws: SocketDiagMessage.Failure.self) { try SocketDiagMessage.owner(in: [1, 2, 3], sequence: 1) }
    }

    @Test("a /proc fd link names a socket's inode, and nothing else does", arguments: [
        ("socket:[12345]", UInt32?(12345)), ("socket:[0]", 0), ("socket:[]", nil), ("socket:[12a]", nil), ("pipe:[12345]", nil),
        ("/dev/null", nil), ("socket:[99999999999]", nil), ("anon_inode:[eventfd]", nil),
    ])
    func socketLinks(link: String, inode: UInt32?) {
        #expect(ProcessSocketIndex.socketInode(fromLink: link) == inode)
    }
}
