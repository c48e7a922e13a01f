import Foundation

/// Waits for `condition`, asked every `poll`, up to `seconds`; whether it held. Tests wait on
/// conditions with a deadline, never a fixed sleep.
public func eventually(within seconds: Double = 10, poll: UInt32 = 20_000, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(poll)
    }
    return try condition()
}
