import Testing
@testable import Shared

@Suite struct PlaintextBudgetTests {
    @Test("a chunk fits whole, then in part: the beginning is kept and the overflow counted")
    func fitsThenInPart() {
        var budget = PlaintextBudget(bytesPerDirection: 10)
        #expect(budget.admit(6, direction: .outbound) == PlaintextTruncation(stored: 6, dropped: 0))
        let second = budget.admit(7, direction: .outbound)
        #expect(second == PlaintextTruncation(stored: 4, dropped: 3))
        #expect(second.isTruncated)
        #expect(budget.admit(5, direction: .outbound) == PlaintextTruncation(stored: 0, dropped: 5))
    }

    @Test("each direction has its own budget, and exhaustion needs both spent")
    func perDirection() {
        var budget = PlaintextBudget(bytesPerDirection: 4)
        _ = budget.admit(100, direction: .inbound)
        #expect(budget.remaining(.inbound) == 0)
        #expect(!budget.isExhausted)
        #expect(budget.admit(3, direction: .outbound).stored == 3)
        _ = budget.admit(1, direction: .outbound)
        #expect(budget.isExhausted)
    }

    @Test("a zero budget keeps nothing; the default is 64 KiB per direction")
    func zeroAndDefault() {
        var none = PlaintextBudget(bytesPerDirection: 0)
        #expect(none.admit(10, direction: .outbound) == PlaintextTruncation(stored: 0, dropped: 10))
        #expect(none.isExhausted)
        #expect(PlaintextBudget().bytesPerDirection == 65_536)
    }
}
