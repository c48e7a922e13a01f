import Foundation
import Shared

/// The recording stops of one tunnel session, as they happen: each is handed on to the person's
/// `tell` at once (from the loop's thread or the history writer's task, so `tell` must not wait)
/// and kept for the summary. `@unchecked Sendable`: the list sits behind its `NSLock`.
package final class RecordingStopLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stops: [RecordingStop] = []
    private let tell: (@Sendable (RecordingStop) -> Void)?

    package init(tell: (@Sendable (RecordingStop) -> Void)?) { self.tell = tell }

    package func record(_ stop: RecordingStop) {
        lock.withLock { stops.append(stop) }
        tell?(stop)
    }

    /// Every stop so far, in the order they happened.
    package var all: [RecordingStop] { lock.withLock { stops } }
}
