import Foundation
import Shared

/// What the history knows of the connections the dashboard shows — each one's row id (what its
/// Flow Inspector opens) and name — asked for a few at a time: the store is the tunnel's, busy
/// writing, so a frame asks for at most `lookupsPerRound` connections it has not asked about (or
/// asked about more than `retryAfter` ago without finding them named — the history writes a new
/// connection a moment after its first packets, and its name when the handshake or the DNS
/// answer gives one). Bounded: past `capacity` entries the oldest answers are forgotten.
package struct LiveDashboardNames: Sendable, Equatable {
    private struct Entry: Sendable, Equatable {
        var flowID: Int64?
        var name: String?
        var askedAt: Date
    }

    /// A host's name and the connection that gave it.
    package struct HostName: Sendable, Equatable {
        package let name: String
        package let flowID: Int64
    }

    package let lookupsPerRound: Int
    package let retryAfter: TimeInterval
    package let capacity: Int
    private var flows: [FlowKey: Entry] = [:]
    private var hosts: [IPAddress: HostName] = [:]

    package init(lookupsPerRound: Int = 4, retryAfter: TimeInterval = 3, capacity: Int = 2048) {
        self.lookupsPerRound = lookupsPerRound
        self.retryAfter = retryAfter
        self.capacity = capacity
    }

    /// The connections among `wanted` (in the order given, the most visible first) to ask about now.
    package func due(_ wanted: [FlowKey], now: Date) -> [FlowKey] {
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

    /// The history's answer for `key`: its row id (nil: the history does not know the connection
    /// yet) and its name (nil: none known).
    package mutating func record(_ key: FlowKey, flowID: Int64?, name: String?, remote: IPAddress?, now: Date) {
        if flows.count >= capacity, flows[key] == nil {
            let oldest = flows.min { $0.value.askedAt < $1.value.askedAt }?.key
            if let oldest { flows[oldest] = nil }
            if hosts.count >= capacity { hosts.removeAll() }
        }
        flows[key] = Entry(flowID: flowID, name: name, askedAt: now)
        if let name, let remote, let flowID { hosts[remote] = HostName(name: name, flowID: flowID) }
    }

    /// Forgets every answer (a new session's connections are new rows of the history).
    package mutating func forgetAll() {
        flows.removeAll()
        hosts.removeAll()
    }

    package func name(of key: FlowKey) -> String? { flows[key]?.name ?? nil }
    /// The history's row of the connection, when it has one.
    package func flowID(of key: FlowKey) -> Int64? { flows[key]?.flowID ?? nil }
    /// A host's name: the one of any of its connections the history named.
    package func name(ofHost address: IPAddress) -> String? { hosts[address]?.name }
    /// A host's name with the connection it came from.
    package func hostName(of address: IPAddress) -> HostName? { hosts[address] }
}
