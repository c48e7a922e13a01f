/// The hosts whose clients refused our leaf during this run (ADR 0003): their later connections
/// pass through untouched, never attempted again. Bounded: past `capacity` the host remembered
/// longest ago is forgotten — the one cost of that is a single further attempt, which its client
/// refuses the same way.
package struct PinnedHostMemory: Sendable {
    package let capacity: Int
    private var hosts: Set<String> = []
    /// Oldest first, for the bound.
    private var order: [String] = []
    private var oldest = 0

    package init(capacity: Int = 4096) {
        precondition(capacity > 0, "a memory that holds nothing would retry every pinned host")
        self.capacity = capacity
    }

    package var count: Int { hosts.count }

    package func contains(_ host: String) -> Bool { hosts.contains(Self.normalized(host)) }

    package mutating func remember(_ host: String) {
        let host = Self.normalized(host)
        guard hosts.insert(host).inserted else { return }
        order.append(host)
        if hosts.count > capacity {
            hosts.remove(order[oldest])
            oldest += 1
            // Compact now and then, so the list does not grow with every host ever forgotten.
            if oldest > capacity {
                order.removeFirst(oldest)
                oldest = 0
            }
        }
    }

    /// Host names compare without case (RFC 4343); the scanner already lowercases SNI.
    private static func normalized(_ host: String) -> String { host.lowercased() }
}
