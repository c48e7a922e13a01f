/// Recognises an HTTP/1.x request line (RFC 9112 §3) or the HTTP/2 connection preface's first
/// line (RFC 9113 §3.4), fed one byte at a time and keeping no copy of the line.
///
///   request-line = method SP request-target SP HTTP-version CRLF
///   method:         GET HEAD POST PUT DELETE CONNECT OPTIONS TRACE (RFC 9110 §9), PATCH
///                   (RFC 5789), case-sensitive; PRI only as `PRI * HTTP/2.0`
///   request-target: origin-form `/…`; absolute-form `scheme:…` (scheme = ALPHA *(ALPHA / DIGIT /
///                   "+" / "-" / ".")); authority-form `host:port` for CONNECT alone; `*` for
///                   OPTIONS alone (RFC 9112 §3.2) — visible ASCII only
///   HTTP-version:   HTTP/1.0 or HTTP/1.1 (HTTP/2.0 after PRI); then CR LF, a bare LF refused
/// A request is recognised only at the LF; anything that stops being a prefix of such a line is
/// refused at that byte, and so is a line longer than `maxLineBytes` (CRLF included).
struct HTTPRequestLineRecognizer: Sendable {
    enum Verdict: Sendable, Equatable { case undecided, request, notRequest }

    private static let methods: [StaticString] = [
        "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH", "PRI",
    ]
    private static let connect = 5, options = 6, pri = 9

    private enum Target: Sendable {
        case origin, asterisk, scheme, absolute
        /// CONNECT's host:port: whether the bytes since the last colon are a port so far.
        case authority(portDigits: Int, portIsNumeric: Bool)
    }

    private enum Phase: Sendable {
        case method(candidates: UInt16)
        case target(Target?)
        case version
        case carriageReturn
        case lineFeed
    }

    let maxLineBytes: Int
    private var phase: Phase = .method(candidates: (1 << 10) - 1)
    private var position = 0
    private var method = 0
    private var lineLength = 0

    init(maxLineBytes: Int) { self.maxLineBytes = maxLineBytes }

    mutating func feed(_ byte: UInt8) -> Verdict {
        lineLength += 1
        guard lineLength <= maxLineBytes else { return .notRequest }
        switch phase {
        case .method(let candidates): return readMethod(byte, candidates: candidates)
        case .target(let target): return readTarget(byte, target: target)
        case .version: return readVersion(byte)
        case .carriageReturn:
            guard byte == UInt8(ascii: "\r") else { return .notRequest }
            phase = .lineFeed
            return .undecided
        case .lineFeed:
            return byte == UInt8(ascii: "\n") ? .request : .notRequest
        }
    }

    private mutating func readMethod(_ byte: UInt8, candidates: UInt16) -> Verdict {
        var alive: UInt16 = 0
        for index in Self.methods.indices where candidates & (1 << index) != 0 {
            let name = Self.methods[index]
            if byte == UInt8(ascii: " ") {
                if name.utf8CodeUnitCount == position {
                    method = index
                    phase = .target(nil)
                    position = 0
                    return .undecided
                }
            } else if position < name.utf8CodeUnitCount, name.utf8Start[position] == byte {
                alive |= 1 << index
            }
        }
        guard alive != 0 else { return .notRequest }
        phase = .method(candidates: alive)
        position += 1
        return .undecided
    }

    private mutating func readTarget(_ byte: UInt8, target: Target?) -> Verdict {
        guard let target else { return startTarget(byte) }
        if byte == UInt8(ascii: " ") {
            switch target {
            case .origin, .asterisk, .absolute: break
            case .scheme: return .notRequest
            case .authority(let digits, let numeric): guard digits > 0, numeric else { return .notRequest }
            }
            phase = .version
            return .undecided
        }
        guard (0x21...0x7E).contains(byte) else { return .notRequest }
        switch target {
        case .origin, .absolute:
            break
        case .asterisk:
            return .notRequest
        case .scheme:
            if byte == UInt8(ascii: ":") {
                phase = .target(.absolute)
            } else if !(Self.isLetter(byte) || Self.isDigit(byte) || byte == UInt8(ascii: "+")
                        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")) {
                return .notRequest
            }
        case .authority(let digits, let numeric):
            if byte == UInt8(ascii: ":") {
                phase = .target(.authority(portDigits: 0, portIsNumeric: true))
            } else {
                phase = .target(.authority(portDigits: digits + 1, portIsNumeric: numeric && Self.isDigit(byte)))
            }
        }
        return .undecided
    }

    private mutating func startTarget(_ byte: UInt8) -> Verdict {
        let form: Target
        switch method {
        case Self.pri:
            guard byte == UInt8(ascii: "*") else { return .notRequest }
            form = .asterisk
        case Self.connect:
            guard (0x21...0x7E).contains(byte), byte != UInt8(ascii: "/"), byte != UInt8(ascii: "*") else {
                return .notRequest
            }
            form = .authority(portDigits: 0, portIsNumeric: false)
        default:
            if byte == UInt8(ascii: "/") {
                form = .origin
            } else if byte == UInt8(ascii: "*"), method == Self.options {
                form = .asterisk
            } else if Self.isLetter(byte) {
                form = .scheme
            } else {
                return .notRequest
            }
        }
        phase = .target(form)
        return .undecided
    }

    private mutating func readVersion(_ byte: UInt8) -> Verdict {
        let expected: StaticString = method == Self.pri ? "HTTP/2.0" : "HTTP/1.1"
        let matches = position == 7 && method != Self.pri
            ? byte == UInt8(ascii: "0") || byte == UInt8(ascii: "1")
            : expected.utf8Start[position] == byte
        guard matches else { return .notRequest }
        position += 1
        if position == 8 { phase = .carriageReturn }
        return .undecided
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }
    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
