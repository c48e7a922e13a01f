import Foundation
import Shared

/// A deterministic stream of well-formed, checksum-correct datagrams of every kind the parser
/// dissects — TCP and UDP over both families, ICMP echo and ICMPv6 echo — between the tunnel's
/// addresses and remotes in 198.18.0.0/15 and fd00::/8. Used for fixtures, the demo capture and
/// the benchmarks; built with `PacketEmitter`, so it is never the oracle for the emitter itself.
package struct SyntheticTraffic: Sendable {
    private var random: SeededRandom
    private var clock: UInt64 = 0
    private var tcpSequence: UInt32

    package init(seed: UInt64) {
        random = SeededRandom(seed: seed)
        tcpSequence = UInt32(truncatingIfNeeded: seed &* 2_654_435_761)
    }

    /// The kinds, in the proportions `next()` draws them.
    package enum Kind: CaseIterable, Sendable {
        case tcp4, tcp6, udp4, udp6, icmp4, icmp6
    }

    package struct Packet: Sendable {
        package let kind: Kind
        package let bytes: Data
        /// Nanoseconds since the stream started (strictly increasing).
        package let offsetNanoseconds: UInt64
    }

    package mutating func next() -> Packet {
        let draw = random.next() % 100
        let kind: Kind = switch draw {
        case 0..<40: .tcp4
        case 40..<60: .tcp6
        case 60..<78: .udp4
        case 78..<92: .udp6
        case 92..<96: .icmp4
        default: .icmp6
        }
        return next(kind)
    }

    package mutating func next(_ kind: Kind) -> Packet {
        clock += 1_000 + random.next() % 50_000
        let outbound = random.next() & 1 == 0
        let bytes: Data
        switch kind {
        case .tcp4, .tcp6:
            let (local, remote) = endpoints(v6: kind == .tcp6, remotePort: [443, 80, 22, 8443][Int(random.next() % 4)])
            let flags: TCPFlags = [[.syn], [.syn, .ack], [.ack], [.psh, .ack], [.fin, .ack], [.rst]][Int(random.next() % 6)]
            let length = flags.contains(.psh) ? Int(random.next() % 1_400) : 0
            tcpSequence &+= UInt32(truncatingIfNeeded: random.next() % 3_000)
            bytes = try! PacketEmitter.tcp(
                source: outbound ? local : remote, destination: outbound ? remote : local,
                sequence: tcpSequence, acknowledgment: UInt32(truncatingIfNeeded: random.next()),
                flags: flags, windowSize: UInt16(truncatingIfNeeded: random.next()), payload: payload(length))
        case .udp4, .udp6:
            let (local, remote) = endpoints(v6: kind == .udp6, remotePort: [53, 443, 123, 5353][Int(random.next() % 4)])
            bytes = try! PacketEmitter.udp(source: outbound ? local : remote, destination: outbound ? remote : local,
                                           payload: payload(Int(random.next() % 600)))
        case .icmp4, .icmp6:
            let (local, remote) = endpoints(v6: kind == .icmp6, remotePort: 0)
            bytes = Self.icmpEcho(source: outbound ? local.address : remote.address,
                                  destination: outbound ? remote.address : local.address,
                                  reply: !outbound, identifier: UInt16(truncatingIfNeeded: random.next()),
                                  sequence: UInt16(truncatingIfNeeded: random.next()),
                                  payload: payload(Int(random.next() % 64)))
        }
        return Packet(kind: kind, bytes: bytes, offsetNanoseconds: clock)
    }

    /// An ICMP (RFC 792) or ICMPv6 (RFC 4443 §4) echo request or reply with a correct checksum.
    package static func icmpEcho(source: IPAddress, destination: IPAddress, reply: Bool,
                                identifier: UInt16, sequence: UInt16, payload: Data) -> Data {
        let v6 = source.version == .v6
        let ipHeaderLength = v6 ? 40 : 20
        let messageLength = 8 + payload.count
        var datagram = Data(count: ipHeaderLength + messageLength)
        datagram.withUnsafeMutableBytes { buffer in
            let base = buffer.baseAddress!
            if v6 {
                buffer[0] = 0x60
                buffer.storeBytes(of: UInt16(messageLength).bigEndian, toByteOffset: 4, as: UInt16.self)
                buffer[6] = IPProtocolNumber.icmpv6.rawValue
                buffer[7] = PacketEmitter.hopLimit
                source.store(to: base + 8)
                destination.store(to: base + 24)
            } else {
                buffer[0] = 0x45
                buffer.storeBytes(of: UInt16(buffer.count).bigEndian, toByteOffset: 2, as: UInt16.self)
                buffer[8] = PacketEmitter.hopLimit
                buffer[9] = IPProtocolNumber.icmp.rawValue
                source.store(to: base + 12)
                destination.store(to: base + 16)
                let checksum = InternetChecksum.checksum(UnsafeRawBufferPointer(rebasing: buffer[0..<20]))
                buffer.storeBytes(of: checksum.bigEndian, toByteOffset: 10, as: UInt16.self)
            }
            let message = UnsafeMutableRawBufferPointer(rebasing: buffer[ipHeaderLength...])
            message[0] = v6 ? (reply ? 129 : 128) : (reply ? 0 : 8)
            message.storeBytes(of: identifier.bigEndian, toByteOffset: 4, as: UInt16.self)
            message.storeBytes(of: sequence.bigEndian, toByteOffset: 6, as: UInt16.self)
            payload.withUnsafeBytes { bytes in
                if bytes.count > 0 { (message.baseAddress! + 8).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count) }
            }
            // ICMPv6 covers a pseudo-header (RFC 4443 §2.3); ICMP covers the message alone.
            var checksum = v6 ? PacketEmitter.pseudoHeaderChecksum(source: source, destination: destination,
                                                                   proto: .icmpv6, transportLength: messageLength)
                : InternetChecksum()
            checksum.add(UnsafeRawBufferPointer(message))
            message.storeBytes(of: checksum.value.bigEndian, toByteOffset: 2, as: UInt16.self)
        }
        return datagram
    }

    private mutating func endpoints(v6: Bool, remotePort: UInt16) -> (local: IPEndpoint, remote: IPEndpoint) {
        let localPort = remotePort == 0 ? 0 : UInt16(32_768 + random.next() % 28_000)
        let host = UInt32(random.next() % 512)
        if v6 {
            return (IPEndpoint(address: TunnelAddressing.ipv6Address, port: localPort),
                    IPEndpoint(address: IPAddress(ipv6High: 0xFD00_0000_0000_0018, low: UInt64(host) + 1), port: remotePort))
        }
        // 198.18.0.0/15, the benchmarking range (RFC 2544).
        return (IPEndpoint(address: TunnelAddressing.ipv4Address, port: localPort),
                IPEndpoint(address: IPAddress(ipv4: 0xC612_0000 | (host + 1)), port: remotePort))
    }

    private mutating func payload(_ length: Int) -> Data {
        var bytes = [UInt8](repeating: 0, count: length)
        for index in 0..<length { bytes[index] = UInt8(truncatingIfNeeded: random.next()) }
        return Data(bytes)
    }
}
