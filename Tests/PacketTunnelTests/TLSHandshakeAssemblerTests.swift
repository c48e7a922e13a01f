import Foundation
import Shared
import Testing
@testable import PacketTunnel

@Suite struct TLSHandshakeAssemblerTests {
    typealias V = TLSVectors
    typealias Piece = TLSHandshakeAssembler.Piece

    /// Every piece `bytes` yields, fed in one chunk, with each body's bytes.
    private func pieces(_ bytes: [UInt8], maxBodyBytes: Int = 1 << 14,
                        framing: TLSHandshakeAssembler.Framing = .tlsRecords) -> [(Piece, [UInt8]?)] {
        var assembler = TLSHandshakeAssembler(framing: framing, maxBodyBytes: maxBodyBytes)
        var result: [(Piece, [UInt8]?)] = []
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while true {
                let piece = assembler.next(raw, &offset)
                var body: [UInt8]?
                if case .messageBody(_, _, let location) = piece {
                    body = assembler.withBody(location, in: raw) { [UInt8]($0) }
                }
                result.append((piece, body))
                if piece == .needMoreBytes || result.count > 20 { return }
                if case .otherRecord = piece { return }
                if case .failure = piece { return }
            }
        }
        return result
    }

    @Test("two messages coalesced in one record come out header, body, header, body — in place")
    func coalesced() {
        let stream = V.record(V.handshake(2, [0xAA, 0xBB]) + V.handshake(14, []))
        let read = pieces(stream)
        #expect(read.map(\.0) == [.messageHeader(type: 2, length: 2), .messageBody(type: 2, length: 2, body: .input(9..<11)),
                                  .messageHeader(type: 14, length: 0), .messageBody(type: 14, length: 0, body: .buffered),
                                  .needMoreBytes])
        #expect(read[1].1 == [0xAA, 0xBB] && read[3].1 == [])
    }

    @Test("a body split across records is copied; the header split too")
    func splitAcrossRecords() {
        let message = V.handshake(11, [1, 2, 3, 4, 5])
        let read = pieces(V.records(message, size: 3))
        #expect(read.map(\.0) == [.messageHeader(type: 11, length: 5), .messageBody(type: 11, length: 5, body: .buffered), .needMoreBytes])
        #expect(read[1].1 == [1, 2, 3, 4, 5])
    }

    @Test("a body longer than the limit is handed out cut, and nothing is read after it")
    func cutBody() {
        let stream = V.record(V.handshake(11, [1, 2, 3, 4, 5, 6]) + V.handshake(14, []))
        let read = pieces(stream, maxBodyBytes: 4)
        #expect(read.map(\.0) == [.messageHeader(type: 11, length: 6), .messageBody(type: 11, length: 6, body: .input(9..<13)),
                                  .needMoreBytes])
        #expect(read[1].1 == [1, 2, 3, 4])
    }

    @Test("alerts, other records and broken headers")
    func otherPieces() {
        #expect(pieces(V.handshakeFailureAlert).map(\.0) == [.alert(level: 2, description: 40), .needMoreBytes])
        #expect(pieces(V.changeCipherSpec).map(\.0) == [.otherRecord(contentType: 20)])
        #expect(pieces([0x47]).map(\.0) == [.failure(.notTLS)])
        #expect(pieces([0x16, 0x04]).map(\.0) == [.failure(.notTLS)])
        #expect(pieces([0x16, 0x03, 0x03, 0x00, 0x00]).map(\.0) == [.failure(.malformed)])
        #expect(pieces([0x15, 0x03, 0x03, 0x00, 0x04]).map(\.0) == [.failure(.malformed)])
        #expect(pieces([0x16, 0x03, 0x03, 0x40, 0x01]).map(\.0) == [.failure(.recordTooLarge)])
    }

    @Test("without a record layer the bytes are messages")
    func handshakeMessages() {
        let read = pieces(V.handshake(1, [9, 9]) + V.handshake(2, []), framing: .handshakeMessages)
        #expect(read.map(\.0) == [.messageHeader(type: 1, length: 2), .messageBody(type: 1, length: 2, body: .input(4..<6)),
                                  .messageHeader(type: 2, length: 0), .messageBody(type: 2, length: 0, body: .buffered),
                                  .needMoreBytes])
    }

    @Test("inside a message is known, header bytes included")
    func insideMessage() {
        var assembler = TLSHandshakeAssembler(framing: .tlsRecords, maxBodyBytes: 100)
        var offset = 0
        let partial: [UInt8] = V.record([0x0B, 0x00])
        _ = partial.withUnsafeBytes { assembler.next($0, &offset) }
        #expect(assembler.isInsideMessage)
        var fresh = TLSHandshakeAssembler(framing: .tlsRecords, maxBodyBytes: 100)
        offset = 0
        _ = [UInt8](V.record(V.handshake(14, []))).withUnsafeBytes { fresh.next($0, &offset) }
        #expect(fresh.isInsideMessage)                                  // header read, body (empty) not yet handed out
    }
}
