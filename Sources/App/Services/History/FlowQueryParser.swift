import Shared

/// Reads a search into `FlowQuery` terms, all at once, refusing the first term that cannot be
/// read (`FlowQueryError`) rather than guessing. The grammar (WSP is any white space):
///
///     query  = *WSP [ term *( 1*WSP term ) ] *WSP            ; every term must hold
///     term   = [ "-" ] ( key ":" values / word )               ; "-": the flows it does not hold for
///     key    = "host" / "port" / "proto" / "status" / "program" / "http"
///            / "ja4" / "ja3" / "ja3s"                         ; in any case
///     values = value *( "," value )                            ; any one of them
///     value  = 1*( plain / quoted )                            ; a "," inside quotes is the value's
///     word   = 1*( plain / quoted )
///     quoted = DQUOTE *( any but DQUOTE ) DQUOTE               ; keeps spaces and commas; no escapes
///     plain  = any but WSP, DQUOTE (and "," in a value)
///
/// A word with nothing quoted is, first to last: an IPv4 or IPv6 address (either end's); an
/// address, "/" and a prefix length (0-32 or 0-128; host bits are ignored, as in 198.18.0.1/15:
/// either end's address in the block); `letters:…` whose letters are no key — refused, so a typo
/// is never searched as text; any other word, and every quoted one: a substring of the flow's
/// names (`host:`). A key counts only before any quote: `"port:80"` is text.
///
/// Values: `host:` a substring of the names; `port:` N or N-M, 0-65535, either end's (TCP and
/// UDP); `proto:` what `flows --protocol` takes (`TimelineQuestion.protocols(named:)`); `status:`
/// an identifier `flows --status` takes (`HistoryFlowWording.statusIdentifier`), any case;
/// `program:` a name `flows --program` takes (`ProgramFacts.isNamed`); `ja4:` a JA4, or its first
/// parts whole (`t13d1516h2`, `t13d1516h2_8daaf6152771`); `ja3:` and `ja3s:` an MD5 hash (32 hex
/// digits), any case.
enum FlowQueryParser {
    /// A run of characters between white space (quoted white space inside it), as typed, and its
    /// parts: plain and quoted in turn.
    struct Word {
        struct Part {
            var text: String
            let quoted: Bool
        }

        var typed = ""
        var parts: [Part] = []
    }

    static func terms(of text: String) throws(FlowQueryError) -> [FlowQuery.Term] {
        var terms: [FlowQuery.Term] = []
        for word in try words(of: text) { terms.append(try term(word)) }
        return terms
    }

    static func words(of text: String) throws(FlowQueryError) -> [Word] {
        var words: [Word] = []
        var current: Word?
        var inQuotes = false
        for character in text {
            if !inQuotes && character.isWhitespace {
                if let word = current { words.append(word) }
                current = nil
                continue
            }
            var word = current ?? Word()
            word.typed.append(character)
            if character == "\"" {
                inQuotes.toggle()
                if inQuotes { word.parts.append(Word.Part(text: "", quoted: true)) }
            } else if inQuotes || word.parts.last?.quoted == false {
                word.parts[word.parts.count - 1].text.append(character)
            } else {
                word.parts.append(Word.Part(text: String(character), quoted: false))
            }
            current = word
        }
        if let word = current {
            guard !inQuotes else { throw FlowQueryError(word.typed, .unclosedQuote) }
            words.append(word)
        }
        return words
    }

    static func term(_ word: Word) throws(FlowQueryError) -> FlowQuery.Term {
        var parts = word.parts
        var negated = false
        if !parts[0].quoted, parts[0].text.hasPrefix("-") {
            negated = true
            parts[0].text.removeFirst()
            if parts[0].text.isEmpty { parts.removeFirst() }
            guard !parts.isEmpty else { throw FlowQueryError(word.typed, .loneMinus) }
        }
        if !parts[0].quoted, let colon = parts[0].text.firstIndex(of: ":"),
           let key = FlowQuery.Key(rawValue: parts[0].text[..<colon].lowercased()) {
            parts[0].text = String(parts[0].text[parts[0].text.index(after: colon)...])
            return FlowQuery.Term(try test(key, values(of: parts), typed: word.typed), negated: negated)
        }
        let text = parts.map(\.text).joined()
        guard parts.allSatisfy({ !$0.quoted }) else {
            guard !text.isEmpty else { throw FlowQueryError(word.typed, .emptyPhrase) }
            return FlowQuery.Term(.names([text.lowercased()]), negated: negated)
        }
        if let address = IPAddress(parsing: text) {
            return FlowQuery.Term(.address([address...address]), negated: negated)
        }
        if let slash = text.lastIndex(of: "/"), let address = IPAddress(parsing: String(text[..<slash])) {
            let block = try block(of: address, length: text[text.index(after: slash)...], typed: word.typed)
            return FlowQuery.Term(.address([block]), negated: negated)
        }
        if let colon = text.firstIndex(of: ":"), notComputed.contains(text[..<colon].lowercased()) {
            throw FlowQueryError(word.typed, .fingerprintNotComputed(text[..<colon].lowercased()))
        }
        if let colon = text.firstIndex(of: ":"), colon > text.startIndex,
           text[..<colon].allSatisfy({ $0.isASCII && $0.isLetter }) {
            throw FlowQueryError(word.typed, .unknownKey(String(text[..<colon])))
        }
        return FlowQuery.Term(.names([text.lowercased()]), negated: negated)
    }

