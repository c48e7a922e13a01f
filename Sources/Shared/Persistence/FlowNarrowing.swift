import Foundation

/// What the store narrows a read of `flows` to before any row is read, so a rare kind is found
/// however far back it lies: each dimension left empty (or nil) lets everything through. Bound
/// values keep the SQL to a few texts, each prepared once; parameters ?4 to ?10 are its own.
package struct FlowNarrowing: Sendable, Equatable {
    /// Only these statuses.
    package var statuses: Set<TLSInspectionStatus> = []
    /// Only flows with one of these inspection reasons (a flow without one never matches).
    package var reasons: Set<InspectionReasonKind> = []
    /// Only flows whose program one of these names (`ProgramFacts.isNamed`).
    package var programs: Set<String> = []
    /// Only these protocols.
    package var protocols: Set<IPProtocolNumber> = []
    /// Only flows active during the stretch (overlapping it).
    package var during: ClosedRange<Date>?
    /// Only flows whose SNI, DNS question, DNS name or other DNS names (lowercased, joined by spaces) hold one
    /// needle of every list (the needles lowercase).
    package var nameNeedles: [[String]] = []
    /// Only flows one of whose inspected requests' heads (`http_requests`, lowercase) holds one
    /// of each term's needles — or, for a negated term, none of whose heads holds any. Each term
    /// binds its own parameter, from ?11.
    package var requestTerms: [RequestTerm] = []

    package struct RequestTerm: Sendable, Equatable {
        package let needles: [String]
        package let negated: Bool

        package init(needles: [String], negated: Bool) {
            self.needles = needles
            self.negated = negated
        }
    }

    /// The first parameter of `requestTerms`.
    static let firstRequestParameter: Int32 = 11

    package init(statuses: Set<TLSInspectionStatus> = [], reasons: Set<InspectionReasonKind> = [], programs: Set<String> = [],
                protocols: Set<IPProtocolNumber> = [], during: ClosedRange<Date>? = nil) {
        self.statuses = statuses
        self.reasons = reasons
        self.programs = programs
        self.protocols = protocols
        self.during = during
    }

    package static let none = FlowNarrowing()

    /// The conditions, to join with AND: a status is one bit of ?4; the reasons are one string
    /// ",a,b," that a reason's ",name," is found in, and the protocols likewise in ?9.
    var conditions: [String] {
        var conditions: [String] = []
        if !statuses.isEmpty { conditions.append("(?4 >> tls_status) & 1 = 1") }
        if !reasons.isEmpty { conditions.append("instr(?5, ',' || inspection_reason || ',') > 0") }
        if !programs.isEmpty { conditions.append(FlowStore.programNamedSQL) }
        if during != nil { conditions.append("last_seen >= ?7 AND first_seen <= ?8") }
        if !protocols.isEmpty { conditions.append("instr(?9, ',' || proto || ',') > 0") }
        // ?10: a JSON array of lists of needles; no list may lack a needle found in the names.
        if !nameNeedles.isEmpty {
            conditions.append("""
                NOT EXISTS (SELECT 1 FROM json_each(?10) AS term WHERE NOT EXISTS (SELECT 1 FROM json_each(term.value) AS needle \
                WHERE instr(lower(coalesce(sni, '') || ' ' || coalesce(proxy_host, '') || ' ' || coalesce(dns_query, '') || ' ' \
                || coalesce(dns_name, '') || ' ' \
                || coalesce(dns_other_names, '')), \
                needle.value) > 0))
                """)
        }
        // The matching heads are found once per term (a few rows: only inspected flows have any).
        for (index, term) in requestTerms.enumerated() {
            conditions.append("""
                id \(term.negated ? "NOT IN" : "IN") (SELECT r.flow_id FROM http_requests AS r, json_each(?\(Self.firstRequestParameter + Int32(index))) \
                AS needle WHERE instr(r.text, needle.value) > 0)
                """)
        }
        return conditions
    }

    func bind(to statement: SQLiteStatement) {
        if !statuses.isEmpty { statement.bind(statuses.reduce(Int64(0)) { $0 | Int64(1) << Int64($1.rawValue) }, at: 4) }
        if !reasons.isEmpty { statement.bind(Self.list(reasons.map(\.rawValue)), at: 5) }
        if !programs.isEmpty { statement.bind(FlowStore.jsonArray(programs.map(ProgramFacts.folded).sorted()), at: 6) }
        if let during {
            statement.bind(EpochNanoseconds.first(notBefore: during.lowerBound), at: 7)
            statement.bind(EpochNanoseconds.last(notAfter: during.upperBound), at: 8)
        }
        if !protocols.isEmpty { statement.bind(Self.list(protocols.map { "\($0.rawValue)" }), at: 9) }
        if !nameNeedles.isEmpty {
            var out = JSONWriter()
            out.beginArray()
            for needles in nameNeedles {
                out.beginArray()
                for needle in needles { out.element(needle) }
                out.endArray()
            }
            out.endArray()
            statement.bind(out.writer.string, at: 10)
        }
        for (index, term) in requestTerms.enumerated() {
            statement.bind(FlowStore.jsonArray(term.needles), at: Self.firstRequestParameter + Int32(index))
        }
    }

    private static func list(_ words: [String]) -> String { "," + words.sorted().joined(separator: ",") + "," }
}
