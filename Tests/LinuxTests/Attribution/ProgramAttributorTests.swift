import Dispatch
import Foundation
@testable import Linux
import Shared
import Synchronization
import Testing

/// The attributor's own rules, with a namespace that could not be found (so its answers come at
/// once, without the kernel): every flow is told why, the loop is woken once for however many
/// answers wait, and past the backlog a flow is answered at once rather than queued.
@Suite("Asking for each flow's program")
struct ProgramAttributorTests {
    static let missing = LinkStatisticsError.namespace(errno: ENOENT)
    static let local = IPEndpoint(address: IPAddress(parsing: "198.18.0.2")!, port: 40_000)
    static let remote = IPEndpoint(address: IPAddress(parsing: "198.19.0.2")!, port: 443)

    static func key(_ port: UInt16) -> FlowKey {
        FlowKey(proto: .tcp, source: IPEndpoint(address: local.address, port: port), destination: remote)
    }

    @Test("a namespace that was not found is said on every flow, and the answers wake the loop once")
    func aMissingNamespaceIsSaid() {
        let wakes = Mutex(0)
        let woken = DispatchSemaphore(value: 0)
        let attributor = ProgramAttributor(namespace: .failure(Self.missing)) {
            wakes.withLock { $0 += 1 }
            woken.signal()
        }
        for port in UInt16(1)...3 { attributor.flowOpened(Self.key(port), local: Self.local, remote: Self.remote, firstSeen: UInt64(port)) }
        #expect(woken.wait(timeout: .now() + 5) == .success)
        var answers: [ProgramAttributor.Answer] = []
        let deadline = Date().addingTimeInterval(5)
        while answers.count < 3, Date() < deadline { answers += attributor.takeAnswers() }
        #expect(answers.map(\.firstSeen) == [1, 2, 3], "in the order asked, each for its own lifetime")
        #expect(answers.allSatisfy { $0.attribution == .unavailable(Self.missing.description) })
        #expect(wakes.withLock { $0 } >= 1)
    }

    @Test("past the backlog a flow is answered at once, unavailable, and saying why")
    func theBacklogIsBounded() {
        let woken = DispatchSemaphore(value: 0)
        let attributor = ProgramAttributor(namespace: .failure(Self.missing)) { woken.signal() }
        // Nothing is taken, so every question stays counted.
        for index in 0..<ProgramAttributor.backlogLimit {
            attributor.flowOpened(Self.key(UInt16(index % 60_000) + 1), local: Self.local, remote: Self.remote, firstSeen: UInt64(index))
        }
        attributor.flowOpened(Self.key(9), local: Self.local, remote: Self.remote, firstSeen: 999_999)
        var answers: [ProgramAttributor.Answer] = []
        let deadline = Date().addingTimeInterval(10)
        while answers.count <= ProgramAttributor.backlogLimit, Date() < deadline { answers += attributor.takeAnswers() }
        let refused = answers.first { $0.firstSeen == 999_999 }
        guard case .unavailable(let reason)? = refused?.attribution else {
            Issue.record("the flow past the backlog got \(String(describing: refused))")
            return
        }
        #expect(reason.contains("too many connections opened at once"))
        #expect(answers.count == ProgramAttributor.backlogLimit + 1)
    }
}
