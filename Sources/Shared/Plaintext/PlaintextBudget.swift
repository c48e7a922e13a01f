/// How much of one flow's decrypted content is kept: a byte budget per direction (requests are
/// small, responses huge — one shared budget would let a response starve its request). **The
/// beginning is kept**: once a direction's budget is spent nothing more of it is stored and
/// nothing old is dropped; what did not fit is counted. A budget of 0 keeps nothing.
public struct PlaintextBudget: Sendable, Equatable {
    /// 64 KiB per direction.
    public static let defaultBytesPerDirection = 64 << 10

    public let bytesPerDirection: Int
    private var used: [Int] = [0, 0]

    public init(bytesPerDirection: Int = PlaintextBudget.defaultBytesPerDirection) {
        self.bytesPerDirection = max(0, bytesPerDirection)
    }

    /// Bytes still to be kept in `direction`.
    public func remaining(_ direction: Direction) -> Int { bytesPerDirection - used[Int(direction.rawValue)] }

    /// Both directions are spent: nothing more of this flow will be kept.
    public var isExhausted: Bool { remaining(.outbound) == 0 && remaining(.inbound) == 0 }

    /// Spends what fits of a chunk of `length` bytes in `direction`: its first `stored` bytes are
    /// kept, the rest `dropped`.
    public mutating func admit(_ length: Int, direction: Direction) -> PlaintextTruncation {
        let stored = min(max(0, length), remaining(direction))
        used[Int(direction.rawValue)] += stored
        return PlaintextTruncation(stored: stored, dropped: max(0, length) - stored)
    }
}

/// What the budget made of one chunk: the first `stored` bytes are kept, `dropped` are counted.
public struct PlaintextTruncation: Sendable, Equatable {
    public let stored: Int
    public let dropped: Int

    public init(stored: Int, dropped: Int) {
        self.stored = stored
        self.dropped = dropped
    }

    public var isTruncated: Bool { dropped > 0 }
    /// Nothing to write: the chunk was empty or the budget spent.
    public var storesNothing: Bool { stored == 0 }
}
