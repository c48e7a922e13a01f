import Shared

/// The rtnetlink exchange that reads one interface's statistics (rtnetlink(7), linux/rtnetlink.h
/// and linux/if_link.h): an RTM_GETLINK request naming the interface, and its answer — an
/// RTM_NEWLINK whose IFLA_STATS64 attribute holds `struct rtnl_link_stats64`, or an NLMSG_ERROR.
/// Pure, so the bytes are tested without a socket. Netlink speaks the host's byte order.
///
///     request  = nlmsghdr(len u32, type u16 = RTM_GETLINK, flags u16 = NLM_F_REQUEST, seq u32, pid u32)
///                ifinfomsg(family u8, pad u8, type u16, index s32 = 0, flags u32, change u32)
///                rtattr(len u16, type u16 = IFLA_IFNAME) name NUL, padded to 4
///     answer   = nlmsghdr(type = RTM_NEWLINK) ifinfomsg rtattr*      ; attributes 4-aligned
///              | nlmsghdr(type = NLMSG_ERROR) error s32 (−errno) nlmsghdr(the request's)
///     stats64  = u64 rx_packets, tx_packets, rx_bytes, tx_bytes, rx_errors, tx_errors,
///                rx_dropped, tx_dropped, …   (IFLA_STATS: the same fields as u32, older kernels)
package enum LinkStatisticsMessage {
    static let headerLength = NetlinkWire.headerLength
    static let interfaceInfoLength = 16
    static let attributeHeaderLength = 4
    static let getLink: UInt16 = 18          // RTM_GETLINK
    static let newLink: UInt16 = 16          // RTM_NEWLINK
    static let interfaceName: UInt16 = 3     // IFLA_IFNAME
    static let stats: UInt16 = 7             // IFLA_STATS
    static let stats64: UInt16 = 23          // IFLA_STATS64
    /// NLA_F_NESTED | NLA_F_NET_BYTEORDER: flags in an attribute's type, not part of it.
    static let attributeTypeMask: UInt16 = 0x3FFF
    /// The fields read, by their index in the stats structure.
    static let txPacketsField = 1
    static let txDroppedField = 7
    /// Interface names are at most 15 bytes (IFNAMSIZ less the NUL).
    static let maximumNameLength = 15

    /// Why an answer gave no counters.
    package enum Failure: NetlinkAnswerFailure, Equatable, CustomStringConvertible {
        /// The kernel answered with this errno (ENODEV: no interface of that name there).
        case kernel(errno: Int32)
        /// The answer is not the one asked for, or is cut short (the reason says where).
        case malformed(String)
        /// The interface was answered for without statistics.
        case noStatistics

        package var description: String {
            switch self {
            case .kernel(let code): "the kernel answered \(SystemError.text(code))"
            case .malformed(let reason): "the kernel's answer could not be read: \(reason)"
            case .noStatistics: "the kernel gave no statistics for the device"
            }
        }
    }

    /// The RTM_GETLINK request for the interface called `name` in the socket's namespace.
    package static func request(name: String, sequence: UInt32) -> [UInt8] {
        let nameBytes = Array(name.utf8.prefix(maximumNameLength)) + [0]
        let attributeLength = attributeHeaderLength + nameBytes.count
        let length = headerLength + interfaceInfoLength + aligned(attributeLength)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        NetlinkWire.appendHeader(length: length, type: getLink, flags: NetlinkWire.requestFlag, sequence: sequence, to: &bytes)
        bytes += [UInt8](repeating: 0, count: interfaceInfoLength)      // any family, index 0: by name
        append(UInt16(attributeLength), to: &bytes)
        append(interfaceName, to: &bytes)
        bytes += nameBytes
        bytes += [UInt8](repeating: 0, count: length - bytes.count)
        return bytes
    }

    /// The counters in the answer to request `sequence`; nil for a message that answers another
    /// request (a late answer to one given up on), which the caller skips.
    package static func counters(in answer: [UInt8], sequence: UInt32) throws(Failure) -> DeviceKernelCounters? {
        guard let header = try NetlinkWire.answerHeader(of: answer, sequence: sequence, failing: Failure.self) else { return nil }
        switch header.type {
        case newLink:
            return try statistics(in: answer, from: headerLength + interfaceInfoLength, to: header.length)
        case let other:
            throw .malformed("message type \(other), not RTM_NEWLINK")
        }
    }

    /// Walks the attributes in `answer[start..<end]` for the statistics.
    private static func statistics(in answer: [UInt8], from start: Int, to end: Int) throws(Failure) -> DeviceKernelCounters {
        guard start <= end else { throw .malformed("the interface's header is cut short") }
        var offset = start
        var fallback: DeviceKernelCounters?
        while offset + attributeHeaderLength <= end {
            let length = Int(load(UInt16.self, answer, offset))
            let type = load(UInt16.self, answer, offset + 2) & attributeTypeMask
            guard length >= attributeHeaderLength, offset + length <= end else {
                throw .malformed("an attribute of length \(length) at offset \(offset) runs past the message")
            }
            let value = offset + attributeHeaderLength
            let valueLength = length - attributeHeaderLength
            if type == stats64, valueLength >= (txDroppedField + 1) * 8 {
                return DeviceKernelCounters(queueDrops: load(UInt64.self, answer, value + txDroppedField * 8),
                                            datagramsRead: load(UInt64.self, answer, value + txPacketsField * 8))
            }
            if type == stats, valueLength >= (txDroppedField + 1) * 4 {
                fallback = DeviceKernelCounters(queueDrops: UInt64(load(UInt32.self, answer, value + txDroppedField * 4)),
                                                datagramsRead: UInt64(load(UInt32.self, answer, value + txPacketsField * 4)))
            }
            offset += aligned(length)
        }
        guard let fallback else { throw .noStatistics }
        return fallback
    }

    static func aligned(_ length: Int) -> Int { NetlinkWire.aligned(length) }

    private static func load<Value: FixedWidthInteger>(_ type: Value.Type, _ bytes: [UInt8], _ offset: Int) -> Value {
        NetlinkWire.load(type, bytes, offset)
    }

    private static func append<Value: FixedWidthInteger>(_ value: Value, to bytes: inout [UInt8]) {
        NetlinkWire.append(value, to: &bytes)
    }
}
