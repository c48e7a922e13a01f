#if canImport(Glibc)
import Glibc
#endif
import Shared

/// The sock_diag exchange that finds the socket behind one connection (sock_diag(7),
/// linux/inet_diag.h): a SOCK_DIAG_BY_FAMILY request for the exact 5-tuple — an `inet_diag_req_v2`
/// without NLM_F_DUMP, so the kernel looks the one socket up instead of listing them all — and its
/// answer, an `inet_diag_msg` with the socket's owner and inode, or NLMSG_ERROR (ENOENT: none).
/// Pure, so the bytes are tested without a socket. Ports and addresses are in network order; the
/// rest in the host's.
///
///     sockid   = sport be16, dport be16, src be32[4], dst be32[4], if u32, cookie u32[2]    ; 48 bytes
///                (src the socket's own side for TCP, its peer's for UDP)
///     request  = nlmsghdr(type = SOCK_DIAG_BY_FAMILY = 20, flags = NLM_F_REQUEST)
///                family u8, protocol u8, ext u8, pad u8, states u32, sockid                ; 56 bytes
///     answer   = nlmsghdr(type = SOCK_DIAG_BY_FAMILY)
///                family u8, state u8, timer u8, retrans u8, sockid,
///                expires u32, rqueue u32, wqueue u32, uid u32, inode u32                   ; 72 bytes
package enum SocketDiagMessage {
    static let byFamily: UInt16 = 20             // SOCK_DIAG_BY_FAMILY
    static let requestBodyLength = 56
    static let answerBodyLength = 72
    static let uidOffset = 64
    static let inodeOffset = 68
    /// INET_DIAG_NOCOOKIE: the lookup is by the 5-tuple, not by a cookie from an earlier answer.
    static let noCookie: UInt32 = 0xFFFF_FFFF
    /// Every TCP state (the lookup is exact; the states only matter to a dump).
    static let everyState: UInt32 = 0xFFFF_FFFF
    /// NETLINK_SOCK_DIAG (linux/netlink.h), which Glibc does not export.
    static let netlinkProtocol: Int32 = 4

    /// A local socket's side of a connection: its own address and port, and its peer's.
    package struct Lookup: Sendable, Equatable {
        package let proto: IPProtocolNumber
        package let local: IPEndpoint
        package let remote: IPEndpoint

        package init(proto: IPProtocolNumber, local: IPEndpoint, remote: IPEndpoint) {
            self.proto = proto
            self.local = local
            self.remote = remote
        }
    }

    /// Whose socket it is, as the kernel keeps it.
    package struct Owner: Sendable, Equatable {
        package let uid: UInt32
        /// The socket's inode: what /proc/PID/fd links name as `socket:[INODE]`. 0 when no file
        /// holds the socket any more (a TCP connection in TIME_WAIT after its owner closed it).
        package let inode: UInt32
    }

    /// Why an answer named no owner.
    package enum Failure: NetlinkAnswerFailure, Equatable, CustomStringConvertible {
        /// The kernel answered with this errno (ENOENT: no such socket in the namespace).
        case kernel(errno: Int32)
        case malformed(String)
        /// The netlink socket could not be made or used.
        case socket(errno: Int32)

        package var description: String {
            switch self {
            case .socket(let code): "the kernel's socket table could not be asked: \(SystemError.text(code))"
            case .kernel(let code): "the kernel answered \(SystemError.text(code))"
            case .malformed(let reason): "the kernel's answer could not be read: \(reason)"
            }
        }
    }

    /// The request for the socket at `lookup`, or nil for a protocol the kernel does not diagnose
    /// this way (only TCP and UDP).
    package static func request(_ lookup: Lookup, sequence: UInt32) -> [UInt8]? {
        guard lookup.proto == .tcp || lookup.proto == .udp, lookup.local.address.version == lookup.remote.address.version else {
            return nil
        }
        let length = NetlinkWire.headerLength + requestBodyLength
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        NetlinkWire.appendHeader(length: length, type: byFamily, flags: NetlinkWire.requestFlag, sequence: sequence, to: &bytes)
        bytes.append(lookup.local.address.version == .v4 ? UInt8(AF_INET) : UInt8(AF_INET6))
        bytes.append(lookup.proto.rawValue)
        bytes += [0, 0]                                              // no extensions, pad
        NetlinkWire.append(everyState, to: &bytes)
        // TCP's exact lookup takes the socket's own side as the source; UDP's the peer's, "swapped
        // for historical reasons" (net/ipv4/udp_diag.c): it finds the socket a datagram from
        // source to destination would reach.
        let (source, destination) = lookup.proto == .udp ? (lookup.remote, lookup.local) : (lookup.local, lookup.remote)
        bytes += bigEndian(source.port) + bigEndian(destination.port)
        bytes += sixteen(source.address) + sixteen(destination.address)
        NetlinkWire.append(UInt32(0), to: &bytes)                    // any interface
        NetlinkWire.append(noCookie, to: &bytes)
        NetlinkWire.append(noCookie, to: &bytes)
        return bytes
    }

    /// The owner in the answer to request `sequence`; nil for a message that answers another
    /// request (a late answer to one given up on), which the caller skips.
    package static func owner(in answer: [UInt8], sequence: UInt32) throws(Failure) -> Owner? {
        guard let header = try NetlinkWire.answerHeader(of: answer, sequence: sequence, failing: Failure.self) else { return nil }
        switch header.type {
        case byFamily:
            guard header.length >= NetlinkWire.headerLength + answerBodyLength else {
                throw .malformed("a socket's answer of \(header.length) bytes, shorter than \(NetlinkWire.headerLength + answerBodyLength)")
            }
            return Owner(uid: NetlinkWire.load(UInt32.self, answer, NetlinkWire.headerLength + uidOffset),
                         inode: NetlinkWire.load(UInt32.self, answer, NetlinkWire.headerLength + inodeOffset))
        case let other:
            throw .malformed("message type \(other), not SOCK_DIAG_BY_FAMILY")
        }
    }

    private static func bigEndian(_ port: UInt16) -> [UInt8] { [UInt8(port >> 8), UInt8(port & 0xFF)] }

    /// An address as the sockid holds it: IPv4 in the first 4 of 16 bytes, the rest zero.
    private static func sixteen(_ address: IPAddress) -> [UInt8] {
        let bytes = address.bytes
        return bytes + [UInt8](repeating: 0, count: 16 - bytes.count)
    }
}
