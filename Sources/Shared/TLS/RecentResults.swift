import Synchronization

/// The results of a pure, costly reading, kept for the inputs seen most lately and shared by every
/// thread: a capture's clients repeat one ClientHello, and its servers one certificate, thousands
/// of times (Zeek keeps certificates it meets again for the same reason), and each is read anew
/// otherwise — fingerprints and certificates were a tenth of `analyze`'s CPU on the bench capture.
///
/// Never changes an answer: only an input equal to one kept is given that one's result. Bounded:
/// once `limit` inputs are kept, it starts over. The lock is held for the lookup and the insertion,
/// never while the reading runs.
public final class RecentResults<Input: Hashable & Sendable, Output: Sendable>: Sendable {
    private let kept = Mutex<[Input: Output]>([:])
    public let limit: Int

    public init(limit: Int) {
        precondition(limit > 0, "a memo keeps at least one result")
        self.limit = limit
    }

    /// `read(input)`, or what it gave for an equal input lately.
    public func output(for input: Input, _ read: (Input) -> Output) -> Output {
        if let known = kept.withLock({ $0[input] }) { return known }
        let output = read(input)
        kept.withLock { kept in
            if kept.count >= limit { kept.removeAll(keepingCapacity: true) }
            kept[input] = output
        }
        return output
    }

    /// How many results are kept now.
    public var count: Int { kept.withLock { $0.count } }
}
