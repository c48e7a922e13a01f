import Foundation
import Shared

/// The names the history knows for what the dashboard shows, asked for a few at a time: the store
/// is the tunnel's, busy writing, so a frame asks for at most `lookupsPerRound` connections it has
/// not asked about (or asked about more than `retryAfter` ago without an answer — the history
/// writes a new connection a moment after its first packets). Bounded: past `capacity` entries
/// the oldest answers are forgotten.
public struct LiveDashboardNames: Sendable, Equatable {
    private struct Entry: Sendable, Equatable {
        var name: String?
        var askedAt: Date
    }

    public let lookupsPerRound: Int
    public let retryAfter: TimeInterval
    public let capacity: Int
    private var flows: [FlowKey: Entry] = [:]
    private var hosts: [IPAddress: String] = [:]

    public init(lookupsPerRound: Int = 4, retryAfter: TimeInterval = 10, capacity: Int = 2048) {
        self.lookupsPerRound = lookupsPerRound
        self.retryAfter = retryAfter
        self.capacity = capacity
    }

    /// The connections among `wanted` (in the order given, the most visible first) to ask about now.
    public func due(_ wanted: [FlowKey], now: Date) -> [FlowKey] {
        var picked: [FlowKey] = []
        var seen: Set<FlowKey> = []
        for key in wanted where picked.count < lookupsPerRound && seen.insert(key).inserted {
            guard let entry = flows[key] else {
                picked.append(key)
                continue
            }
            if entry.name == nil, now.timeIntervalSince(entry.askedAt) >= retryAfter { picked.append(key) }
        }
        return picked
    }

    /// The history's answer for `key` (nil: it does not know the connection, or knows no name).
    public mutating func record(_ key: FlowKey, name: String?, remote: IPAddress?, now: Date) {
        if flows.count >= capacity, flows[key] == nil {
            let oldest = flows.min { $0.value.askedAt < $1.value.askedAt }?.key
            if let oldest { flows[oldest] = nil }
            if hosts.count >= capacity { hosts.removeAll() }
        }
        flows[key] = Entry(name: name, askedAt: now)
        if let name, let remote { hosts[remote] = name }
    }

    public func name(of key: FlowKey) -> String? { flows[key]?.name ?? nil }
    /// A host's name: the one of any of its connections the history named.
    public func name(ofHost address: IPAddress) -> String? { hosts[address] }
}
