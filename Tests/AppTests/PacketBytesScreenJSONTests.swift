import App
import Foundation
import Testing

/// What a packet's JSON gives a screen to draw: the terminal's own dump of the first
/// `screenByteLimit` bytes, and how many it leaves out — so a page never counts them itself.
@Suite("Packet bytes for a screen, in JSON")
struct PacketBytesScreenJSONTests {
    static func detail(number: Int, payload: Int) async throws -> [String: Any] {
        let history = try InspectorHistory()
        let id = try await history.record(InspectorHistory.tcpKey, try InspectorHistory.tcpConversation(payload: payload))
        let inspection = FlowInspection(store: history.store, library: CaptureLibrary(dataDirectory: history.dataDirectory))
        let json = try await inspection.packet(flowID: id, number: number).json(flowID: id)
        try await history.close()
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test("a short packet is drawn whole, as the terminal's dump draws it")
    func shortPacketWhole() async throws {
        let syn = try await Self.detail(number: 1, payload: 100)
        let hex = try #require(syn["bytes"] as? String)
        let bytes = stride(from: 0, to: hex.count, by: 2).map { offset -> UInt8 in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
        #expect(syn["dump"] as? [String] == PacketBytesPresentation.dump(bytes))
        #expect(syn["bytesNotDrawn"] as? Int == 0)
    }

    @Test("past the screen's limit the dump stops at it and the JSON counts what it leaves out")
    func longPacketCut() async throws {
        // Packet 5 carries twice the payload: 2 × 1 500 bytes + 40 of headers = 3 040.
        let answer = try await Self.detail(number: 5, payload: 1_500)
        let dump = try #require(answer["dump"] as? [String])
        #expect(dump.count == PacketBytesPresentation.screenByteLimit / PacketBytesPresentation.bytesPerLine)
        #expect(answer["bytesNotDrawn"] as? Int == 3_040 - PacketBytesPresentation.screenByteLimit)
        #expect((answer["bytes"] as? String)?.count == 2 * 3_040)
    }
}
