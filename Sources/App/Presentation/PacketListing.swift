import Shared

/// What `tunnelvision packets` prints for each record of a capture: pure formatting of a parse
/// result (or its error) into text lines or JSON objects, with the run's counts.
///
/// Text, one record a line:
///   `#1 2026-11-30T02:18:50.123456Z IPv4 TCP 10.7.0.2:51234 > 198.18.0.1:443 [SYN] seq=… ack=… win=… payload=0 len=60`
/// JSON: one object a record (see `appendJSON`), written inside the document `PacketListingDocument` frames.
public struct PacketListing: Sendable {
    public private(set) var records = 0
    public private(set) var malformed = 0
    public private(set) var truncated = 0
    private var clock: UTCTimestamp

    public init(nanosecondTimestamps: Bool = false) {
        clock = UTCTimestamp(fractionDigits: nanosecondTimestamps ? 9 : 6)
    }

    /// One record's facts, whatever the parser made of it.
    public struct Entry {
        public let index: Int
        public let nanosecondsSince1970: Int64
        public let capturedLength: Int
        public let originalLength: Int
        public let result: Result<ParsedPacket, PacketParseError>

        public init(index: Int, nanosecondsSince1970: Int64, capturedLength: Int, originalLength: Int,
                    result: Result<ParsedPacket, PacketParseError>) {
            self.index = index
            self.nanosecondsSince1970 = nanosecondsSince1970
            self.capturedLength = capturedLength
            self.originalLength = originalLength
            self.result = result
        }
    }

    private mutating func count(_ entry: Entry) {
        records += 1
        if case .failure = entry.result { malformed += 1 }
        if entry.capturedLength < entry.originalLength { truncated += 1 }
    }

    // MARK: text

    public mutating func appendText(_ entry: Entry, to out: inout ASCIIWriter) {
        count(entry)
        out.append(UInt8(ascii: "#"))
        out.appendDecimal(entry.index + 1)
        out.append(UInt8(ascii: " "))
        clock.write(nanosecondsSince1970: entry.nanosecondsSince1970, to: &out)
        switch entry.result {
        case let .success(packet):
            out.append(packet.ip.version == .v4 ? " IPv4 " : " IPv6 ")
            Self.appendProtocolName(packet, to: &out)
            out.append(UInt8(ascii: " "))
            Self.appendEndpoint(packet.ip.source, port: packet.tcp?.sourcePort ?? packet.udp?.sourcePort, to: &out)
            out.append(" > ")
            Self.appendEndpoint(packet.ip.destination, port: packet.tcp?.destinationPort ?? packet.udp?.destinationPort, to: &out)
            if let tcp = packet.tcp {
                out.append(" [")
                Self.appendFlagNames(tcp.flags, separator: UInt8(ascii: ","), quoted: false, to: &out)
                out.append("] seq=")
                out.appendDecimal(tcp.sequence)
                out.append(" ack=")
                out.appendDecimal(tcp.acknowledgment)
                out.append(" win=")
                out.appendDecimal(tcp.windowSize)
                out.append(" payload=")
                out.appendDecimal(packet.transportPayloadLength ?? 0)
            } else if packet.udp != nil {
                out.append(" payload=")
                out.appendDecimal(packet.transportPayloadLength ?? 0)
            } else if let icmp = packet.icmp {
                out.append(" type=")
                out.appendDecimal(icmp.type)
                out.append(" code=")
                out.appendDecimal(icmp.code)
            }
            if let fragment = packet.ip.fragment {
                out.append(" fragment offset=")
                out.appendDecimal(fragment.offset)
                if fragment.moreFragments { out.append(" more") }
            }
        case let .failure(error):
            out.append(" malformed: ")
            out.append(error.description)
        }
        out.append(" len=")
        out.appendDecimal(entry.originalLength)
        if entry.capturedLength < entry.originalLength {
            out.append(" captured=")
            out.appendDecimal(entry.capturedLength)
            out.append(" (truncated)")
        }
        out.append(UInt8(ascii: "\n"))
    }

    // MARK: JSON

