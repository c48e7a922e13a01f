import Foundation

/// The request heads of one inspected connection, read from what the client sends as it is
/// decrypted, for the history's search (`http:` terms): HTTP/1.1's request line and header lines
/// (RFC 9112 §3, §5), HTTP/2's header lists decoded from HPACK (RFC 9113 §8.3, RFC 7541). One text
/// per request, its lines joined by "\n", lowercased for matching. The value of a field that
/// carries credentials (Authorization, Proxy-Authorization, Cookie) is left out: a search finds
/// the field, never the secret. It reads every byte sent, whatever the budget keeps — heads are
/// small — and is bounded: `maxRequests` per connection, `maxTextBytes` per request. Pure.
///
/// HTTP/1.1: a request head is read where each run of sent bytes begins (after what the server
/// said, or the connection's start), and requests pipelined behind it too, past each body whose
/// length its head gives (Content-Length, or none: RFC 9112 §6.3). After a chunked body the
/// next head is looked for where the next run begins; a body sent after the server's answer
/// (`Expect: 100-continue`) is passed over, not read as a head.
package struct HTTPRequestHeads: Sendable {
    package static let maxRequests = 1_024
    package static let maxTextBytes = 2_048
    /// A head, or a header block, longer than this is not read.
    static let maxHeadBytes = 16 << 10
    static let credentialFields: Set<String> = ["authorization", "proxy-authorization", "cookie"]
    /// The client's encoder may grow its table to what the server allowed; the server's SETTINGS
    /// are not read here, so any size up to this is accepted.
    static let tableSizeLimit = 1 << 16

    private enum Reading { case undecided, http1, http2, neither }
    private var reading = Reading.undecided
    /// The client's first bytes while they cannot yet tell HTTP/2's preface from a request line.
    private var opening: [UInt8] = []
    static let openingBytes = 32
    private var found = 0
    private var lastDirection: Direction?
    // HTTP/1.1: the head being collected (nil: none is looked for until the next run), and the
    // bytes of the body before the next one.
    private var head: [UInt8]?
    private var bodyLeft = 0
    // HTTP/2: the client's frames.
    private var prefaceLeft = HTTP2Connection.preface.count
    private var frameHeader: [UInt8] = []
    private var payloadLeft = 0
    private var payload: [UInt8] = []
    private var frame: (type: UInt8, flags: UInt8)?
    private var block: [UInt8]?
    private var decoder = HPACKDecoder(tableSizeLimit: HTTPRequestHeads.tableSizeLimit)
    private var broken = false

    package init() {}

    /// The texts of the requests whose heads this chunk completed.
    package mutating func feed(_ chunk: Data, direction: Direction) -> [String] {
        defer { lastDirection = direction }
        guard direction == .outbound, found < Self.maxRequests, !broken, !chunk.isEmpty else { return [] }
        var chunk = chunk
        if reading == .undecided {
            // The first bytes may come a few at a time: kept until they tell which it is.
            let earlier = opening
            opening += chunk.prefix(Self.openingBytes - opening.count)
            reading = Self.reading(opening)
            guard reading != .undecided else { return [] }
            if !earlier.isEmpty { chunk = Data(earlier) + chunk }
            opening = []
            if reading == .http1 { head = [] }   // the connection's start: a request begins
        }
        // Read in place: a large upload is walked (HTTP/2) or passed over (HTTP/1.1), never copied.
        var texts: [String] = chunk.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            switch reading {
            case .http1: return http1(bytes)
            case .http2: return http2(bytes)
            case .undecided, .neither: return []
            }
        }
        texts = Array(texts.prefix(Self.maxRequests - found))
        found += texts.count
        return texts
    }

    /// What the client's first bytes say it speaks; undecided while more could still tell.
    private static func reading(_ opening: [UInt8]) -> Reading {
        let preface = HTTP2Connection.preface
        if preface.starts(with: opening.prefix(preface.count)) { return opening.count >= preface.count ? .http2 : .undecided }
        switch HTTP1Head.requestStart(opening) {
        case true?: return .http1
        case false?: return .neither
        case nil: return opening.count < openingBytes ? .undecided : .neither
        }
    }

    private mutating func http1(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        if lastDirection != .outbound, bodyLeft == 0 { head = [] }   // a new run of sent bytes: a request begins
        var texts: [String] = []
        var position = 0
        while position < bytes.count {
            if bodyLeft > 0 {
                let take = min(bodyLeft, bytes.count - position)
                bodyLeft -= take
                position += take
                continue
            }
            guard var collected = head else { break }
            let before = collected.count
            collected += bytes[position..<min(bytes.count, position + Self.maxHeadBytes - before)]
            guard let end = HTTP1Head.end(of: collected) else {
                head = collected.count < Self.maxHeadBytes ? collected : nil
                break
            }
            position += end - before
            head = nil
            guard let lines = HTTP1Head.lines(collected[..<end]), HTTP1Head.isRequestLine(lines.first ?? "") else { break }
            let fields = lines.dropFirst().map { line -> (String, String) in
                let colon = line.firstIndex(of: ":") ?? line.endIndex
                return (String(line[..<colon]), String(line[colon...].dropFirst()).trimmingCharacters(in: .whitespaces))
            }
            texts.append(Self.text([lines[0]] + fields.map(Self.line)))
            // The next request follows the body, when its length is known.
            if let length = HTTP1Head.bodyLength(fields) {
                bodyLeft = length
                head = []
            }
        }
        return texts
    }

    private mutating func http2(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        var texts: [String] = []
        var position = 0
        while position < bytes.count, !broken {
            if prefaceLeft > 0 {
                let take = min(prefaceLeft, bytes.count - position)
                prefaceLeft -= take
                position += take
            } else if let current = frame {
                let take = min(payloadLeft, bytes.count - position)
                if current.type == HTTP2Frame.Kind.headers.rawValue || current.type == HTTP2Frame.Kind.continuation.rawValue {
                    payload += bytes[position..<(position + take)]
                }
                payloadLeft -= take
                position += take
                if payloadLeft == 0 {
                    frame = nil
                    if let text = ended(current) { texts.append(text) }
                }
            } else {
                let take = min(HTTP2FrameHeader.length - frameHeader.count, bytes.count - position)
                frameHeader += bytes[position..<(position + take)]
                position += take
                guard let header = HTTP2FrameHeader(frameHeader) else { continue }
                payloadLeft = header.payloadLength
                let current = (type: header.type, flags: header.flags)
                frameHeader.removeAll(keepingCapacity: true)
                payload.removeAll(keepingCapacity: true)
                if (current.type == HTTP2Frame.Kind.headers.rawValue || current.type == HTTP2Frame.Kind.continuation.rawValue)
                    && payloadLeft > Self.maxHeadBytes {
                    broken = true   // too large to read: the table after it is unknown
                } else if payloadLeft == 0 {
                    if let text = ended(current) { texts.append(text) }
                } else {
                    frame = current
                }
            }
        }
        return texts
    }

    /// A frame is whole: a header block grows, and ends with END_HEADERS (§6.2, §6.10).
    private mutating func ended(_ frame: (type: UInt8, flags: UInt8)) -> String? {
        var fragment = payload[...]
        if frame.type == HTTP2Frame.Kind.headers.rawValue {
            if frame.flags & HTTP2Frame.Flag.padded != 0 {
                guard let pad = fragment.first.map(Int.init), pad < fragment.count else { broken = true; return nil }
                fragment = fragment.dropFirst().dropLast(pad)
            }
            if frame.flags & HTTP2Frame.Flag.priority != 0 {
                guard fragment.count >= 5 else { broken = true; return nil }
                fragment = fragment.dropFirst(5)
            }
            block = Array(fragment)
        } else if frame.type == HTTP2Frame.Kind.continuation.rawValue {
            guard block != nil else { return nil }
            block? += fragment
        } else {
            return nil
        }
        guard frame.flags & HTTP2Frame.Flag.endHeaders != 0, let whole = block else {
            if (block?.count ?? 0) > Self.maxHeadBytes { broken = true }
            return nil
        }
        block = nil
        do {
            let fields = try decoder.decode(whole[...])
            return Self.text(fields.map { Self.line(($0.name, $0.value)) })
        } catch {
            broken = true   // the table is unknown from here on
            return nil
        }
    }

    static func line(_ field: (name: String, value: String)) -> String {
        let name = field.name.lowercased()
        return credentialFields.contains(name) ? name + ":" : name + ": " + field.value
    }

    static func text(_ lines: [String]) -> String {
        let text = lines.joined(separator: "\n").lowercased()
        guard text.utf8.count > maxTextBytes else { return text }
        return String(decoding: text.utf8.prefix(maxTextBytes), as: UTF8.self)
    }
}

