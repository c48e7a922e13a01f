import CTunnelVision
import Synchronization

/// The signals tunnelvision was started with ignored — `nohup` ignores HUP, a shell's background
/// job may ignore INT and QUIT. Exec keeps an ignored signal ignored, so a shell's children start
/// with them ignored too, and so does CMD; every other disposition starts at its default. Read
/// once, first thing in the program, before it sets any disposition of its own (SIGPIPE).
package enum InheritedSignals {
    private static let recorded = Atomic<UInt64>(0)

    /// Call before any `signal`/`sigaction` of the program's own.
    package static func record() { recorded.store(ctv_ignored_signals(), ordering: .relaxed) }

    /// Bit N-1 for signal N.
    package static var ignored: UInt64 { recorded.load(ordering: .relaxed) }

    /// The signal numbers in `mask`, for messages and tests.
    package static func signals(in mask: UInt64) -> [Int32] {
        (1...64).filter { mask >> UInt64($0 - 1) & 1 == 1 }.map(Int32.init)
    }
}
