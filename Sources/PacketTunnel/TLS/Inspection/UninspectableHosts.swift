import Shared

/// The hosts found not to be inspectable during this run, each with why (ADR 0003): its client
/// refused the run's certificate, the server asks for the app's own certificate, or the server
/// failed the upstream's verification. Their later connections pass through untouched, never
/// attempted again. A host is a name at a port: inspection covers every port, and one name's
/// services (a site on 443, a client-certificate API on 8443) are not one server. Bounded: past
/// `capacity` the host remembered longest ago is forgotten — the one cost of that is a single
/// further attempt, which ends the same way.
package struct UninspectableHosts: Sendable {
    private struct Host: Hashable {
        let name: String
        let port: UInt16
    }

    package let capacity: Int
    private var reasons: [Host: InspectionReason] = [:]
    /// Oldest first, for the bound.
    private var order: [Host] = []
    private var oldest = 0

    package init(capacity: Int = 4096) {
        precondition(capacity > 0, "a memory that holds nothing would retry every refusing host")
        self.capacity = capacity
    }

    package var count: Int { reasons.count }

    package func contains(_ name: String, port: UInt16) -> Bool { reason(for: name, port: port) != nil }

    /// Why `name` at `port` is not inspectable, when it is remembered.
    package func reason(for name: String, port: UInt16) -> InspectionReason? { reasons[Self.host(name, port)] }

    /// Remembers `name` at `port`; a host already remembered keeps its first reason.
    package mutating func remember(_ name: String, port: UInt16, _ reason: InspectionReason) {
        let host = Self.host(name, port)
        guard reasons[host] == nil else { return }
        reasons[host] = reason
        order.append(host)
        if reasons.count > capacity {
            reasons[order[oldest]] = nil
            oldest += 1
            // Compact now and then, so the list does not grow with every host ever forgotten.
            if oldest > capacity {
                order.removeFirst(oldest)
                oldest = 0
            }
        }
    }

    /// Host names compare without case (RFC 4343); the scanner already lowercases SNI.
    private static func host(_ name: String, _ port: UInt16) -> Host { Host(name: name.lowercased(), port: port) }
}