/// The little of HTTP/1.1's grammar the request index needs (the full reader is the app's).
enum HTTP1Head {
    /// Whether `bytes` start as a request line does, a token then a space (RFC 9112 §3): nil
    /// while they are a token with no space yet.
    static func requestStart(_ bytes: [UInt8]) -> Bool? {
        let space = bytes.firstIndex(of: UInt8(ascii: " "))
        guard bytes[..<(space ?? bytes.endIndex)].allSatisfy({ $0 >= 0x21 && $0 < 0x7F }) else { return false }
        guard let space else { return nil }
        return space > 0
    }

    /// Where the head ends (the empty line), counting the line's end; nil when not yet.
    static func end(of bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") { return index + 2 }
                if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\r"), bytes[index + 2] == UInt8(ascii: "\n") { return index + 3 }
            }
            index += 1
        }
        return nil
    }

    /// The head's lines without their ends; nil when it is not text.
    static func lines(_ bytes: ArraySlice<UInt8>) -> [String]? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        return text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).map(String.init)
    }

    /// A request's body length from its fields (RFC 9112 §6.3): Content-Length's, 0 with neither
    /// it nor Transfer-Encoding; nil when it cannot be known ahead (chunked, or a length that is
    /// not one number).
    static func bodyLength(_ fields: [(String, String)]) -> Int? {
        var length: Int?
        for (name, value) in fields {
            switch name.lowercased() {
            case "transfer-encoding": return nil
            case "content-length":
                guard let number = Int(value), number >= 0, length == nil || length == number else { return nil }
                length = number
            default: continue
            }
        }
        return length ?? 0
    }

    /// METHOD SP target SP HTTP/1.x.
    static func isRequestLine(_ line: String) -> Bool {
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[2].hasPrefix("HTTP/1.")
    }
}
