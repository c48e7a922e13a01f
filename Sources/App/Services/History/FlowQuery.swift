import Shared

/// A search as network tools have it — the Timeline's search field and `flows --search` — read
/// once into terms that must all hold (`FlowQueryParser` has the grammar), then asked of each flow
/// with `matches(_:)`. Examples: `example.com`, `host:cdn port:80,443 -proto:udp`,
/// `198.18.0.0/15`, `fd00::1`, `status:plaintext program:curl`, `"video example"`,
/// `http:/api/items`, `http:"user-agent: curl"`.
///
/// Pure and cheap per flow: nothing is parsed, lowercased or folded while matching except the
/// flow's own names, built once per flow and only when a term looks at names.
struct FlowQuery: Sendable, Equatable {
    /// The keys a term may have, written in any case.
    enum Key: String, Sendable, CaseIterable {
        case host, port, proto, status, program, http, ja4, ja3, ja3s

        /// A term with this key, for the sentences that say how to write one.
        var example: String {
            switch self {
            case .host: "host:example.com"
            case .port: "port:80,443"
            case .proto: "proto:tcp,udp"
            case .status: "status:plaintext"
            case .program: "program:curl"
            case .http: "http:/api"
            case .ja4: "ja4:t13d1516h2_8daaf6152771_e5627efa2ab1"
            case .ja3: "ja3:e7d705a3286e19ea42f587b344ee6865"
            case .ja3s: "ja3s:f4febc55ea12b31ae17cfb7e614afda8"
            }
        }
    }

    /// What one term asks of a flow; a list is "any of these".
    enum Test: Sendable, Equatable {
        /// A substring of one of the flow's searchable names (lowercase), as the search always did:
        /// `host:` and any word that is not an address.
        case names([String])
        /// Either end's address within one of the ranges (a single address is a range of one).
        case address([ClosedRange<IPAddress>])
        /// Either end's port within one of the ranges; only TCP and UDP have ports.
        case port([ClosedRange<UInt16>])
        case proto(Set<IPProtocolNumber>)
        case status(Set<TLSInspectionStatus>)
        /// The program that opened it is named so (`ProgramFacts.isNamed`); names are folded.
        case program([String])
        /// A substring (lowercase) of one of its inspected requests' heads — the request line
        /// or a header line, as `HTTPRequestHeads` kept them. Only the store holds those: it
        /// decides this term (`requestTerms`), before any row is read.
        case request([String])
        /// The ClientHello's JA4 is one of these, or begins with one of them whole
        /// `_`-separated parts at a time (`t13d1516h2`, `t13d1516h2_8daaf6152771`); lowercase.
        case ja4([String])
        /// The ClientHello's JA3 hash (MD5, lowercase hex) is one of these.
        case ja3([String])
        /// The cleartext ServerHello's JA3S hash is one of these.
        case ja3s([String])
    }

    struct Term: Sendable, Equatable {
        var test: Test
        /// `-` before the term: the flows it does not hold for.
        var negated: Bool

        init(_ test: Test, negated: Bool = false) {
            self.test = test
            self.negated = negated
        }
    }

    /// The search as it was typed.
    let text: String
    let terms: [Term]

    /// Reads `text`; the error names the first term that cannot be read and what it should be.
    init(_ text: String) throws(FlowQueryError) {
        self.text = text
        terms = try FlowQueryParser.terms(of: text)
    }

    var isEmpty: Bool { terms.isEmpty }

    /// The term `key:value` as the parser reads it back: the value bare when it holds no space or
    /// comma, else in double quotes; nil when it holds a double quote (the language has no escape).
    static func term(_ key: Key, _ value: String) -> String? {
        if value.contains("\"") || value.isEmpty { return nil }
        let bare = !value.contains { $0 == "," || $0.isWhitespace }
        return "\(key.rawValue):" + (bare ? value : "\"\(value)\"")
    }

