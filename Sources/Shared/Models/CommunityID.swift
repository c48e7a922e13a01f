import Foundation

/// Zeek's Community ID, version 1 (github.com/corelight/community-id-spec): one string that names
/// a flow the same way in every monitor that computes it — Zeek, Suricata, Wireshark, Arkime —
/// so a flow here is found there by comparing strings. The spec's hash input, every field in
/// network byte order:
///
///     seed (2) . address (4|16) . address (4|16) . protocol (1) . 0 (1) [. port (2) . port (2)]
///
/// with the smaller endpoint first (the smaller address, bytes compared; equal addresses, the
/// smaller port), ports only for TCP, UDP, SCTP, ICMP and ICMPv6 (whose type and code stand in
/// for them, `CommunityID+ICMP.swift`); then SHA-1, and "1:" before its base64.
/// From a history's flow: `init(flow:seed:)`.
package struct CommunityID: Sendable, Hashable {
    /// The SHA-1 of the hash input: 20 bytes.
    package let digest: [UInt8]

    /// A flow of a protocol with ports (TCP, UDP, SCTP): both endpoints, either way round.
    package init(proto: IPProtocolNumber, source: IPEndpoint, destination: IPEndpoint, seed: UInt16 = 0) {
        precondition(Self.portProtocols.contains(proto), "\(proto.displayName) has no ports in a Community ID")
        self.init(seed: seed, proto: proto, source: source.address, destination: destination.address,
                  ports: (source.port, destination.port), oneWay: false)
    }

    /// A flow of any other protocol but ICMP: its addresses and number alone (the spec's "other
    /// IP-borne protocols").
    package init(proto: IPProtocolNumber, source: IPAddress, destination: IPAddress, seed: UInt16 = 0) {
        precondition(!Self.portProtocols.contains(proto) && proto != .icmp && proto != .icmpv6,
                     "\(proto.displayName) hashes its ports in a Community ID")
        self.init(seed: seed, proto: proto, source: source, destination: destination, ports: nil, oneWay: false)
    }

    /// The whole computation. A one-way flow keeps its order: only a two-way one is turned round.
    init(seed: UInt16, proto: IPProtocolNumber, source: IPAddress, destination: IPAddress,
         ports: (source: UInt16, destination: UInt16)?, oneWay: Bool) {
        let sourceBytes = source.bytes, destinationBytes = destination.bytes
        let turned = !oneWay && (destinationBytes.lexicographicallyPrecedes(sourceBytes)
            || (destinationBytes == sourceBytes && ports.map { $0.destination < $0.source } ?? false))
        var input: [UInt8] = []
        input.reserveCapacity(40)
        func append(_ value: UInt16) { input += [UInt8(value >> 8), UInt8(value & 0xFF)] }
        append(seed)
        input += turned ? destinationBytes + sourceBytes : sourceBytes + destinationBytes
        input += [proto.rawValue, 0]
        if let ports {
            append(turned ? ports.destination : ports.source)
            append(turned ? ports.source : ports.destination)
        }
        digest = X509Digest.sha1(input)
    }

    /// The spec's protocols whose ports are hashed as they are; ICMP's are type and code.
    static let portProtocols: Set<IPProtocolNumber> = [.tcp, .udp, sctp]
    /// SCTP (IANA 132): hashed with its ports by the spec, though nothing here dissects it.
    static let sctp = IPProtocolNumber(rawValue: 132)
}

extension CommunityID: CustomStringConvertible {
    /// `1:LQU9qZlK+B5F3KDmev6m5PMibrg=`: the version, then the digest in base64 (RFC 4648 §4,
    /// padded) — the form every monitor writes by default.
    package var description: String { "1:" + Data(digest).base64EncodedString() }
}
