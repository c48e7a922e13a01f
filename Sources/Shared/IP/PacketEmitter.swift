import Foundation

/// Builds whole IP datagrams for reinjection toward the device: the mirror of `PacketParser`.
///
/// Fixed choices: IPv4 without options, DF set, identification 0 (RFC 6864 §4.1 allows it for
/// atomic datagrams), TTL/hop limit 64; IPv6 with no extension headers, traffic class and flow
/// label 0; TCP with only the options asked for (none by default: the relay sends MSS and window
/// scale on its SYN-ACK alone); ICMP only as the "port unreachable" a closed UDP port is answered
/// with. Checksums cover the pseudo-header (RFC 9293 §3.1, RFC 768, RFC 8200 §8.1), except ICMP's
/// over IPv4, which covers its message alone (RFC 792); a UDP checksum that computes to 0 is sent
/// as 0xFFFF, because 0 means "none" (RFC 768) and is forbidden over IPv6 (RFC 8200 §8.1).
package enum PacketEmitter {
    package static let hopLimit: UInt8 = 64
    /// Largest datagram each family's length fields express: IPv4 total length is 16 bits; IPv6
    /// counts its 16-bit payload length after the 40-byte header.
    /// The IP header the emitter writes: no options, so 20 bytes for IPv4 and 40 for IPv6.
    package static func ipHeaderLength(_ version: IPVersion) -> Int { version == .v4 ? 20 : 40 }

    package static func datagramLimit(_ version: IPVersion) -> Int { version == .v4 ? 65_535 : 40 + 65_535 }

    package static func tcp(
        source: IPEndpoint, destination: IPEndpoint,
        sequence: UInt32, acknowledgment: UInt32,
        flags: TCPFlags, windowSize: UInt16, options: TCPOptions = TCPOptions(), payload: Data = Data()
    ) throws(PacketEmitError) -> Data {
        datagram(byteCount: try tcpByteCount(source: source, destination: destination, options: options,
                                            payloadCount: payload.count)) { buffer in
            tcp(into: buffer, source: source, destination: destination, sequence: sequence,
                acknowledgment: acknowledgment, flags: flags, windowSize: windowSize, options: options, payload: payload)
        }
    }

    package static func udp(source: IPEndpoint, destination: IPEndpoint, payload: Data) throws(PacketEmitError) -> Data {
        datagram(byteCount: try udpByteCount(source: source, destination: destination, payloadCount: payload.count)) {
            udp(into: $0, source: source, destination: destination, payload: payload)
        }
    }

    /// How much of the offending datagram an ICMP error quotes at most: the whole error stays
    /// within 576 bytes over IPv4 (RFC 1812 §4.3.2.3) and within the minimum MTU, 1 280 bytes,
    /// over IPv6 (RFC 4443 §2.4 (c)).
    package static func icmpErrorQuoteLimit(_ version: IPVersion) -> Int { version == .v4 ? 576 - 28 : 1_280 - 48 }

    /// "Port unreachable" from `server` to `device`, quoting the start of `invoking`, one the device
    /// sent there: ICMP type 3 code 3 (RFC 792) or ICMPv6 type 1 code 4 (RFC 4443 §3.1), the
    /// answer a host without a socket on that port gives. The device's stack hands it to the
    /// sender's socket as ECONNREFUSED.
    package static func portUnreachable(from server: IPAddress, to device: IPAddress,
                                        quoting invoking: Data) throws(PacketEmitError) -> Data {
        let quote = invoking.prefix(icmpErrorQuoteLimit(server.version))
        let source = IPEndpoint(address: server, port: 0), destination = IPEndpoint(address: device, port: 0)
        let v4 = server.version == .v4
        return datagram(byteCount: try byteCount(source: source, destination: destination, transportLength: 8 + quote.count)) { buffer in
            emit(into: buffer, source: source, destination: destination, proto: v4 ? .icmp : .icmpv6,
                 transportHeaderLength: 8, payload: Data(quote)) { header in
                header[0] = v4 ? 3 : 1          // destination unreachable
                header[1] = v4 ? 3 : 4          // port unreachable
                header.storeBytes(of: UInt16(0), toByteOffset: 2, as: UInt16.self)
                header.storeBytes(of: UInt32(0), toByteOffset: 4, as: UInt32.self)   // unused
                return 2
            }
        }
    }

    /// The size of the TCP datagram `tcp(into:…)` writes; throws when the families differ or the
    /// datagram would not fit its length fields.
    package static func tcpByteCount(source: IPEndpoint, destination: IPEndpoint, options: TCPOptions,
                                    payloadCount: Int) throws(PacketEmitError) -> Int {
        try byteCount(source: source, destination: destination, transportLength: 20 + options.encodedLength + payloadCount)
    }

    package static func udpByteCount(source: IPEndpoint, destination: IPEndpoint, payloadCount: Int) throws(PacketEmitError) -> Int {
        try byteCount(source: source, destination: destination, transportLength: 8 + payloadCount)
    }

    /// What goes in the transport checksum field.
    package enum TransportChecksum: Sendable {
        /// The whole checksum, as a datagram on the wire carries it.
        case complete
        /// The pseudo-header's sum only, uncomplemented, for a device that sums the rest
        /// (checksum offload: a TUN's vnet header with NEEDS_CSUM, Linux's CHECKSUM_PARTIAL).
        case partial
    }

    /// Writes the TCP datagram into the first `tcpByteCount(…)` bytes of `buffer` (checked by
    /// the caller), so a shell can reuse one buffer instead of allocating per segment.
    package static func tcp(
        into buffer: UnsafeMutableRawBufferPointer, source: IPEndpoint, destination: IPEndpoint,
        sequence: UInt32, acknowledgment: UInt32,
        flags: TCPFlags, windowSize: UInt16, options: TCPOptions = TCPOptions(), payload: Data,
        checksum: TransportChecksum = .complete
    ) {
        let optionBytes = options.encoded
        let headerLength = 20 + optionBytes.count
        emit(into: buffer, source: source, destination: destination, proto: .tcp, transportHeaderLength: headerLength,
             payload: payload, checksum: checksum) { header in
            header.storeBytes(of: source.port.bigEndian, toByteOffset: 0, as: UInt16.self)
            header.storeBytes(of: destination.port.bigEndian, toByteOffset: 2, as: UInt16.self)
            header.storeBytes(of: sequence.bigEndian, toByteOffset: 4, as: UInt32.self)
            header.storeBytes(of: acknowledgment.bigEndian, toByteOffset: 8, as: UInt32.self)
            header[12] = UInt8(headerLength / 4) << 4             // data offset in 32-bit words
            header[13] = flags.intersection(.emittable).rawValue
            header.storeBytes(of: windowSize.bigEndian, toByteOffset: 14, as: UInt16.self)
            header.storeBytes(of: UInt32(0), toByteOffset: 16, as: UInt32.self)   // checksum, urgent pointer
            for (offset, byte) in optionBytes.enumerated() { header[20 + offset] = byte }
            return 16
        }
    }

    /// Writes the UDP datagram into the first `udpByteCount(…)` bytes of `buffer`.
    package static func udp(into buffer: UnsafeMutableRawBufferPointer, source: IPEndpoint, destination: IPEndpoint,
                           payload: Data) {
        emit(into: buffer, source: source, destination: destination, proto: .udp, transportHeaderLength: 8,
             payload: payload) { header in
            header.storeBytes(of: source.port.bigEndian, toByteOffset: 0, as: UInt16.self)
            header.storeBytes(of: destination.port.bigEndian, toByteOffset: 2, as: UInt16.self)
            header.storeBytes(of: UInt16(8 + payload.count).bigEndian, toByteOffset: 4, as: UInt16.self)
            header.storeBytes(of: UInt16(0), toByteOffset: 6, as: UInt16.self)
            return 6
        }
    }

    private static func byteCount(source: IPEndpoint, destination: IPEndpoint,
                                  transportLength: Int) throws(PacketEmitError) -> Int {
        let version = source.address.version
        guard version == destination.address.version else {
            throw .addressFamilyMismatch(source: version, destination: destination.address.version)
        }
        let byteCount = ipHeaderLength(version) + transportLength
        // UDP's own 16-bit length field counts the same bytes as IPv6's payload length, and less
        // than IPv4's total length, so the family's limit binds both transports.
        let limit = datagramLimit(version)
        guard byteCount <= limit else { throw .datagramTooLarge(byteCount: byteCount, limit: limit) }
        return byteCount
    }

    private static func datagram(byteCount: Int, _ write: (UnsafeMutableRawBufferPointer) -> Void) -> Data {
        var datagram = Data(count: byteCount)
        datagram.withUnsafeMutableBytes { write($0) }
        return datagram
    }

    /// Lays out IP header ‖ transport header ‖ payload in `buffer` (sized by `byteCount`), lets
    /// `writeTransport` fill the transport header (returning its checksum field's offset), then
    /// computes the checksums. Every byte of the datagram is written: the buffer may be reused.
    private static func emit(
        into buffer: UnsafeMutableRawBufferPointer, source: IPEndpoint, destination: IPEndpoint,
        proto: IPProtocolNumber, transportHeaderLength: Int,
        payload: Data, checksum transportChecksum: TransportChecksum = .complete,
        writeTransport: (UnsafeMutableRawBufferPointer) -> Int
    ) {
        let version = source.address.version
        let ipHeaderLength = Self.ipHeaderLength(version)
        let transportLength = transportHeaderLength + payload.count
        let byteCount = ipHeaderLength + transportLength
        precondition(buffer.count >= byteCount, "the buffer cannot hold the datagram")
        let ip = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<ipHeaderLength])
        if version == .v4 {
            ip.storeBytes(of: UInt64(0), toByteOffset: 0, as: UInt64.self)
            ip.storeBytes(of: UInt32(0), toByteOffset: 8, as: UInt32.self)
            ip[0] = 0x45
            ip.storeBytes(of: UInt16(byteCount).bigEndian, toByteOffset: 2, as: UInt16.self)
            ip.storeBytes(of: UInt16(0x4000).bigEndian, toByteOffset: 6, as: UInt16.self)   // DF
            ip[8] = hopLimit
            ip[9] = proto.rawValue
            source.address.store(to: ip.baseAddress! + 12)
            destination.address.store(to: ip.baseAddress! + 16)
            let headerChecksum = InternetChecksum.checksum(UnsafeRawBufferPointer(ip))
            ip.storeBytes(of: headerChecksum.bigEndian, toByteOffset: 10, as: UInt16.self)
        } else {
            ip.storeBytes(of: UInt64(0), toByteOffset: 0, as: UInt64.self)
            ip[0] = 0x60
            ip.storeBytes(of: UInt16(transportLength).bigEndian, toByteOffset: 4, as: UInt16.self)
            ip[6] = proto.rawValue
            ip[7] = hopLimit
            source.address.store(to: ip.baseAddress! + 8)
            destination.address.store(to: ip.baseAddress! + 24)
        }
        let transport = UnsafeMutableRawBufferPointer(rebasing: buffer[ipHeaderLength..<byteCount])
        let checksumOffset = writeTransport(transport)
        payload.withUnsafeBytes { bytes in
            if let from = bytes.baseAddress, bytes.count > 0 {
                (transport.baseAddress! + transportHeaderLength).copyMemory(from: from, byteCount: bytes.count)
            }
        }
        // ICMP for IPv4 sums its own message alone (RFC 792); ICMPv6, TCP and UDP add the pseudo-header.
        var checksum = proto == .icmp ? InternetChecksum()
            : pseudoHeaderChecksum(source: source.address, destination: destination.address, proto: proto,
                                   transportLength: transportLength)
        var value: UInt16
        switch transportChecksum {
        case .complete:
            checksum.add(UnsafeRawBufferPointer(transport))
            value = checksum.value
            if proto == .udp && value == 0 { value = 0xFFFF }
        case .partial:
            value = checksum.onesComplementSum
        }
        transport.storeBytes(of: value.bigEndian, toByteOffset: checksumOffset, as: UInt16.self)
    }

    /// The pseudo-header's contribution (RFC 9293 §3.1 for IPv4, RFC 8200 §8.1 for IPv6).
    package static func pseudoHeaderChecksum(source: IPAddress, destination: IPAddress, proto: IPProtocolNumber,
                                     transportLength: Int) -> InternetChecksum {
        var checksum = InternetChecksum()
        var addresses = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &addresses) { scratch in
            let width = source.version.addressByteCount
            source.store(to: scratch.baseAddress!)
            destination.store(to: scratch.baseAddress! + width)
            checksum.add(UnsafeRawBufferPointer(rebasing: scratch[0..<(2 * width)]))
        }
        checksum.add(word: UInt16(truncatingIfNeeded: transportLength >> 16))
        checksum.add(word: UInt16(truncatingIfNeeded: transportLength))
        checksum.add(word: UInt16(proto.rawValue))
        return checksum
    }
}
