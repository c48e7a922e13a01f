import Shared

/// The orders a person can ask the timeline for, in their words: `--sort KEY[:asc|desc]` and the
/// API's `sort=` take `time`, `host`, `program`, `port`, `protocol`, `status`, `received`, `sent`,
/// `packets`, `duration`. A key alone runs its natural way — the newest, the most or the longest
/// first for time and figures, A to Z and low to high for names, ports, protocols and statuses.
package enum HistorySort {
    /// What a key alone means: figures and time descending, the rest ascending.
    package static func natural(_ key: FlowOrder.Key) -> FlowOrder {
        switch key {
        case .time, .received, .sent, .packets, .duration: FlowOrder(key, descending: true)
        case .host, .program, .port, .protocol, .status: FlowOrder(key, descending: false)
        }
    }

    /// `KEY` or `KEY:asc` / `KEY:desc` (any case); nil when it is neither.
    package static func parse(_ text: String) -> FlowOrder? {
        let parts = text.lowercased().split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let key = FlowOrder.Key(rawValue: String(parts[0])) else { return nil }
        guard parts.count == 2 else { return natural(key) }
        switch parts[1] {
        case "asc": return FlowOrder(key, descending: false)
        case "desc": return FlowOrder(key, descending: true)
        default: return nil
        }
    }

    /// The sentence that refuses `text`, naming every key.
    package static func refusal(_ text: String, command: String) -> String {
        "\(command): unknown sort '\(text)': give one of \(keys) — alone, or followed by :asc or :desc"
    }

    /// `time, host, program, …`.
    package static var keys: String { FlowOrder.Key.allCases.map(\.rawValue).joined(separator: ", ") }

    /// `received:desc`: what `parse` reads back.
    package static func word(_ order: FlowOrder) -> String {
        "\(order.key.rawValue):\(order.descending ? "desc" : "asc")"
    }

    /// What the rows are sorted by, for a sentence: "last activity", "bytes received"…
    package static func label(_ key: FlowOrder.Key) -> String {
        switch key {
        case .time: "last activity"
        case .host: "host"
        case .program: "program"
        case .port: "remote port"
        case .protocol: "protocol"
        case .status: "encryption status"
        case .received: "bytes received"
        case .sent: "bytes sent"
        case .packets: "packets"
        case .duration: "duration"
        }
    }

    /// "bytes received, most first", "host, A to Z": the order as a person says it.
    package static func sentence(_ order: FlowOrder) -> String {
        let way: String
        switch order.key {
        case .time: way = order.descending ? "newest first" : "oldest first"
        case .host, .program: way = order.descending ? "Z to A" : "A to Z"
        case .port, .protocol: way = order.descending ? "highest first" : "lowest first"
        case .status: way = order.descending ? "in reverse order" : "in the order of the status list"
        case .received, .sent, .packets: way = order.descending ? "most first" : "fewest first"
        case .duration: way = order.descending ? "longest first" : "shortest first"
        }
        return "\(label(order.key)), \(way)"
    }
}
