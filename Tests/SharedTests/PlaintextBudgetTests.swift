import Foundation
import Testing
@testable import Shared

@Suite struct PlaintextBudgetTests {
    typealias Record = PlaintextBudget.Record

    static func bytes(_ count: Int, _ value: UInt8 = 0x61) -> Data { Data(repeating: value, count: count) }

    /// An HTTP/2 frame header (RFC 9113 §4.1) and `payload` bytes of `fill`.
    static func frame(_ type: UInt8, stream: UInt32, length: Int, flags: UInt8 = 0, fill: UInt8 = 0x7A) -> [UInt8] {
        [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags,
         UInt8(stream >> 24 & 0x7F), UInt8(stream >> 16 & 0xFF), UInt8(stream >> 8 & 0xFF), UInt8(stream & 0xFF)]
            + [UInt8](repeating: fill, count: length)
    }

    @Test("each turn keeps its own beginning: a large first answer leaves the next request and answer theirs")
    func eachTurnKeepsItsBeginning() {
        var budget = PlaintextBudget(limits: .init(bytesPerTurn: 10, bytesPerDirection: 100))
        #expect(budget.admit(Self.bytes(6), direction: .outbound).records == [Record(kept: 0..<6, dropped: 0)])
        let first = budget.admit(Self.bytes(25), direction: .inbound)
        #expect(first.records == [Record(kept: 0..<10, dropped: 15)])
        #expect(first.dropped == 15)
        #expect(budget.admit(Self.bytes(4), direction: .outbound).records == [Record(kept: 0..<4, dropped: 0)])
        #expect(budget.admit(Self.bytes(8), direction: .inbound).records == [Record(kept: 0..<8, dropped: 0)])
        #expect(budget.reading == .turns)
    }

    @Test("a whole chunk dropped is said at once as a gap, the rest of the run before the next kept bytes")
    func droppedChunksBecomeGaps() {
        var budget = PlaintextBudget(limits: .init(bytesPerTurn: 10, bytesPerDirection: 100))
        #expect(budget.admit(Self.bytes(10), direction: .inbound).records == [Record(kept: 0..<10, dropped: 0)])
        #expect(budget.admit(Self.bytes(5), direction: .inbound).records == [.gap(5)])
        #expect(budget.admit(Self.bytes(7), direction: .inbound).records.isEmpty)
        #expect(budget.admit(Self.bytes(3), direction: .outbound).records == [Record(kept: 0..<3, dropped: 0)])
        #expect(budget.admit(Self.bytes(4), direction: .inbound).records == [.gap(7), Record(kept: 0..<4, dropped: 0)])
        // The same turn goes on: 6 more fit its 10.
        #expect(budget.admit(Self.bytes(20), direction: .inbound).records == [Record(kept: 0..<6, dropped: 14)])
        #expect(budget.closingGaps().isEmpty)
    }

    @Test("what was still dropped when the flow ends is written then, in its direction")
    func closingGapsAtTheEnd() {
        var budget = PlaintextBudget(limits: .init(bytesPerTurn: 10, bytesPerDirection: 100))
        _ = budget.admit(Self.bytes(10), direction: .inbound)
        #expect(budget.admit(Self.bytes(5), direction: .inbound).records == [.gap(5)])
        #expect(budget.admit(Self.bytes(9), direction: .inbound).records.isEmpty)
        let gaps = budget.closingGaps()
        #expect(gaps.count == 1 && gaps[0].0 == .inbound && gaps[0].1 == .gap(9))
        #expect(budget.closingGaps().isEmpty)
    }

    @Test("keeping nothing writes nothing, not even gaps")
    func keepingNothing() {
        var budget = PlaintextBudget(limits: .nothing)
        let outcome = budget.admit(Self.bytes(50), direction: .outbound)
        #expect(outcome.records.isEmpty && outcome.dropped == 50)
        #expect(budget.admit(Self.bytes(50), direction: .inbound).records.isEmpty)
        #expect(budget.closingGaps().isEmpty)
    }

