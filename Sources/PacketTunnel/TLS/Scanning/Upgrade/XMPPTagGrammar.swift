/// Either side of an XMPP stream up to the switch to TLS, read tag by tag (RFC 6120 §5.4):
///
///   client:  [<?xml …?>] <stream:stream …> … <starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>
///   server:  [<?xml …?>] <stream:stream …> <stream:features>…</stream:features>
///            <proceed xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>   — or <failure …/>, a refusal
///
/// TLS begins right after the `>` that ends `<starttls/>` and `<proceed/>` (§5.4.3.3), or their end
/// tags when written open. Only tags are read, and only their start is kept; character data is
/// stepped over. The first tag must be the XML declaration or the stream's own: anything else is
/// no XMPP stream. Element names are compared without their prefix; the TLS namespace must be on
/// the element itself, as every client and server writes it.
package struct XMPPTagGrammar: Sendable {
    package enum Side: Sendable { case client, server }

    private static let tlsNamespace = Array("urn:ietf:params:xml:ns:xmpp-tls".utf8)

    let side: Side
    private var inTag = false
    private var kept: [UInt8] = []
    private var tagLength = 0
    private var quote: UInt8?
    private var previous: UInt8 = 0
    private var sawStream = false
    /// The switch element was opened, not closed in the same tag: its end tag is the marker.
    private var awaitingEnd = false

    package init(side: Side) { self.side = side }

    /// The element that switches this side: the client's request, the server's yes.
    private var switchElement: String { side == .client ? "starttls" : "proceed" }

    mutating func feed(_ byte: UInt8) -> UpgradeFollower.Step {
        guard inTag else {
            if byte == UInt8(ascii: "<") {
                inTag = true
                tagLength = 1
                quote = nil
                kept.removeAll(keepingCapacity: true)
                kept.append(byte)
            } else if !sawStream, !Self.isSpace(byte) {
                return .notMine
            }
            return .more
        }
        tagLength += 1
        guard tagLength <= UpgradeLimits.maxLineBytes else { return .malformed }
        if kept.count < UpgradeLimits.keptTagBytes { kept.append(byte) }
        defer { previous = byte }
        if let open = quote {
            if byte == open { quote = nil }
            return .more
        }
        switch byte {
        case UInt8(ascii: "'"), UInt8(ascii: "\""): quote = byte
        case UInt8(ascii: ">"):
            inTag = false
            return endOfTag(selfClosing: previous == UInt8(ascii: "/"))
        case UInt8(ascii: "<"): return sawStream ? .malformed : .notMine
        default: break
        }
        return .more
    }

    private mutating func endOfTag(selfClosing: Bool) -> UpgradeFollower.Step {
        let name = Self.name(of: kept)
        let isEnd = name.first == "/"
        let local = Self.localName(isEnd ? String(name.dropFirst()) : name)
        guard sawStream else {
            if local == "stream" && !isEnd { sawStream = true; return .more }
            return name == "?xml" ? .more : .notMine
        }
        if isEnd {
            guard awaitingEnd, local == switchElement else { return .more }
            return .marker(.xmpp)
        }
        guard kept.firstRange(of: Self.tlsNamespace) != nil else { return .more }
        if local == switchElement {
            if selfClosing { return .marker(.xmpp) }
            awaitingEnd = true
        } else if side == .server, local == "failure" {
            return .refused
        }
        return .more
    }

    /// The tag's name: after `<`, up to white space, `/`… or `>` (an end tag keeps its `/`).
    private static func name(of tag: [UInt8]) -> String {
        let body = tag.dropFirst()
        let end = body.dropFirst().firstIndex { isSpace($0) || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "/") } ?? body.endIndex
        return String(decoding: body[body.startIndex..<end], as: UTF8.self)
    }

    private static func localName(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
