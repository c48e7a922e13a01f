import Fixtures
import Foundation
import Testing
@testable import Shared

@Suite struct QUICFrameReaderTests {
    struct Found: Equatable {
        let offset: UInt64
        let bytes: [UInt8]
        init(_ offset: UInt64, _ bytes: [UInt8]) { self.offset = offset; self.bytes = bytes }
    }

    /// Every CRYPTO frame of `payload`, and the error that stopped the walk if one did.
    private func walk(_ payload: Data) -> (frames: [Found], error: QUICFrameError?) {
        var reader = QUICFrameReader(payload: payload)
        var frames: [Found] = []
        do {
            while let frame = try reader.next() { frames.append(Found(frame.offset, [UInt8](frame.data))) }
            return (frames, nil)
        } catch {
            return (frames, error)
        }
    }

    /// PADDING ×2 · PING · ACK · ACK_ECN · CRYPTO 3 "def" · CRYPTO 0 "abc" (2-byte offset) · PADDING.
    private let mixed: [UInt8] = [
        0x00, 0x00,
        0x01,
        0x02, 0x05, 0x00, 0x01, 0x02, 0x00, 0x01,                       // largest 5, delay 0, 1 range, first 2, gap 0, len 1
        0x03, 0x40, 0x80, 0x10, 0x00, 0x00, 0x01, 0x02, 0x03,           // largest 128, delay 16, no ranges, first 0, ECN 1 2 3
        0x06, 0x03, 0x03, 0x64, 0x65, 0x66,                             // CRYPTO offset 3, length 3, "def"
        0x06, 0x40, 0x00, 0x03, 0x61, 0x62, 0x63,                       // CRYPTO offset 0 (non-minimal varint), "abc"
        0x00, 0x00, 0x00,
    ]

    @Test("the RFC Initial's payload holds one CRYPTO frame of 241 bytes, then padding")
    func rfcPayload() {
        let payload = QUICRFCVectors.cryptoFrame + Data(count: 917)
        let result = walk(payload)
        #expect(result.error == nil)
        #expect(result.frames == [Found(0, [UInt8](QUICRFCVectors.cryptoFrame.dropFirst(4)))])
        #expect(result.frames.first?.bytes.count == 241)
    }

    @Test("PADDING, PING, ACK and ACK with ECN counts are skipped; CRYPTO frames come out in payload order")
    func skipsWhatAnInitialMayCarry() {
        let result = walk(Data(mixed))
        #expect(result.error == nil)
        #expect(result.frames == [Found(3, Array("def".utf8)), Found(0, Array("abc".utf8))])
    }

    @Test("an empty payload, or padding alone, has no frames")
    func nothing() {
        #expect(walk(Data()).frames.isEmpty && walk(Data()).error == nil)
        #expect(walk(Data(count: 1162)).frames.isEmpty && walk(Data(count: 1162)).error == nil)
    }

    @Test("every prefix ending inside a frame is truncated at that frame's start; at a boundary it is not")
    func everyPrefix() {
        // Frame starts in `mixed`: 0, 1, 2, 3, 10, 19, 25, 32, 33, 34 (padding runs merge).
        let boundaries: Set<Int> = [0, 1, 2, 3, 10, 19, 25, 32, 33, 34, 35]
        for length in 0...mixed.count {
            let result = walk(Data(mixed.prefix(length)))
            if boundaries.contains(length) {
                #expect(result.error == nil, "prefix \(length)")
            } else {
                let start = [3, 10, 19, 25].last { $0 < length }!
                #expect(result.error == .truncated(offset: start), "prefix \(length)")
            }
        }
    }

    @Test("CONNECTION_CLOSE stops the walk, and the reader stays stopped")
    func connectionClose() throws {
        // Error code 0x0178 (CRYPTO_ERROR: TLS alert 120), frame type 6, no reason.
        var reader = QUICFrameReader(payload: Data([0x06, 0x00, 0x01, 0x61, 0x01, 0x1c, 0x41, 0x78, 0x06, 0x00, 0x06, 0x00, 0x01, 0x62]))
        let frame = try reader.next()
        #expect(frame?.offset == 0 && frame?.data == Data("a".utf8))
        #expect(throws: QUICFrameError.connectionClose(errorCode: 0x178)) { try reader.next() }
        #expect(reader.position == 5)
        #expect(throws: QUICFrameError.connectionClose(errorCode: 0x178)) { try reader.next() }
        var cut = QUICFrameReader(payload: Data([0x1c, 0x41]))
        #expect(throws: QUICFrameError.truncated(offset: 0)) { try cut.next() }
    }