    /// `fingerprint` is `value`, or begins with it followed by `_`: JA4's parts are searched
    /// whole (JA4_a, then JA4_a_b), never by a piece of one.
    static func ja4(_ fingerprint: String, isOrBeginsWith value: String) -> Bool {
        fingerprint == value || (fingerprint.hasPrefix(value) && fingerprint.dropFirst(value.count).first == "_")
    }

    func matches(_ flow: HistoryFlow) -> Bool {
        var names: [String]?
        for term in terms {
            let holds: Bool
            switch term.test {
            case .names(let needles):
                let searchable = names ?? flow.searchableNames
                names = searchable
                holds = needles.contains { needle in searchable.contains { $0.contains(needle) } }
            case .address(let ranges):
                let key = flow.stored.key
                holds = ranges.contains { $0.contains(key.endpointA.address) || $0.contains(key.endpointB.address) }
            case .port(let ranges):
                let key = flow.stored.key
                holds = (key.proto == .tcp || key.proto == .udp)
                    && ranges.contains { $0.contains(key.endpointA.port) || $0.contains(key.endpointB.port) }
            case .proto(let protocols):
                holds = protocols.contains(flow.stored.key.proto)
            case .status(let statuses):
                holds = statuses.contains(flow.stored.tlsStatus)
            case .program(let programs):
                if case .program(let facts)? = flow.stored.program { holds = programs.contains(where: facts.isNamed) } else { holds = false }
            case .ja4(let values):
                holds = flow.stored.clientFingerprints.map { print in values.contains { Self.ja4(print.ja4, isOrBeginsWith: $0) } } ?? false
            case .ja3(let values):
                holds = flow.stored.clientFingerprints.map { values.contains($0.ja3) } ?? false
            case .ja3s(let values):
                holds = flow.stored.serverFingerprints.map { values.contains($0.ja3s) } ?? false
            case .request:
                continue   // decided by the store, which read only the flows it holds for
            }
            if holds == term.negated { return false }
        }
        return true
    }

    /// The statuses every matching flow has, when a term says so (`status:a,b`, not negated; all
    /// such terms at once): what the store can narrow by before the rows are read. Nil: any.
    var requiredStatuses: Set<TLSInspectionStatus>? {
        var required: Set<TLSInspectionStatus>?
        for term in terms where !term.negated {
            if case .status(let statuses) = term.test { required = required.map { $0.intersection(statuses) } ?? statuses }
        }
        return required
    }

    /// Per name term not negated, its needles — one of which is in a matching flow's names —
    /// when none of them can be in an address's text (each holds a character outside
    /// `0-9 a-f : .`), so only the flow's names can hold it: what the store can narrow by (a
    /// superset: SNI and DNS names are ASCII, which SQLite's lower() folds as Swift does). Terms
    /// whose needles could be in an address are left to `matches`.
    var requiredNameNeedles: [[String]] {
        let addressCharacters = Set("0123456789abcdef:.")
        return terms.compactMap { term in
            guard !term.negated, case .names(let needles) = term.test,
                  needles.allSatisfy({ !$0.allSatisfy(addressCharacters.contains) }) else { return nil }
            return needles
        }
    }

    /// Each `http:` term: its needles (one must be in one of a flow's requests' heads) and
    /// whether it is negated. The store alone decides them (`FlowNarrowing.requestTerms`).
    var requestTerms: [FlowNarrowing.RequestTerm] {
        terms.compactMap { term in
            guard case .request(let needles) = term.test else { return nil }
            return FlowNarrowing.RequestTerm(needles: needles, negated: term.negated)
        }
    }

    /// Names, one of which the program of every matching flow goes by, when a term says so
    /// (the first `program:` term not negated): what the store can narrow by. Nil: any.
    var requiredPrograms: [String]? {
        for term in terms where !term.negated {
            if case .program(let names) = term.test { return names }
        }
        return nil
    }
}
