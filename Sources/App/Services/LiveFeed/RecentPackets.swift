/// The newest `capacity` packets in arrival order, in fixed memory: a circular buffer, so keeping
/// the last 500 of a flood costs one store per packet, not a shift of the whole list.
package struct RecentPackets: Sendable, Equatable {
    package let capacity: Int
    private var storage: [LivePacket] = []
    private var next = 0

    package init(capacity: Int) {
        self.capacity = max(0, capacity)
        storage.reserveCapacity(self.capacity)
    }

    package mutating func append(_ packet: LivePacket) {
        guard capacity > 0 else { return }
        if storage.count < capacity {
            storage.append(packet)
        } else {
            storage[next] = packet
        }
        next = (next + 1) % capacity
    }

    /// Oldest first.
    package var packets: [LivePacket] {
        storage.count < capacity ? storage : Array(storage[next...] + storage[..<next])
    }

    package mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        next = 0
    }
}
