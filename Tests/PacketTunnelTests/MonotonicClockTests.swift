import Testing
import Shared
@testable import PacketTunnel

@Suite struct MonotonicClockTests {
    @Test func theSystemClockNeverGoesBackAndIsTheAnchorsClock() {
        let clock = SystemMonotonicClock()
        let anchor = MonotonicAnchor.now()
        var previous = clock.nanoseconds()
        #expect(previous >= anchor.uptimeNanoseconds)
        for _ in 0..<10_000 {
            let now = clock.nanoseconds()
            #expect(now >= previous)
            previous = now
        }
        #expect(previous - anchor.uptimeNanoseconds < 60_000_000_000)
    }
}