    /// One record as a JSON object (no trailing separator):
    /// `{"index":1,"time":"…Z","timestampNanoseconds":…,"capturedLength":60,"originalLength":60,
    ///   "truncated":false,"version":4,"protocol":"TCP","rawProtocol":6,"source":"10.7.0.2",
    ///   "destination":"198.18.0.1","hopLimit":64,"sourcePort":51234,"destinationPort":443,
    ///   "tcp":{"sequence":…,"acknowledgment":…,"flags":["SYN"],"window":…,"headerLength":20,"payloadLength":0}}`
    /// and, for a record the parser refused, `"error":{"kind":"truncatedL4","message":"…"}` in place
    /// of the packet fields.
    public mutating func appendJSON(_ entry: Entry, to out: inout ASCIIWriter) {
        count(entry)
        out.append("{\"index\":")
        out.appendDecimal(entry.index + 1)
        out.append(",\"time\":\"")
        clock.write(nanosecondsSince1970: entry.nanosecondsSince1970, to: &out)
        out.append("\",\"timestampNanoseconds\":")
        out.appendDecimal(entry.nanosecondsSince1970)
        out.append(",\"capturedLength\":")
        out.appendDecimal(entry.capturedLength)
        out.append(",\"originalLength\":")
        out.appendDecimal(entry.originalLength)
        out.append(entry.capturedLength < entry.originalLength ? ",\"truncated\":true" : ",\"truncated\":false")
        switch entry.result {
        case let .success(packet):
            out.append(",\"version\":")
            out.appendDecimal(packet.ip.version.rawValue)
            out.append(",\"protocol\":\"")
            Self.appendProtocolName(packet, to: &out)
            out.append("\",\"rawProtocol\":")
            out.appendDecimal(packet.ip.rawProtocol)
            out.append(",\"source\":\"")
            packet.ip.source.write(to: &out)
            out.append("\",\"destination\":\"")
            packet.ip.destination.write(to: &out)
            out.append("\",\"hopLimit\":")
            out.appendDecimal(packet.ip.hopLimit)
            if let tcp = packet.tcp {
                Self.appendPorts(tcp.sourcePort, tcp.destinationPort, to: &out)
                out.append(",\"tcp\":{\"sequence\":")
                out.appendDecimal(tcp.sequence)
                out.append(",\"acknowledgment\":")
                out.appendDecimal(tcp.acknowledgment)
                out.append(",\"flags\":[")
                Self.appendFlagNames(tcp.flags, separator: UInt8(ascii: ","), quoted: true, to: &out)
                out.append("],\"window\":")
                out.appendDecimal(tcp.windowSize)
                out.append(",\"headerLength\":")
                out.appendDecimal(tcp.dataOffsetBytes)
                out.append(",\"payloadLength\":")
                out.appendDecimal(packet.transportPayloadLength ?? 0)
                out.append(UInt8(ascii: "}"))
            } else if let udp = packet.udp {
                Self.appendPorts(udp.sourcePort, udp.destinationPort, to: &out)
                out.append(",\"udp\":{\"length\":")
                out.appendDecimal(udp.length)
                out.append(",\"payloadLength\":")
                out.appendDecimal(packet.transportPayloadLength ?? 0)
                out.append(UInt8(ascii: "}"))
            } else if let icmp = packet.icmp {
                out.append(",\"icmp\":{\"type\":")
                out.appendDecimal(icmp.type)
                out.append(",\"code\":")
                out.appendDecimal(icmp.code)
                out.append(UInt8(ascii: "}"))
            }
            if let fragment = packet.ip.fragment {
                out.append(",\"fragment\":{\"offset\":")
                out.appendDecimal(fragment.offset)
                out.append(fragment.moreFragments ? ",\"moreFragments\":true" : ",\"moreFragments\":false")
                out.append(",\"identification\":")
                out.appendDecimal(fragment.identification)
                out.append(UInt8(ascii: "}"))
            }
        case let .failure(error):
            out.append(",\"error\":{\"kind\":\"")
            out.append(error.kind)
            out.append("\",\"message\":\"")
            out.appendJSONEscaped(error.description)
            out.append("\"}")
        }
        out.append(UInt8(ascii: "}"))
    }

    // MARK: the JSON document

    /// `{"file":…,"linkType":…,"snaplen":…,"records":[` — the document `appendJSONElement` fills.
    public func appendJSONOpening(file: String, header: PcapFormat.GlobalHeader, to out: inout ASCIIWriter) {
        out.append("{\"file\":\"")
        out.appendJSONEscaped(file)
        out.append("\",\"linkType\":")
        out.appendDecimal(header.linkType)
        out.append(",\"snaplen\":")
        out.appendDecimal(header.snaplen)
        out.append(",\"records\":[")
    }

    /// One record inside the `records` array, with its separator.
    public mutating func appendJSONElement(_ entry: Entry, to out: inout ASCIIWriter) {
        if records > 0 { out.append(UInt8(ascii: ",")) }
        out.append(UInt8(ascii: "\n"))
        appendJSON(entry, to: &out)
    }

    /// `],"summary":{…}` plus `"damage":{…}` when the file broke off, closing the document.
    public func appendJSONClosing(damage: (recordIndex: Int, message: String)?, to out: inout ASCIIWriter) {
        out.append("\n],\"summary\":{\"records\":")
        out.appendDecimal(records)
        out.append(",\"malformed\":")
        out.appendDecimal(malformed)
        out.append(",\"truncated\":")
        out.appendDecimal(truncated)
        out.append(UInt8(ascii: "}"))
        if let damage {
            out.append(",\"damage\":{\"recordIndex\":")
            out.appendDecimal(damage.recordIndex + 1)
            out.append(",\"message\":\"")
            out.appendJSONEscaped(damage.message)
            out.append("\"}")
        }
        out.append("}\n")
    }

    /// The text listing's closing line.
    public var summary: String {
        "\(records) records, \(malformed) malformed, \(truncated) truncated by the snaplen"
    }

    // MARK: pieces

    private static func appendProtocolName(_ packet: ParsedPacket, to out: inout ASCIIWriter) {
        if let name = packet.ip.proto.knownName {
            out.append(name)
        } else {
            out.append("proto-")
            out.appendDecimal(packet.ip.rawProtocol)
        }
    }

    private static func appendEndpoint(_ address: IPAddress, port: UInt16?, to out: inout ASCIIWriter) {
        guard let port else { return address.write(to: &out) }
        IPEndpoint(address: address, port: port).write(to: &out)
    }

    private static func appendPorts(_ source: UInt16, _ destination: UInt16, to out: inout ASCIIWriter) {
        out.append(",\"sourcePort\":")
        out.appendDecimal(source)
        out.append(",\"destinationPort\":")
        out.appendDecimal(destination)
    }

    private static func appendFlagNames(_ flags: TCPFlags, separator: UInt8, quoted: Bool, to out: inout ASCIIWriter) {
        var first = true
        for (flag, name) in TCPFlags.named where flags.contains(flag) {
            if !first { out.append(separator) }
            first = false
            if quoted { out.append(UInt8(ascii: "\"")) }
            out.append(name)
            if quoted { out.append(UInt8(ascii: "\"")) }
        }
    }
}
