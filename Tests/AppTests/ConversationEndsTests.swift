import App
import Fixtures
import Foundation
import Shared
import Testing

/// A connection's ends as the screens present them: this machine and the other end when the
/// history can tell them apart, both ends as they are when neither is this machine's.
@Suite struct ConversationEndsTests {
    @Test("a connection of this machine's is this machine and the other end, the other end's address its label")
    func thisMachinesConnection() async throws {
        let history = try InspectorHistory()
        let id = try await history.record(InspectorHistory.tcpKey, try InspectorHistory.tcpConversation(), sni: "example.test")
        let stored = try #require(try await history.store.flow(id: id))
        let ends = ConversationEnds(HistoryFlow(stored))
        #expect(ends.includesThisMachine && ends.note == nil)
        #expect(ends.label == "198.18.0.1" && ends.unnamed == "no name was seen; this is its address")
        #expect(ends.facts.map(\.label) == ["This machine", "Other end"])
        #expect(ends.facts.map(\.value) == ["198.18.0.2 port 40000", "198.18.0.1 port 443"])
        try await history.close()
    }

    @Test("a conversation between two other machines is never drawn as this machine's: both ends as stored, and said so")
    func neitherEndIsThisMachine() async throws {
        let history = try InspectorHistory()
        let id = try await history.record(InspectorHistory.tcpKey, try InspectorHistory.tcpConversation(), sni: nil)
        let stored = try #require(try await history.store.flow(id: id))
        let flow = HistoryFlow(stored, localAddresses: [])
        let ends = ConversationEnds(flow)
        #expect(!ends.includesThisMachine)
        #expect(ends == .neither(stored.key.endpointA, stored.key.endpointB))
        #expect(ends.label == "\(stored.key.endpointA.address) ↔ \(stored.key.endpointB.address)")
        #expect(ends.note == "neither end is this machine: a conversation read from a capture")
        #expect(ends.facts.map(\.label) == ["One end", "The other end"])
        #expect(ends.unnamed == "no name was seen; these are its two ends")
        #expect(!ends.facts.contains { $0.label == "This machine" })

        // The row's JSON and the inspector's carry the same decision.
        var out = JSONWriter()
        HistoryFlowWording.write(flow, after: nil, to: &out)
        let row = try #require(try JSONSerialization.jsonObject(with: Data(out.writer.bytes)) as? [String: Any])
        let conversation = try #require(row["conversation"] as? [String: Any])
        #expect(conversation["thisMachine"] as? Bool == false && conversation["label"] as? String == ends.label)
        #expect((conversation["ends"] as? [[String: String]])?.map { $0["label"] } == ["One end", "The other end"])
        let inspector = FlowInspector(flow: flow, packets: [], storedPacketCount: 0)
        let inspected = try #require(try JSONSerialization.jsonObject(with: Data(inspector.json().utf8)) as? [String: Any])
        #expect((inspected["conversation"] as? [String: Any])?["note"] as? String == ends.note)
        try await history.close()
    }
}
