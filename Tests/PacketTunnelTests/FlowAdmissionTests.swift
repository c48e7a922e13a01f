import Shared
import Testing
@testable import PacketTunnel

@Suite struct FlowAdmissionTests {
    typealias Tail = FlowAdmission.LaneTail

    func tail(_ slot: Int, silentFor: UInt64, timeout: UInt64 = 300, closing: Bool = false, recency: UInt64 = 0) -> Tail {
        Tail(slot: slot, silentFor: silentFor, timeout: timeout, isClosing: closing, recency: recency)
    }

    @Test("a table with room admits, whatever its lanes hold")
    func roomAdmits() {
        #expect(FlowAdmission.decide(count: 9, maxFlows: 10, tails: [tail(1, silentFor: 0)], whenFull: .refuseUnlessOver) == .admit)
    }

    @Test("a full table of live flows refuses the newcomer rather than end any of them")
    func fullOfLiveFlowsRefuses() {
        let tails = [tail(1, silentFor: 299), tail(2, silentFor: 119, timeout: 120), tail(3, silentFor: 9, timeout: 10)]
        #expect(FlowAdmission.decide(count: 10, maxFlows: 10, tails: tails, whenFull: .refuseUnlessOver) == .refuse)
        #expect(FlowAdmission.decide(count: 10, maxFlows: 10, tails: [], whenFull: .refuseUnlessOver) == .refuse)
    }

    @Test("a closing flow makes room first, even one just ended, before any idle flow")
    func closingGoesFirst() {
        let tails = [tail(1, silentFor: 1_000), tail(7, silentFor: 0, timeout: 10, closing: true)]
        #expect(FlowAdmission.decide(count: 10, maxFlows: 10, tails: tails, whenFull: .refuseUnlessOver) == .admitAfterEnding(slot: 7))
    }

    @Test("among flows silent past their timeout, the one furthest past it makes room")
    func furthestPastTimeout() {
        let tails = [tail(1, silentFor: 310), tail(2, silentFor: 60, timeout: 10), tail(3, silentFor: 5, timeout: 10)]
        #expect(FlowAdmission.decide(count: 10, maxFlows: 10, tails: tails, whenFull: .refuseUnlessOver) == .admitAfterEnding(slot: 2))
    }

    @Test("offline, the least recently used flow of all lanes is ended early, however live")
    func offlineEndsLeastRecent() {
        let tails = [tail(1, silentFor: 0, recency: 5), tail(2, silentFor: 0, recency: 3), tail(3, silentFor: 0, recency: 4)]
        #expect(FlowAdmission.decide(count: 3, maxFlows: 3, tails: tails, whenFull: .endLeastRecent) == .admitAfterEnding(slot: 2))
    }
}

@Suite struct TCPConnectionStartTests {
    @Test("a retransmitted SYN is the same connection; a SYN with another ISN, or after the end, is another")
    func synRules() {
        #expect(!TCPConnectionStart.beginsAnotherConnection(flags: [.syn], sequence: 7, openingSequence: 7, previousEnded: false))
        #expect(TCPConnectionStart.beginsAnotherConnection(flags: [.syn], sequence: 8, openingSequence: 7, previousEnded: false))
        #expect(TCPConnectionStart.beginsAnotherConnection(flags: [.syn], sequence: 7, openingSequence: 7, previousEnded: true))
        #expect(TCPConnectionStart.beginsAnotherConnection(flags: [.syn], sequence: 7, openingSequence: nil, previousEnded: false))
    }

    @Test("only a SYN without ACK or RST begins anything")
    func onlyAPureSyn() {
        for flags: TCPFlags in [[.syn, .ack], [.ack], [.fin, .ack], [.rst], [.syn, .rst]] {
            #expect(!TCPConnectionStart.beginsAnotherConnection(flags: flags, sequence: 1, openingSequence: 2, previousEnded: true))
        }
    }
}