    /// JA4+ fingerprints a search may name but TunnelVision does not compute (FoxIO License 1.1).
    static let notComputed: Set<String> = ["ja4s", "ja4x", "ja4h", "ja4l", "ja4t", "ja4ssh"]

    /// A key's values: the parts split at the commas outside quotes.
    static func values(of parts: [Word.Part]) -> [String] {
        var values = [""]
        for part in parts {
            guard !part.quoted else { values[values.count - 1] += part.text; continue }
            let pieces = part.text.split(separator: ",", omittingEmptySubsequences: false)
            values[values.count - 1] += pieces[0]
            values += pieces.dropFirst().map(String.init)
        }
        return values
    }

    static func test(_ key: FlowQuery.Key, _ values: [String], typed: String) throws(FlowQueryError) -> FlowQuery.Test {
        guard !values.contains(where: \.isEmpty) else { throw FlowQueryError(typed, .emptyValue(key)) }
        switch key {
        case .host:
            return .names(values.map { $0.lowercased() })
        case .port:
            var ranges: [ClosedRange<UInt16>] = []
            for value in values { ranges.append(try portRange(value, typed: typed)) }
            return .port(ranges)
        case .proto:
            var protocols: Set<IPProtocolNumber> = []
            for value in values {
                guard let named = TimelineQuestion.protocols(named: value) else { throw FlowQueryError(typed, .unknownProtocol(value)) }
                protocols.formUnion(named)
            }
            return .proto(protocols)
        case .status:
            var statuses: Set<TLSInspectionStatus> = []
            for value in values {
                guard let status = TLSInspectionStatus.allCases.first(where: {
                    HistoryFlowWording.statusIdentifier($0).lowercased() == value.lowercased()
                }) else { throw FlowQueryError(typed, .unknownStatus(value)) }
                statuses.insert(status)
            }
            return .status(statuses)
        case .program:
            return .program(values.map(ProgramFacts.folded))
        case .http:
            return .request(values.map { $0.lowercased() })
        case .ja4:
            return .ja4(values.map { $0.lowercased() })
        case .ja3:
            return .ja3(try values.map { value throws(FlowQueryError) in try md5Hex(value, typed: typed) })
        case .ja3s:
            return .ja3s(try values.map { value throws(FlowQueryError) in try md5Hex(value, typed: typed) })
        }
    }

    /// A JA3 or JA3S hash: 32 hex digits, any case (read lowercase).
    static func md5Hex(_ value: String, typed: String) throws(FlowQueryError) -> String {
        guard value.count == 32, value.allSatisfy(\.isHexDigit) else { throw FlowQueryError(typed, .badFingerprintHash(value)) }
        return value.lowercased()
    }

    /// `N` or `N-M`, decimal digits only, each 0-65535, N ≤ M.
    static func portRange(_ value: String, typed: String) throws(FlowQueryError) -> ClosedRange<UInt16> {
        let ends = value.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard let lower = port(ends[0]), let upper = ends.count == 2 ? port(ends[1]) : lower else {
            throw FlowQueryError(typed, .badPort(value))
        }
        guard lower <= upper else { throw FlowQueryError(typed, .reversedPortRange(value)) }
        return lower...upper
    }

    private static func port(_ digits: Substring) -> UInt16? {
        guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        return UInt16(digits)
    }

    /// Every address `length` leading bits of `address` begin (RFC 4632 § 3.1): its lowest,
    /// host bits cleared, to its highest, host bits set. Both are of `address`'s family, and
    /// `IPAddress` orders each family apart, so the range holds no address of the other.
    static func block(of address: IPAddress, length text: Substring, typed: String) throws(FlowQueryError) -> ClosedRange<IPAddress> {
        let bits: FlowQueryError.IPFamilyBits = address.version == .v4 ? .v4 : .v6
        guard !text.isEmpty, text.allSatisfy({ ("0"..."9").contains($0) }), let length = Int(text), length <= bits.rawValue else {
            throw FlowQueryError(typed, .badPrefixLength(String(text), bits))
        }
        var lowest = address.bytes, highest = lowest
        for index in lowest.indices {
            let kept = max(0, min(8, length - index * 8))
            let mask: UInt8 = kept == 0 ? 0 : 0xFF << (8 - kept)
            lowest[index] &= mask
            highest[index] |= ~mask
        }
        // Four or sixteen bytes, as `bytes` gave them: both are addresses.
        return IPAddress(bytes: lowest)!...IPAddress(bytes: highest)!
    }
}
