import App
import Foundation
import Shared
import Testing

/// A chunk `milliseconds` after `DecryptedChunks.start`; `carried` more than the bytes when cut.
enum DecryptedChunks {
    static let start = Date(timeIntervalSince1970: 1_796_005_131)

    static func chunk(_ direction: Direction, _ text: String, carried: Int? = nil, at milliseconds: Int = 0) -> DecryptedChunk {
        chunk(direction, Data(text.utf8), carried: carried, at: milliseconds)
    }

    static func chunk(_ direction: Direction, _ bytes: Data, carried: Int? = nil, at milliseconds: Int = 0) -> DecryptedChunk {
        DecryptedChunk(direction: direction, timestamp: start.addingTimeInterval(Double(milliseconds) / 1000),
                       bytes: bytes, originalLength: carried ?? bytes.count)
    }

    /// `turns`, in order, as `PlaintextBudget` keeps them with `limits`, each fed in `size`-byte
    /// chunks: the chunks its records make, as the history gives them back.
    static func kept(_ turns: [(Direction, Data)], limits: PlaintextBudget.Limits, size: Int) -> [DecryptedChunk] {
        var budget = PlaintextBudget(limits: limits)
        var chunks: [DecryptedChunk] = []
        for (direction, bytes) in turns {
            for start in stride(from: 0, to: bytes.count, by: size) {
                let piece = bytes.subdata(in: start..<min(bytes.count, start + size))
                for record in budget.admit(piece, direction: direction).records {
                    chunks.append(chunk(direction, piece.subdata(in: record.kept), carried: record.originalLength))
                }
            }
        }
        for (direction, gap) in budget.closingGaps() { chunks.append(chunk(direction, Data(), carried: gap.originalLength)) }
        return chunks
    }
}

@Suite struct DecryptedTurnsTests {
    typealias C = DecryptedChunks

    @Test("a turn is a maximal run of one direction: interleaved chunks make turns that keep the first time and add both lengths")
    func turnsFromInterleavedChunks() {
        let turns = DecryptedTurns([C.chunk(.outbound, "GET ", at: 1), C.chunk(.outbound, "/ HTTP/1.1\r\n\r\n", at: 2),
                                    C.chunk(.inbound, "HTTP/1.1 200 OK\r\n", at: 30), C.chunk(.inbound, "\r\n", at: 31),
                                    C.chunk(.inbound, "", at: 32), C.chunk(.outbound, "GET /2", at: 900)]).turns
        #expect(turns.map(\.direction) == [.outbound, .inbound, .outbound])
        #expect(turns.map { String(decoding: $0.bytes, as: UTF8.self) } == ["GET / HTTP/1.1\r\n\r\n", "HTTP/1.1 200 OK\r\n\r\n", "GET /2"])
        #expect(turns.map(\.storedLength) == [18, 19, 6] && turns.map(\.originalLength) == [18, 19, 6])
        #expect(turns.map(\.timestamp) == [C.start.addingTimeInterval(0.001), C.start.addingTimeInterval(0.030), C.start.addingTimeInterval(0.9)])
        #expect(turns.allSatisfy { !$0.isTruncated })
        #expect(DecryptedTurns([]).turns.isEmpty)
    }

    @Test("a cut turn says both lengths and that the rest of its direction was not kept; the other direction is not cut")
    func truncation() {
        let turns = DecryptedTurns([C.chunk(.outbound, "hello"), C.chunk(.inbound, "0123456789", carried: 70_000, at: 12)])
        let content = DecryptedContent([C.chunk(.outbound, "hello"), C.chunk(.inbound, "0123456789", carried: 70_000, at: 12)],
                                       connectionStart: C.start.addingTimeInterval(-0.5))
        #expect(turns.turns[1].isTruncated && turns.turns[1].storedLength == 10 && turns.turns[1].originalLength == 70_000)
        #expect(turns.isCut(.inbound) && !turns.isCut(.outbound))
        #expect(content.heading(content.turns.turns[1])
                == "received, 0.512 s into the connection, 10 bytes kept of 70 000 — the rest of this turn was not kept")
        #expect(content.heading(content.turns.turns[0]) == "sent, 0.500 s into the connection, 5 bytes")
    }

    @Test("UTF-8 text is text with control characters other than tab, CR and LF escaped; a last character split by a cut is tolerated")
    func text() {
        #expect(DecryptedBytesRendering(Data("héllo\r\n\tbye\n".utf8)) == .text("héllo\r\n\tbye\n"))
        #expect(DecryptedBytesRendering(Data("\u{1B}[1mbold\u{1B}[0m and a long enough line to carry two escapes".utf8))
                == .text("\\x1B[1mbold\\x1B[0m and a long enough line to carry two escapes"))
        #expect(DecryptedBytesRendering(Data("caf".utf8) + Data([0xC3])) == .text("caf\\xC3"))          // é cut after its lead byte
        #expect(DecryptedBytesRendering(Data("ab".utf8) + Data([0xE2, 0x82])) == .text("ab\\xE2\\x82"))  // € cut after two
    }

    @Test("bytes that are not text are the packet detail's dump, and mostly-control UTF-8 is not text")
    func hex() {
        let binary = Data([0x00, 0x00, 0x12, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFE, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46])
        #expect(DecryptedBytesRendering(binary) == .dump(PacketBytesPresentation.dump(binary)))
        #expect(PacketBytesPresentation.dump(binary).first == "0000  00 00 12 04 00 00 00 00  00 ff fe 41 42 43 44 45  ...........ABCDE")
        #expect(DecryptedBytesRendering(Data(repeating: 0, count: 40)) == .dump(PacketBytesPresentation.dump(Data(repeating: 0, count: 40))))
        #expect(DecryptedBytesRendering(Data("ab".utf8) + Data([0xFF]) + Data("cd".utf8)) != .text("ab\\xFFcd"))   // invalid inside, not at the end
    }
}
