import Shared
import Testing

/// What a change of the system's resolver configuration does to what the tunnel announces.
@Suite("ResolverStatus: a network change, counted and learnt")
struct ResolverStatusChangeTests {
    static func address(_ text: String) -> IPAddress { IPAddress(parsing: text)! }

    @Test("other usable servers are learnt and announced; the change counts as learnt")
    func otherServersAreLearnt() {
        var status = ResolverStatus(announced: ["198.18.5.1"], reportedAtStart: ["198.18.5.1"])
        let learnt = status.noteNetworkChange(reported: [Self.address("127.0.0.53"), Self.address("198.18.6.1")])
        #expect(learnt == [Self.address("198.18.6.1")])
        #expect(status.announced == ["198.18.6.1"] && status.reportedNow == ["127.0.0.53", "198.18.6.1"])
        #expect(status.networkChanges == 1 && status.networkChangesLearned == 1)
    }

    @Test("the same servers, none usable, or an unreadable file: counted, nothing learnt, the old servers kept")
    func nothingNewIsCountedOnly() {
        var status = ResolverStatus(announced: ["198.18.5.1"], reportedAtStart: ["198.18.5.1"])
        #expect(status.noteNetworkChange(reported: [Self.address("198.18.5.1")]) == nil)
        #expect(status.noteNetworkChange(reported: [Self.address("127.0.0.53")]) == nil)
        #expect(status.noteNetworkChange(reported: nil) == nil)
        #expect(status.announced == ["198.18.5.1"] && status.reportedNow == nil)
        #expect(status.networkChanges == 3 && status.networkChangesLearned == 0)
    }
}
