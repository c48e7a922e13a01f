import App
import Fixtures
import Foundation
import Shared
import Testing

@Suite struct PacketBytesPresentationTests {
    @Test("the dump has offsets, 16 bytes a line split 8 + 8, and printable ASCII beside")
    func dumpColumns() {
        let bytes = Array(0x40..<0x40 + 20).map(UInt8.init) + [0x00, 0x7F]
        let lines = PacketBytesPresentation.dump(bytes)
        #expect(lines.count == 2)
        #expect(lines[0] == "0000  40 41 42 43 44 45 46 47  48 49 4a 4b 4c 4d 4e 4f  @ABCDEFGHIJKLMNO")
        #expect(lines[1].hasPrefix("0010  50 51 52 53 00 7f  ") && lines[1].hasSuffix("  PQRS.."))
        // The ASCII column starts at the same place on a short last line.
        #expect(lines[1].count - "PQRS..".count == lines[0].count - "@ABCDEFGHIJKLMNO".count)
        #expect(PacketBytesPresentation.dump([]).isEmpty)
        let long = PacketBytesPresentation.dump([UInt8](repeating: 0x41, count: 0x10001))
        #expect(long.last?.hasPrefix("10000  41") == true && long[0].hasPrefix("00000  "))
        #expect(PacketBytesPresentation.hex([0x00, 0xAB, 0x7F]) == "00ab7f")
    }

    /// The detail of `number` (1-based) in a history holding the TCP conversation.
    static func details(snaplen: UInt32 = CaptureDetail.fullPayload.snaplen, captured: Bool = true,
                        record: ((CaptureLocation) -> Result<CaptureRecord, CaptureLibraryError>?)? = nil)
    async throws -> [PacketBytesPresentation] {
        let history = try InspectorHistory(snaplen: snaplen)
        let packets = try InspectorHistory.tcpConversation(payload: 300).map { packet -> InspectorHistory.Packet in
            var packet = packet
            packet.captured = captured
            return packet
        }
        let id = try await history.record(InspectorHistory.tcpKey, packets)
        let inspection = FlowInspection(store: history.store, library: CaptureLibrary(dataDirectory: history.dataDirectory))
        var details: [PacketBytesPresentation] = []
        for number in 1...packets.count {
            let real = try await inspection.packet(flowID: id, number: number)
            if let record, let location = real.row.packet.capture {
                details.append(PacketBytesPresentation(row: real.row, flowKey: InspectorHistory.tcpKey, record: record(location),
                                                       connectionHasCapturedPackets: true))
            } else {
                details.append(real)
            }
        }
        try await history.close()
        return details
    }

    @Test("bytes are drawn when the record is this packet, with both layers' headers named")
    func drawnWithHeaders() async throws {
        let details = try await Self.details()
        let syn = details[0]
        let record = try #require(syn.record)
        #expect(syn.note == nil && !syn.offersRetry)
        let headers = try PacketHeaders.read(record).get()
        let named = Dictionary(headers.fields.map { ("\($0.layer) \($0.name)", $0.value) }, uniquingKeysWith: { a, _ in a })
        #expect(named["IPv4 version"] == "4" && named["IPv4 header length"] == "20 bytes")
        #expect(named["IPv4 time to live"] != nil && named["IPv4 protocol"] == "6 (TCP)")
        #expect(named["IPv4 source"] == "198.18.0.2" && named["IPv4 destination"] == "198.18.0.1")
        #expect(named["TCP source port"] == "40000" && named["TCP destination port"] == "443")
        #expect(named["TCP sequence number"] == "1000" && named["TCP flags"] == "SYN")
        #expect(named["TCP options"]?.contains("MSS 1460") == true && named["TCP options"]?.contains("window scale 7") == true)
        #expect(named["TCP data offset"] == "28 bytes")
        for name in ["IPv4 DSCP / ECN", "IPv4 identification", "IPv4 flags", "IPv4 fragment offset", "IPv4 header checksum",
                     "TCP window", "TCP checksum", "TCP urgent pointer", "TCP acknowledgment number"] {
            #expect(named[name] != nil, "\(name) missing")
        }
        #expect(syn.text(flowID: 1).contains("0000  45 "))
    }

    @Test("a snaplen cut draws what was kept and says so")
    func snaplenCut() async throws {
        let details = try await Self.details(snaplen: 128)
        let data = details[3]   // 340 bytes on the wire
        let record = try #require(data.record)
        #expect(record.isTruncated && record.capturedLength == 128 && record.originalLength == 340)
        #expect(data.note?.contains("kept the first 128 of 340 bytes") == true)
        #expect(details[0].note == nil)
    }

    @Test("each reason for no bytes is said apart, and only a read failure offers a retry")
    func reasons() async throws {
        let off = try await Self.details(captured: false)
        #expect(off[0].content == .notDrawn(.neverCaptured(.captureOff)))
        #expect(off[0].note?.contains("capture was off") == true && !off[0].offersRetry)

        let deleted = try await Self.details { .failure(.notFound($0.fileSequence)) }
        #expect(deleted[0].content == .notDrawn(.captureDeleted(fileSequence: 1)))
        #expect(deleted[0].note == "capture 1 was deleted: the connection stays in the history, the bytes are gone")
        #expect(!deleted[0].offersRetry)

        let unreadable = try await Self.details { _ in .failure(.recordUnreadable("record at offset 24 is cut short")) }
        #expect(unreadable[0].offersRetry && unreadable[0].note?.contains("cut short") == true)

        // The mismatch rule: another packet's record at this location is never drawn as this one.
        let whole = try await Self.details()
        let others = whole.compactMap(\.record)
        let swapped = try await Self.details { _ in .success(others[3]) }
        #expect(swapped[0].record == nil)
        guard case let .notDrawn(.mismatch(recordLength, storedLength, _)) = swapped[0].content else {
            Issue.record("expected a mismatch, got \(swapped[0].content)")
            return
        }
        #expect(recordLength != storedLength && storedLength == swapped[0].row.packet.length)
        // Same length, another connection: still not this packet.
        let foreign = try PacketEmitter.tcp(source: IPEndpoint(address: TunnelAddressing.ipv4Address, port: 41_000),
                                            destination: InspectorHistory.server, sequence: 1, acknowledgment: 0, flags: .syn,
                                            windowSize: 1, options: TCPOptions(maximumSegmentSize: 1460, windowScale: 7))
        let foreignRecord = CaptureRecord(header: .init(tsSec: 0, tsFraction: 0, inclLen: UInt32(foreign.count), origLen: UInt32(foreign.count)),
                                          bytes: Array(foreign))
        let misplaced = try await Self.details { _ in .success(foreignRecord) }
        #expect(misplaced[0].content == .notDrawn(.mismatch(recordLength: UInt32(foreign.count), storedLength: UInt32(foreign.count),
                                                            otherConnection: true)))
    }
}
