import Synchronization

/// The results of a pure, costly reading, kept for the inputs seen most lately and shared by every
/// thread: a capture's clients repeat one ClientHello, and its servers one certificate, thousands
/// of times (Zeek keeps certificates it meets again for the same reason), and each is read anew
/// otherwise — fingerprints and certificates were a tenth of `analyze`'s CPU on the bench capture.
///
/// Never changes an answer: only an input equal to one kept is given that one's result. Bounded:
/// once `limit` inputs are kept, it starts over. The lock is held for the lookup and the insertion,
/// never while the reading runs.
package final class RecentResults<Input: Hashable & Sendable, Output: Sendable>: Sendable {
    private let memo: Mutex<BoundedMemo<Input, Output>>

    package init(limit: Int) {
        memo = Mutex(BoundedMemo(limit: limit))
    }

    /// `read(input)`, or what it gave for an equal input lately.
    package func output(for input: Input, _ read: (Input) -> Output) -> Output {
        if let known = memo.withLock({ $0.output(for: input) }) { return known }
        let output = read(input)
        memo.withLock { $0.keep(output, for: input) }
        return output
    }

    /// How many results are kept now.
    package var count: Int { memo.withLock { $0.count } }
}
