import Testing
@testable import App

/// Who gives way at the cap, directly: never a connection that showed the cookie; of the others,
/// the oldest.
@Suite("WebAdmission")
struct WebAdmissionTests {
    static func open(_ spec: [(accepted: UInt64, authenticated: Bool)]) -> [WebAdmission.Connection] {
        spec.enumerated().map { WebAdmission.Connection(id: Int32(100 + $0.offset), accepted: $0.element.accepted,
                                                        authenticated: $0.element.authenticated) }
    }

    @Test("below the cap every newcomer is admitted, whoever is open")
    func belowCap() {
        #expect(WebAdmission.decide(open: [], maximum: 4) == .admit)
        #expect(WebAdmission.decide(open: Self.open([(1, false), (2, false), (3, true)]), maximum: 4) == .admit)
    }

    @Test("at the cap the oldest connection without the cookie gives way, wherever it sits among the others")
    func evictsOldestUnauthenticated() {
        let open = Self.open([(7, false), (2, true), (5, false), (3, false), (1, true)])
        #expect(WebAdmission.decide(open: open, maximum: 5) == .evict(103))   // accepted 3: the oldest without the cookie
        #expect(WebAdmission.decide(open: open.shuffled(), maximum: 5) == .evict(103), "the order given does not matter")
        #expect(WebAdmission.decide(open: open, maximum: 3) == .evict(103), "over the cap, still one at a time")
    }

    @Test("with only authenticated connections open, the newcomer is refused and none of them closed")
    func neverEvictsTheOwner() {
        #expect(WebAdmission.decide(open: Self.open([(1, true), (2, true)]), maximum: 2) == .refuse)
    }

    @Test("a flood of newcomers only ever replaces flood connections: the owner's survive any number of rounds")
    func flood() {
        var open = Self.open([(0, true), (1, true)])   // the owner's page and its event stream
        var next: UInt64 = 2
        var evicted: [Int32] = []
        for round in 0..<1000 {
            switch WebAdmission.decide(open: open, maximum: 256) {
            case .admit: break
            case .evict(let victim):
                evicted.append(victim)
                open.removeAll { $0.id == victim }
            case .refuse: Issue.record("refused at round \(round)")
            }
            open.append(WebAdmission.Connection(id: Int32(1000 + round), accepted: next, authenticated: false))
            next += 1
        }
        #expect(open.count == 256)
        #expect(open.filter(\.authenticated).count == 2)
        #expect(!evicted.contains(100) && !evicted.contains(101))
        #expect(evicted == (0..<Int32(1000 - 254)).map { 1000 + $0 }, "oldest first")
    }
}