    @Test("a direction's ceiling ends its keeping for good, whatever the turns; the other direction goes on")
    func directionCeiling() {
        var budget = PlaintextBudget(limits: .init(bytesPerTurn: 10, bytesPerDirection: 12))
        #expect(budget.admit(Self.bytes(10), direction: .outbound).records == [Record(kept: 0..<10, dropped: 0)])
        _ = budget.admit(Self.bytes(1), direction: .inbound)
        #expect(budget.admit(Self.bytes(10), direction: .outbound).records == [Record(kept: 0..<2, dropped: 8)])
        _ = budget.admit(Self.bytes(1), direction: .inbound)
        #expect(budget.admit(Self.bytes(5), direction: .outbound).records == [.gap(5)])
        #expect(budget.admit(Self.bytes(9), direction: .inbound).records == [Record(kept: 0..<9, dropped: 0)])
    }

    @Test("a direction's records are bounded too: past the last, nothing more is kept")
    func recordCeiling() {
        var budget = PlaintextBudget(limits: .init(bytesPerTurn: 2, bytesPerDirection: 100, recordsPerDirection: 2))
        #expect(budget.admit(Self.bytes(5), direction: .outbound).records == [Record(kept: 0..<2, dropped: 3)])
        _ = budget.admit(Self.bytes(1), direction: .inbound)
        #expect(budget.admit(Self.bytes(5), direction: .outbound).records == [Record(kept: 0..<2, dropped: 3)])
        _ = budget.admit(Self.bytes(1), direction: .inbound)
        #expect(budget.admit(Self.bytes(5), direction: .outbound).records.isEmpty)
    }

    @Test("HTTP/2 keeps every frame header and every frame but DATA, and of each stream's DATA its beginning, across chunks")
    func http2KeepsFramesAndEachStreamsStart() {
        var budget = PlaintextBudget(limits: .init(bytesPerTurn: 8, bytesPerDirection: 1_000))
        let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
        let settings = Self.frame(0x4, stream: 0, length: 6)
        let headers = Self.frame(0x1, stream: 1, length: 3, flags: 0x4)
        let data = Self.frame(0x0, stream: 1, length: 20)
        let first = preface + settings + headers + data
        // Kept: everything up to the DATA payload's 8th byte; then 12 not kept.
        #expect(budget.admit(Data(first), direction: .outbound).records == [Record(kept: 0..<(first.count - 12), dropped: 12)])
        #expect(budget.reading == .http2)
        // Stream 3 has its own 8; stream 1's second frame keeps only its header. The second
        // chunk splits stream 1's header.
        let other = Self.frame(0x0, stream: 3, length: 4)
        let again = Self.frame(0x0, stream: 1, length: 10)
        let chunk = other + again.prefix(5)
        #expect(budget.admit(Data(chunk), direction: .outbound).records == [Record(kept: 0..<chunk.count, dropped: 0)])
        #expect(budget.admit(Data(again.dropFirst(5)), direction: .outbound).records == [Record(kept: 0..<4, dropped: 10)])
        // A SETTINGS frame after it is kept whole, though the turn has long passed 8 bytes.
        let ack = Self.frame(0x4, stream: 0, length: 12)
        #expect(budget.admit(Data(ack), direction: .outbound).records == [Record(kept: 0..<21, dropped: 0)])
    }

    @Test("a server's SETTINGS first names HTTP/2; a status line or a request line names turns")
    func readingIsNamedByTheFirstBytes() {
        var server = PlaintextBudget()
        _ = server.admit(Data(Self.frame(0x4, stream: 0, length: 18)), direction: .inbound)
        #expect(server.reading == .http2)
        var http1 = PlaintextBudget()
        _ = http1.admit(Data("HTTP/1.1 200 OK\r\n".utf8), direction: .inbound)
        #expect(http1.reading == .turns)
        var request = PlaintextBudget()
        _ = request.admit(Data("GET / HTTP/1.1\r\n".utf8), direction: .outbound)
        #expect(request.reading == .turns)
        var short = PlaintextBudget()
        _ = short.admit(Data("PRI * HT".utf8), direction: .outbound)
        #expect(short.reading == .http2)
    }

    @Test("the standard limits: 64 KiB a turn, 1 MiB and 8 192 records a direction")
    func standardLimits() {
        #expect(PlaintextBudget.Limits.standard == .init(bytesPerTurn: 65_536, bytesPerDirection: 1_048_576, recordsPerDirection: 8_192))
    }
}
