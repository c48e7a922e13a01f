import Shared

/// The headers grid of the packet screen: every field of both layers named, as the bytes hold
/// it. `PacketParser` validates the datagram and finds the layers; the fields it does not keep
/// are then read at their RFC offsets inside headers it has already bounded — no second parser.
package struct PacketHeaders: Sendable, Hashable {
    package struct Field: Sendable, Hashable {
        package let layer: String
        package let name: String
        package let value: String
    }

    package let fields: [Field]
    package let parsed: ParsedPacket

    /// nil with the parser's reason when the bytes are not a datagram it reads.
    package static func read(_ record: CaptureRecord) -> Result<PacketHeaders, PacketParseError> {
        let bytes = record.bytes
        let parsed = bytes.withUnsafeBytes { raw in
            Result { () throws(PacketParseError) in try PacketParser.parse(raw, originalLength: Int(record.originalLength)) }
        }
        return parsed.map { PacketHeaders(bytes: bytes, parsed: $0) }
    }

    init(bytes: [UInt8], parsed: ParsedPacket) {
        self.parsed = parsed
        var fields = parsed.ip.version == .v4 ? Self.ipv4(bytes, parsed.ip) : Self.ipv6(bytes, parsed.ip)
        let transport = parsed.ip.payloadRange.lowerBound
        if let tcp = parsed.tcp {
            fields += Self.tcp(bytes, at: transport, tcp)
        } else if let udp = parsed.udp {
            fields += [
                Field(layer: "UDP", name: "source port", value: "\(udp.sourcePort)"),
                Field(layer: "UDP", name: "destination port", value: "\(udp.destinationPort)"),
                Field(layer: "UDP", name: "length", value: "\(udp.length) bytes"),
                Field(layer: "UDP", name: "checksum", value: Self.hex(UInt32(udp.checksum), digits: 4)),
            ]
        } else if let icmp = parsed.icmp {
            let layer = parsed.ip.proto == .icmpv6 ? "ICMPv6" : "ICMP"
            fields += [Field(layer: layer, name: "type", value: "\(icmp.type)"),
                       Field(layer: layer, name: "code", value: "\(icmp.code)")]
            if let checksum = Self.u16(bytes, transport + 2) {
                fields.append(Field(layer: layer, name: "checksum", value: Self.hex(UInt32(checksum), digits: 4)))
            }
        }
        self.fields = fields
    }

    // RFC 791 §3.1
    static func ipv4(_ bytes: [UInt8], _ ip: IPHeader) -> [Field] {
        func field(_ name: String, _ value: String) -> Field { Field(layer: "IPv4", name: name, value: value) }
        let tos = bytes[1]
        let flagsAndOffset = u16(bytes, 6) ?? 0
        var flags: [String] = []
        if flagsAndOffset & 0x8000 != 0 { flags.append("reserved") }
        if flagsAndOffset & 0x4000 != 0 { flags.append("DF (don't fragment)") }
        if flagsAndOffset & 0x2000 != 0 { flags.append("MF (more fragments)") }
        return [
            field("version", "4"),
            field("header length", "\(ip.headerLength) bytes"),
            field("DSCP / ECN", "\(tos >> 2) / \(ecn(tos & 3))"),
            field("total length", "\(ip.totalLength) bytes"),
            field("identification", hex(UInt32(u16(bytes, 4) ?? 0), digits: 4)),
            field("flags", flags.isEmpty ? "none" : flags.joined(separator: ", ")),
            field("fragment offset", "\(Int(flagsAndOffset & 0x1FFF) * 8) bytes"),
            field("time to live", "\(ip.hopLimit)"),
            field("protocol", "\(ip.rawProtocol) (\(ip.proto.displayName))"),
            field("header checksum", hex(UInt32(u16(bytes, 10) ?? 0), digits: 4)),
            field("source", "\(ip.source)"),
            field("destination", "\(ip.destination)"),
        ]
    }

    // RFC 8200 §3
    static func ipv6(_ bytes: [UInt8], _ ip: IPHeader) -> [Field] {
        func field(_ name: String, _ value: String) -> Field { Field(layer: "IPv6", name: name, value: value) }
        let trafficClass = UInt8(truncatingIfNeeded: ((u16(bytes, 0) ?? 0) >> 4) & 0xFF)
        let flowLabel = (UInt32(bytes[1] & 0x0F) << 16) | UInt32(u16(bytes, 2) ?? 0)
        var fields = [
            field("version", "6"),
            field("header length", ip.headerLength == 40 ? "40 bytes" : "\(ip.headerLength) bytes (40 + extension headers)"),
            field("DSCP / ECN", "\(trafficClass >> 2) / \(ecn(trafficClass & 3))"),
            field("flow label", hex(flowLabel, digits: 5)),
            field("payload length", "\((u16(bytes, 4) ?? 0)) bytes (total \(ip.totalLength))"),
            field("next header", "\(bytes[6])" + (ip.headerLength > 40 ? " (last: \(ip.rawProtocol) \(ip.proto.displayName))"
                                                                           : " (\(ip.proto.displayName))")),
            field("hop limit", "\(ip.hopLimit)"),
            field("source", "\(ip.source)"),
            field("destination", "\(ip.destination)"),
        ]
        if let fragment = ip.fragment {
            fields += [field("identification", hex(fragment.identification, digits: 8)),
                       field("flags", fragment.moreFragments ? "more fragments" : "none"),
                       field("fragment offset", "\(fragment.offset) bytes")]
        }
        return fields
    }

    // RFC 9293 §3.1
    static func tcp(_ bytes: [UInt8], at start: Int, _ tcp: TCPHeader) -> [Field] {
        func field(_ name: String, _ value: String) -> Field { Field(layer: "TCP", name: name, value: value) }
        let optionsEnd = min(bytes.count, start + tcp.dataOffsetBytes)
        let options = start + 20 < optionsEnd ? Array(bytes[(start + 20)..<optionsEnd]) : []
        return [
            field("source port", "\(tcp.sourcePort)"),
            field("destination port", "\(tcp.destinationPort)"),
            field("sequence number", "\(tcp.sequence)"),
            field("acknowledgment number", "\(tcp.acknowledgment)"),
            field("data offset", "\(tcp.dataOffsetBytes) bytes"),
            field("flags", tcp.flags.rawValue == 0 ? "none" : PacketTitle.acronyms(tcp.flags)),
            field("window", "\(tcp.windowSize)"),
            field("checksum", hex(UInt32(u16(bytes, start + 16) ?? 0), digits: 4)),
            field("urgent pointer", "\(u16(bytes, start + 18) ?? 0)"),
            field("options", options.isEmpty ? "none" : TCPOptionNames.describe(options)),
        ]
    }

    static func ecn(_ bits: UInt8) -> String {
        switch bits {
        case 0: "not ECN-capable"
        case 3: "congestion experienced"
        default: "ECN-capable"
        }
    }

    static func u16(_ bytes: [UInt8], _ offset: Int) -> UInt16? {
        guard offset >= 0, offset + 1 < bytes.count else { return nil }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    static func hex(_ value: UInt32, digits: Int) -> String { AnalysisReport.hex(value, digits: digits) }
}
