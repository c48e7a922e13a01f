import Foundation
import Testing
import Shared
@testable import App

@Suite struct PacketListingTests {
    static let instant: Int64 = 1_796_005_130_123_456_000          // 2026-11-30T02:18:50.123456Z

    private func entry(_ bytes: [UInt8], index: Int = 0, captured: Int? = nil) -> PacketListing.Entry {
        let kept = Array(bytes.prefix(captured ?? bytes.count))
        let result = kept.withUnsafeBytes { raw in
            Result { () throws(PacketParseError) in try PacketParser.parse(raw, originalLength: bytes.count) }
        }
        return .init(index: index, nanosecondsSince1970: Self.instant, capturedLength: kept.count,
                     originalLength: bytes.count, result: result)
    }

    private static let synAck: [UInt8] = [UInt8](try! PacketEmitter.tcp(
        source: IPEndpoint(address: IPAddress(parsing: "198.18.0.1")!, port: 443),
        destination: IPEndpoint(address: TunnelAddressing.ipv4Address, port: 51234),
        sequence: 7, acknowledgment: 9, flags: [.syn, .ack], windowSize: 65535, payload: Data("hi".utf8)))

    @Test func aTCPRecordReadsAsOneLineWithEveryField() {
        var listing = PacketListing()
        var out = ASCIIWriter()
        listing.appendText(entry(Self.synAck), to: &out)
        #expect(out.string == "#1 2026-11-30T02:18:50.123456Z IPv4 TCP 198.18.0.1:443 > 198.18.0.2:51234 [SYN,ACK] seq=7 ack=9 win=65535 payload=2 len=42\n")
    }

    @Test func aTruncatedRecordSaysSoAndCountsTheWirePayload() {
        var listing = PacketListing()
        var out = ASCIIWriter()
        listing.appendText(entry(Self.synAck, captured: 40), to: &out)
        #expect(out.string.hasSuffix("payload=2 len=42 captured=40 (truncated)\n"))
        #expect(listing.truncated == 1 && listing.malformed == 0)
    }

    @Test func aMalformedRecordIsListedWithItsReasonAndCounted() {
        var listing = PacketListing()
        var out = ASCIIWriter()
        listing.appendText(entry([0x45, 0, 0]), to: &out)
        #expect(out.string == "#1 2026-11-30T02:18:50.123456Z malformed: too short: 3 bytes, an IP header needs 20 len=3\n")
        #expect(listing.malformed == 1 && listing.records == 1)
    }

    @Test func jsonRecordsDecodeWithTheFieldsByName() throws {
        var listing = PacketListing()
        var out = JSONWriter()
        out.beginArray()
        listing.appendJSON(entry(Self.synAck), to: &out)
        let udp = [UInt8](try PacketEmitter.udp(source: IPEndpoint(address: TunnelAddressing.ipv6Address, port: 5353),
                                                destination: IPEndpoint(address: IPAddress(parsing: "fd00::35")!, port: 53),
                                                payload: Data(count: 5)))
        listing.appendJSON(entry(udp, index: 1), to: &out)
        listing.appendJSON(entry([0x70], index: 2), to: &out)
        out.endArray()
        let records = try #require(try JSONSerialization.jsonObject(with: Data(out.writer.bytes)) as? [[String: Any]])
        #expect(records[0]["protocol"] as? String == "TCP" && records[0]["sourcePort"] as? Int == 443)
        #expect(records[0]["time"] as? String == "2026-11-30T02:18:50.123456Z")
        let tcp = try #require(records[0]["tcp"] as? [String: Any])
        #expect(tcp["flags"] as? [String] == ["SYN", "ACK"] && tcp["payloadLength"] as? Int == 2)
        #expect(records[1]["source"] as? String == "fd00:7::2" && records[1]["version"] as? Int == 6)
        #expect((records[1]["udp"] as? [String: Any])?["length"] as? Int == 13)
        let error = try #require(records[2]["error"] as? [String: Any])
        #expect(error["kind"] as? String == "unsupportedVersion")
        #expect(records[2]["index"] as? Int == 3)
    }

    @Test func theJSONDocumentFramesRecordsWithTheSummaryAndTheDamage() throws {
        var listing = PacketListing()
        var out = JSONWriter()
        listing.appendJSONOpening(file: "a \"quoted\" name.pcap", format: .pcap(PcapFormat.GlobalHeader(snaplen: 128)), to: &out)
        listing.appendJSONElement(entry(Self.synAck), to: &out)
        listing.appendJSONElement(entry([0x45], index: 1), to: &out)
        listing.appendJSONClosing(damage: (recordIndex: 2, message: "record cut short"), to: &out)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(out.writer.bytes)) as? [String: Any])
        #expect(document["file"] as? String == "a \"quoted\" name.pcap" && document["snaplen"] as? Int == 128)
        #expect((document["records"] as? [Any])?.count == 2)
        #expect(document["summary"] as? [String: Int] == ["records": 2, "malformed": 1, "truncated": 0, "notIP": 0])
        #expect((document["damage"] as? [String: Any])?["recordIndex"] as? Int == 3)
        #expect(listing.summary == "2 records, 1 malformed, 0 truncated by the snaplen")
    }
}
