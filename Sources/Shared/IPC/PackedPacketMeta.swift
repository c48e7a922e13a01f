/// The fixed-width, little-endian image of one `PacketMeta` in a ring slot (ipc spec): 64 bytes,
/// so the consumer finds slot `i` by arithmetic and never parses a length.
///
/// ```
/// @0  timestamp           u64  monotonic ns
/// @8  protoAndDirection   u8   protocol code (high nibble) | direction (low nibble)
/// @9  ipVersion           u8   4 or 6
/// @10 tcpFlags            u8
/// @11 localEnd            u8   0 not said, 1 endpoint A is the machine's, 2 endpoint B (was reserved, 0)
/// @12 portA, @14 portB    u16  the canonical endpoints
/// @16 addrA, @32 addrB    16 B network order; IPv4 fills the first 4, the rest 0
/// @48 length              u32  bytes of the IP datagram
/// @52 recordOffset        u64  where its capture record starts; 0 = not captured
/// @60 fileSequence        u32  the capture file; ignored when recordOffset is 0
/// ```
///
/// This is the wire view: it holds what a slot says, even nonsense, and `PacketMeta(packed:)` is
/// where it is validated. The spec's `addrA: [UInt8]` is held inline as `PackedAddress` here,
/// because an array per address would allocate twice per record on a path that moves tens of
/// millions of records a second.
package struct PackedPacketMeta: Sendable, Hashable {
    package static let packedByteCount = 64

    package var timestamp: UInt64
    package var protoAndDirection: UInt8
    package var ipVersion: UInt8
    package var tcpFlags: UInt8
    package var portA: UInt16
    package var portB: UInt16
    package var addrA: PackedAddress
    package var addrB: PackedAddress
    package var length: UInt32
    /// 0, 1 or 2 (`PacketMeta.localEnd`: not said, endpoint A, endpoint B).
    package var localEnd: UInt8 = 0
    /// On the wire `recordOffset == 0` means "not captured" — no record can start there, because
    /// every capture file begins with its global header — and then the sequence is ignored.
    package var capture: CaptureLocation?

    package init(timestamp: UInt64, protoAndDirection: UInt8, ipVersion: UInt8, tcpFlags: UInt8,
                portA: UInt16, portB: UInt16, addrA: PackedAddress, addrB: PackedAddress,
                length: UInt32, capture: CaptureLocation?) {
        self.timestamp = timestamp
        self.protoAndDirection = protoAndDirection
        self.ipVersion = ipVersion
        self.tcpFlags = tcpFlags
        self.portA = portA
        self.portB = portB
        self.addrA = addrA
        self.addrB = addrB
        self.length = length
        self.capture = capture
    }

    package init(_ meta: PacketMeta) {
        let key = meta.flowKey
        self.init(timestamp: meta.timestamp,
                  protoAndDirection: PacketProtocolCode(key.proto).rawValue << 4 | meta.direction.rawValue,
                  ipVersion: key.endpointA.address.version.rawValue,
                  tcpFlags: meta.tcpFlags.rawValue,
                  portA: key.endpointA.port, portB: key.endpointB.port,
                  addrA: PackedAddress(key.endpointA.address), addrB: PackedAddress(key.endpointB.address),
                  length: meta.length, capture: meta.capture)
        if let end = meta.localEnd { localEnd = end == key.endpointA ? 1 : end == key.endpointB ? 2 : 0 }
    }

    var protocolCode: UInt8 { protoAndDirection >> 4 }
    var directionCode: UInt8 { protoAndDirection & 0x0F }

    /// Writes all 64 bytes of the slot at `slot`.
    package func store(to slot: UnsafeMutableRawPointer) {
        slot.storeBytes(of: timestamp.littleEndian, toByteOffset: 0, as: UInt64.self)
        slot.storeBytes(of: protoAndDirection, toByteOffset: 8, as: UInt8.self)
        slot.storeBytes(of: ipVersion, toByteOffset: 9, as: UInt8.self)
        slot.storeBytes(of: tcpFlags, toByteOffset: 10, as: UInt8.self)
        slot.storeBytes(of: localEnd, toByteOffset: 11, as: UInt8.self)
        slot.storeBytes(of: portA.littleEndian, toByteOffset: 12, as: UInt16.self)
        slot.storeBytes(of: portB.littleEndian, toByteOffset: 14, as: UInt16.self)
        addrA.store(to: slot + 16)
        addrB.store(to: slot + 32)
        slot.storeBytes(of: length.littleEndian, toByteOffset: 48, as: UInt32.self)
        slot.storeBytes(of: (capture?.recordOffset ?? 0).littleEndian, toByteOffset: 52, as: UInt64.self)
        slot.storeBytes(of: (capture?.fileSequence ?? 0).littleEndian, toByteOffset: 60, as: UInt32.self)
    }

    /// Reads a slot. Any 64 bytes read as some value; validation is `PacketMeta(packed:)`'s.
    package static func load(from slot: UnsafeRawPointer) -> PackedPacketMeta {
        let recordOffset = UInt64(littleEndian: slot.loadUnaligned(fromByteOffset: 52, as: UInt64.self))
        let fileSequence = UInt32(littleEndian: slot.loadUnaligned(fromByteOffset: 60, as: UInt32.self))
        var packed = PackedPacketMeta(
            timestamp: UInt64(littleEndian: slot.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
            protoAndDirection: slot.load(fromByteOffset: 8, as: UInt8.self),
            ipVersion: slot.load(fromByteOffset: 9, as: UInt8.self),
            tcpFlags: slot.load(fromByteOffset: 10, as: UInt8.self),
            portA: UInt16(littleEndian: slot.loadUnaligned(fromByteOffset: 12, as: UInt16.self)),
            portB: UInt16(littleEndian: slot.loadUnaligned(fromByteOffset: 14, as: UInt16.self)),
            addrA: PackedAddress.load(from: slot + 16),
            addrB: PackedAddress.load(from: slot + 32),
            length: UInt32(littleEndian: slot.loadUnaligned(fromByteOffset: 48, as: UInt32.self)),
            capture: recordOffset == 0 ? nil : CaptureLocation(fileSequence: fileSequence, recordOffset: recordOffset))
        packed.localEnd = slot.load(fromByteOffset: 11, as: UInt8.self)
        return packed
    }
}

/// Sixteen address bytes in network order, held as two integers (the first eight bytes are
/// `high`), exactly as they sit in a slot.
package struct PackedAddress: Sendable, Hashable {
    package var high: UInt64
    package var low: UInt64

    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    package init(_ address: IPAddress) {
        self.init(high: address.high, low: address.low)
    }

    /// The address these bytes hold for `version` (IPv4 reads the first four).
    package func address(_ version: IPVersion) -> IPAddress {
        version == .v4 ? IPAddress(ipv4: UInt32(truncatingIfNeeded: high >> 32)) : IPAddress(ipv6High: high, low: low)
    }

    func store(to pointer: UnsafeMutableRawPointer) {
        pointer.storeBytes(of: high.bigEndian, as: UInt64.self)
        (pointer + 8).storeBytes(of: low.bigEndian, as: UInt64.self)
    }

    static func load(from pointer: UnsafeRawPointer) -> PackedAddress {
        PackedAddress(high: UInt64(bigEndian: pointer.loadUnaligned(as: UInt64.self)),
                      low: UInt64(bigEndian: (pointer + 8).loadUnaligned(as: UInt64.self)))
    }
}

/// The 4-bit protocol code of a slot (ipc spec): the wire number (17, 58…) does not fit a nibble,
/// and `PacketMeta` already carries the collapsed protocol, so nothing is lost.
enum PacketProtocolCode: UInt8, Sendable, CaseIterable {
    case tcp = 0, udp = 1, icmp = 2, icmpv6 = 3, other = 4

    init(_ proto: IPProtocolNumber) {
        switch proto {
        case .tcp: self = .tcp
        case .udp: self = .udp
        case .icmp: self = .icmp
        case .icmpv6: self = .icmpv6
        default: self = .other
        }
    }

    var protocolNumber: IPProtocolNumber {
        switch self {
        case .tcp: .tcp
        case .udp: .udp
        case .icmp: .icmp
        case .icmpv6: .icmpv6
        case .other: .other
        }
    }
}

/// Why a slot's bytes are not a packet's metadata. Only a foreign writer or memory damage gets
/// here (our producer writes only valid records); the reader counts the record and skips it.
package enum PackedPacketMetaError: Error, Sendable, Hashable {
    case unknownProtocolCode(UInt8)
    case unknownDirection(UInt8)
    case unknownIPVersion(UInt8)
    case unknownLocalEnd(UInt8)
}

extension PacketMeta {
    /// The packet a slot describes, or why the slot describes none.
    package init(packed: PackedPacketMeta) throws(PackedPacketMetaError) {
        guard let code = PacketProtocolCode(rawValue: packed.protocolCode) else {
            throw .unknownProtocolCode(packed.protocolCode)
        }
        guard let direction = Direction(rawValue: packed.directionCode) else {
            throw .unknownDirection(packed.directionCode)
        }
        guard let version = IPVersion(rawValue: packed.ipVersion) else { throw .unknownIPVersion(packed.ipVersion) }
        let a = IPEndpoint(address: packed.addrA.address(version), port: packed.portA)
        let b = IPEndpoint(address: packed.addrB.address(version), port: packed.portB)
        let localEnd: IPEndpoint?
        switch packed.localEnd {
        case 0: localEnd = nil
        case 1: localEnd = a
        case 2: localEnd = b
        case let other: throw .unknownLocalEnd(other)
        }
        self.init(timestamp: packed.timestamp,
                  flowKey: FlowKey(proto: code.protocolNumber, source: a, destination: b),
                  direction: direction, length: packed.length,
                  tcpFlags: TCPFlags(rawValue: packed.tcpFlags), capture: packed.capture, localEnd: localEnd)
    }
}