    @Test("frame types an Initial may not carry are refused by type (RFC 9000 §12.4)")
    func notAllowed() {
        // RESET_STREAM, STOP_SENDING, NEW_TOKEN, STREAM, MAX_DATA, NEW_CONNECTION_ID,
        // PATH_CHALLENGE, CONNECTION_CLOSE (application), HANDSHAKE_DONE, DATAGRAM, 0x3f.
        for type: UInt8 in [0x04, 0x05, 0x07, 0x08, 0x0f, 0x10, 0x18, 0x1a, 0x1d, 0x1e, 0x30, 0x3f] {
            #expect(walk(Data([0x01, type, 0x00, 0x00])).error == .notAllowedInInitial(frameType: UInt64(type)))
        }
        // Two-byte types: ACK_FREQUENCY (0xaf), and any value past 63.
        #expect(walk(Data([0x40, 0xaf, 0x00])).error == .notAllowedInInitial(frameType: 0xaf))
        #expect(walk(Data([0x80, 0x00, 0x00, 0x40])).error == .notAllowedInInitial(frameType: 0x40))
    }

    @Test("a frame type in more bytes than it needs is refused, even CRYPTO's")
    func nonMinimalType() {
        #expect(walk(Data([0x40, 0x06, 0x00, 0x01, 0x61])).error == .nonMinimalFrameType(6))
        #expect(walk(Data([0x80, 0x00, 0x00, 0x00])).error == .nonMinimalFrameType(0))
        #expect(walk(Data([0x40])).error == .truncated(offset: 0))
    }

    @Test("a CRYPTO length past the payload, or an end past 2^62 − 1, is refused")
    func lyingCrypto() {
        #expect(walk(Data([0x06, 0x00, 0x05, 0x61, 0x62])).error == .truncated(offset: 0))
        #expect(walk(Data([0x01, 0x06, 0x00, 0x80, 0xff, 0xff, 0xff])).error == .truncated(offset: 1))
        // Offset 2^62 − 1, one byte of data.
        let top: [UInt8] = [0x06, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x61]
        #expect(walk(Data(top)).error == .cryptoOffsetTooLarge)
        // Ending exactly at 2^62 − 1 is allowed.
        let edge: [UInt8] = [0x06, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x01, 0x61]
        #expect(walk(Data(edge)).frames == [Found(QUICVarint.maximum - 1, [0x61])])
    }

    @Test("an ACK range count larger than the payload fails at once instead of looping")
    func lyingAckRangeCount() {
        // Range count 2^30 − 1 with four bytes left.
        let ack: [UInt8] = [0x02, 0x05, 0x00, 0xbf, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00]
        #expect(walk(Data(ack)).error == .truncated(offset: 0))
        // Eight-byte count, 2^62 − 1.
        let huge: [UInt8] = [0x03, 0x05, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00]
        #expect(walk(Data(huge)).error == .truncated(offset: 0))
        // An ACK_ECN missing its last count.
        #expect(walk(Data([0x03, 0x05, 0x00, 0x00, 0x00, 0x01, 0x02])).error == .truncated(offset: 0))
    }

    @Test("a payload that is a slice yields data at the slice's indices, sharing its bytes")
    func slicePayload() throws {
        let buffer = Data([0xee, 0xee]) + Data(mixed)
        var reader = QUICFrameReader(payload: buffer.dropFirst(2))
        let first = try #require(try reader.next())
        #expect(first.offset == 3 && first.data == Data("def".utf8) && first.data.startIndex == 2 + 22)
        #expect(reader.position == 2 + 25)
    }

    @Test("seeded random payloads never trap, and every frame yielded lies inside the payload")
    func randomPayloads() {
        var random = SeededRandom(seed: 0xf4a3e5)
        for _ in 0..<3_000 {
            let length = Int.random(in: 0..<64, using: &random)
            // Bias towards allowed types so walks get past the first byte.
            let bytes = (0..<length).map { _ -> UInt8 in
                Bool.random(using: &random) ? [0x00, 0x01, 0x02, 0x03, 0x06].randomElement(using: &random)!
                                            : UInt8.random(in: 0...255, using: &random)
            }
            let payload = Data(bytes)
            var reader = QUICFrameReader(payload: payload)
            while let frame = try? reader.next() {
                #expect(frame.data.startIndex >= payload.startIndex && frame.data.endIndex <= payload.endIndex)
            }
        }
    }
}
