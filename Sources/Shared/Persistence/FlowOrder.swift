/// An order the store lists flows in (`flows(in:…)`): a key and a direction, ties broken by id
/// in the same direction, so every order is total and a cursor (`FlowCursor`: the last row's
/// value and id) says exactly where the next page starts.
///
/// Each key's value is one SQL expression over a `flows` row, selected with the rows (the
/// cursor is made of what SQLite compared, never recomputed in Swift) and indexed as written
/// (`Schema`'s `flows_by_*` indexes), so a first page in any order reads a page of index
/// entries instead of sorting the whole history.
package struct FlowOrder: Sendable, Hashable {
    package enum Key: String, Sendable, CaseIterable {
        /// Last activity: the history's own order.
        case time
        /// The name (SNI, else the DNS name) as text, then — for unnamed flows, after every
        /// name — the remote address's bytes.
        case host
        /// The command of the program that opened it; flows with no program named come after.
        case program
        /// The remote port.
        case port
        /// The IP protocol number (ICMP 1, TCP 6, UDP 17, ICMPv6 58).
        case `protocol`
        /// The encryption status, in `TLSInspectionStatus`'s order.
        case status
        /// Bytes received, sent; packets.
        case received, sent, packets
        /// Last activity minus first.
        case duration
    }

    package var key: Key
    package var descending: Bool

    package init(_ key: Key, descending: Bool) {
        self.key = key
        self.descending = descending
    }

    /// The most recently active first: what every list did before orders existed.
    package static let newestFirst = FlowOrder(.time, descending: true)

    /// The remote end of the stored key: the other end than `local_end` when it was recorded,
    /// else the end that is not the tunnel's own address (`TunnelAddressing.localAddresses`, as
    /// `LiveFeedAddressing` splits it), else B (what a row shows when the ends cannot be told).
    static func remote(_ column: String) -> String {
        let locals = TunnelAddressing.localAddresses.sorted().map { address in
            "X'" + String(decoding: address.bytes.flatMap { [ASCIIWriter.hexDigit($0 >> 4), ASCIIWriter.hexDigit($0 & 0xf)] }, as: UTF8.self) + "'"
        }.joined(separator: ", ")
        return "CASE WHEN local_end = 1 THEN \(column)_a WHEN local_end = 0 THEN \(column)_b "
            + "WHEN addr_b IN (\(locals)) AND addr_a NOT IN (\(locals)) THEN \(column)_a ELSE \(column)_b END"
    }

    /// The key's value for a row: never NULL, so comparisons and cursors need no NULL rules.
    package static func expression(_ key: Key) -> String {
        switch key {
        case .time: "last_seen"
        // The name the flow is shown by (`FlowName`), else its remote address.
        case .host: "coalesce(nullif(sni, ''), proxy_name, nullif(dns_query, ''), nullif(dns_name, ''), \(remote("addr")))"
        case .program: "coalesce(program_command, X'')"
        case .port: remote("port")
        case .protocol: "proto"
        case .status: "tls_status"
        case .received: "bytes_in"
        case .sent: "bytes_out"
        case .packets: "packet_count"
        case .duration: "(last_seen - first_seen)"
        }
    }

    var expression: String { Self.expression(key) }

    /// `ORDER BY` for this order, ties by id the same way.
    var orderingSQL: String {
        let direction = descending ? "DESC" : "ASC"
        return "\(expression) \(direction), id \(direction)"
    }

    /// The rows after a cursor bound at `?value, ?id`: the row value compares as the order runs.
    func afterSQL(value: Int32, id: Int32) -> String {
        "(\(expression), id) \(descending ? "<" : ">") (?\(value), ?\(id))"
    }
}
