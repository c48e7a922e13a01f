import Foundation

/// Waits for `condition`, asked every `poll`, up to `seconds`; whether it held. Tests wait on
/// conditions with a deadline, never a fixed sleep.
package func eventually(within seconds: Double = 10, poll: UInt32 = 20_000, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(poll)
    }
    return try condition()
}

/// Waits for `condition`, asked every `poll`, at most `within / poll` times; whether it held.
/// Counted in looks, not by the clock: under the whole suite a test that holds the cooperative
/// pool can freeze every task for a while, and a clock's deadline would pass before the task
/// under test ever had a turn. From async code, name `within` (a `Duration`): with a synchronous
/// condition and no arguments the blocking form above matches too, and Swift cannot choose.
package func eventually(within: Duration = .seconds(10), poll: Duration = .milliseconds(20),
                       _ condition: () async throws -> Bool) async rethrows -> Bool {
    let looks = max(1, Int(within / poll))
    for _ in 0..<looks {
        if try await condition() { return true }
        try? await Task.sleep(for: poll)
    }
    return try await condition()
}
