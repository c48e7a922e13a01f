import Shared

/// What `tunnelvision packets` prints for each record of a capture: pure formatting of a parse
/// result (or its error) into text lines or JSON objects, with the run's counts.
///
/// Text, one record a line:
///   `#1 2026-11-30T02:18:50.123456Z IPv4 TCP 10.7.0.2:51234 > 198.18.0.1:443 [SYN] seq=… ack=… win=… payload=0 len=60`
/// JSON: one object a record (see `appendJSON`), written inside the document `PacketListingDocument` frames.
package struct PacketListing: Sendable {
    package private(set) var records = 0
    package private(set) var malformed = 0
    package private(set) var truncated = 0
    /// Frames that carry no IP packet (ARP on Ethernet…), or of a pcapng interface whose link type is not read.
    package private(set) var notIP = 0
    private var clock: UTCTimestamp

    package init(nanosecondTimestamps: Bool = false) {
        clock = UTCTimestamp(fractionDigits: nanosecondTimestamps ? 9 : 6)
    }

    /// One record's facts, whatever the parser made of it.
    package struct Entry {
        package let index: Int
        package let nanosecondsSince1970: Int64
        package let capturedLength: Int
        package let originalLength: Int
        /// The parse of the record's IP datagram; nil when the frame holds none.
        package let result: Result<ParsedPacket, PacketParseError>?
        /// The frame's link type, named when it holds no IP packet.
        package let linkType: UInt32

        package init(index: Int, nanosecondsSince1970: Int64, capturedLength: Int, originalLength: Int,
                    result: Result<ParsedPacket, PacketParseError>?, linkType: UInt32 = PcapFormat.linkTypeRaw) {
            self.index = index
            self.nanosecondsSince1970 = nanosecondsSince1970
            self.capturedLength = capturedLength
            self.originalLength = originalLength
            self.result = result
            self.linkType = linkType
        }
    }

    private mutating func count(_ entry: Entry) {
        records += 1
        switch entry.result {
        case .failure: malformed += 1
        case nil: notIP += 1
        case .success: break
        }
        if entry.capturedLength < entry.originalLength { truncated += 1 }
    }

    // MARK: text

    package mutating func appendText(_ entry: Entry, to out: inout ASCIIWriter) {
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
        case nil:
            out.append(" not IP: a frame of ")
            out.append(LinkTypeName.describe(entry.linkType))
            out.append(" that holds no IP packet")
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

    /// One record as a JSON object:
    /// `{"index":1,"time":"…Z","timestampNanoseconds":…,"capturedLength":60,"originalLength":60,
    ///   "truncated":false,"version":4,"protocol":"TCP","rawProtocol":6,"source":"10.7.0.2",
    ///   "destination":"198.18.0.1","hopLimit":64,"sourcePort":51234,"destinationPort":443,
    ///   "tcp":{"sequence":…,"acknowledgment":…,"flags":["SYN"],"window":…,"headerLength":20,"payloadLength":0}}`
    /// and, for a record the parser refused, `"error":{"kind":"truncatedL4","message":"…"}` in place
    /// of the packet fields.
    package mutating func appendJSON(_ entry: Entry, to out: inout JSONWriter) {
        count(entry)
        out.beginObject()
        out.number("index", entry.index + 1)
        var clock = clock   // it caches the last second's text: carried back below
        out.string("time") { clock.write(nanosecondsSince1970: entry.nanosecondsSince1970, to: &$0) }
        self.clock = clock
        out.number("timestampNanoseconds", Int(entry.nanosecondsSince1970))
        out.number("capturedLength", entry.capturedLength)
        out.number("originalLength", entry.originalLength)
        out.bool("truncated", entry.capturedLength < entry.originalLength)
        switch entry.result {
        case let .success(packet):
            out.number("version", Int(packet.ip.version.rawValue))
            out.string("protocol") { Self.appendProtocolName(packet, to: &$0) }
            out.number("rawProtocol", Int(packet.ip.rawProtocol))
            out.string("source") { packet.ip.source.write(to: &$0) }
            out.string("destination") { packet.ip.destination.write(to: &$0) }
            out.number("hopLimit", Int(packet.ip.hopLimit))
            if let tcp = packet.tcp {
                out.number("sourcePort", Int(tcp.sourcePort))
                out.number("destinationPort", Int(tcp.destinationPort))
                out.beginObject("tcp")
                out.number("sequence", Int(tcp.sequence))
                out.number("acknowledgment", Int(tcp.acknowledgment))
                out.beginArray("flags")
                for (flag, name) in TCPFlags.named where tcp.flags.contains(flag) { out.element(unescaped: { $0.append(name) }) }
                out.endArray()
                out.number("window", Int(tcp.windowSize))
                out.number("headerLength", tcp.dataOffsetBytes)
                out.number("payloadLength", packet.transportPayloadLength ?? 0)
                out.endObject()
            } else if let udp = packet.udp {
                out.number("sourcePort", Int(udp.sourcePort))
                out.number("destinationPort", Int(udp.destinationPort))
                out.beginObject("udp")
                out.number("length", Int(udp.length))
                out.number("payloadLength", packet.transportPayloadLength ?? 0)
                out.endObject()
            } else if let icmp = packet.icmp {
                out.beginObject("icmp")
                out.number("type", Int(icmp.type))
                out.number("code", Int(icmp.code))
                out.endObject()
            }
            if let fragment = packet.ip.fragment {
                out.beginObject("fragment")
                out.number("offset", Int(fragment.offset))
                out.bool("moreFragments", fragment.moreFragments)
                out.number("identification", Int(fragment.identification))
                out.endObject()
            }
        case let .failure(error):
            out.beginObject("error")
            out.string("kind") { $0.append(error.kind) }
            out.string("message", error.description)
            out.endObject()
        case nil:
            out.number("linkType", Int(entry.linkType))
            out.bool("notIP", true)
        }
        out.endObject()
    }

    // MARK: the JSON document

    /// `{"file":…,"format":"pcap","linkType":…,"snaplen":…,"records":[` — the document
    /// `appendJSONElement` fills; a pcapng file's first interface gives the link type and snaplen,
    /// and `"interfaces":[{"linkType","snaplen"}…]` lists those its first section describes first.
    package func appendJSONOpening(file: String, format: CaptureFileFormat, to out: inout JSONWriter) {
        out.beginObject()
        out.string("file", file)
        out.string("format", format.name)
        out.number("linkType", format.linkType.map(Int.init))
        out.number("snaplen", format.snaplen.map(Int.init))
        if case let .pcapng(interfaces) = format {
            out.beginArray("interfaces")
            for interface in interfaces {
                out.beginObject()
                out.number("linkType", Int(interface.linkType))
                out.number("snaplen", Int(interface.snaplen))
                out.endObject()
            }
            out.endArray()
        }
        out.beginArray("records")
    }

    /// One record inside the `records` array, on a line of its own.
    package mutating func appendJSONElement(_ entry: Entry, to out: inout JSONWriter) {
        out.newline()
        appendJSON(entry, to: &out)
    }

    /// `],"summary":{…}` plus `"damage":{…}` when the file broke off, closing the document.
    package func appendJSONClosing(damage: (recordIndex: Int, message: String)?, to out: inout JSONWriter) {
        out.lineBreak()
        out.endArray()
        out.beginObject("summary")
        out.number("records", records)
        out.number("malformed", malformed)
        out.number("truncated", truncated)
        out.number("notIP", notIP)
        out.endObject()
        if let damage {
            out.beginObject("damage")
            out.number("recordIndex", damage.recordIndex + 1)
            out.string("message", damage.message)
            out.endObject()
        }
        out.endObject()
        out.lineBreak()
    }

    /// The text listing's closing line.
    package var summary: String {
        "\(records) records, \(malformed) malformed, " + (notIP > 0 ? "\(notIP) not IP, " : "")
            + "\(truncated) truncated by the snaplen"
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
