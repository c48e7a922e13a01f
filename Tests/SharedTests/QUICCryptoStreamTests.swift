import Fixtures
import Foundation
import Testing
@testable import Shared

@Suite struct QUICCryptoStreamTests {
    typealias Progress = QUICCryptoStream.Progress

    private func receive(_ stream: inout QUICCryptoStream, _ offset: Int, _ text: String) -> Progress {
        Array(text.utf8).withUnsafeBytes { stream.receive(offset: UInt64(offset), bytes: $0) }
    }

    private func receive(_ stream: inout QUICCryptoStream, _ offset: Int, _ bytes: ArraySlice<UInt8>) -> Progress {
        bytes.withUnsafeBytes { stream.receive(offset: UInt64(offset), bytes: $0) }
    }

    private func text(_ stream: QUICCryptoStream) -> String {
        String(decoding: stream.bytes(in: 0..<stream.contiguousLength), as: UTF8.self)
    }

    /// CRYPTO frame bytes: type, 1- or 2-byte offset and length, data.
    private func crypto(_ offset: Int, _ data: [UInt8]) -> [UInt8] {
        func varint(_ value: Int) -> [UInt8] { value < 64 ? [UInt8(value)] : [0x40 | UInt8(value >> 8), UInt8(value & 0xff)] }
        return [0x06] + varint(offset) + varint(data.count) + data
    }

    @Test("the RFC Initial's frames deliver the 241-byte ClientHello in one run")
    func rfcPayload() {
        var stream = QUICCryptoStream()
        #expect(stream.receive(frames: QUICRFCVectors.cryptoFrame + Data(count: 917)) == .delivered(0..<241))
        #expect(Data(stream.bytes(in: 0..<241)) == QUICRFCVectors.cryptoFrame.dropFirst(4))
        #expect(stream.packetsReceived == 1)
    }

    @Test("in order, each frame delivers its own bytes")
    func inOrder() {
        var stream = QUICCryptoStream()
        #expect(receive(&stream, 0, "abc") == .delivered(0..<3))
        #expect(receive(&stream, 3, "def") == .delivered(3..<6))
        #expect(text(stream) == "abcdef")
    }

    @Test("out of order, a piece waits until the gap before it is filled")
    func outOfOrder() {
        var stream = QUICCryptoStream()
        #expect(receive(&stream, 6, "ghi") == .nothingNew)
        #expect(receive(&stream, 3, "def") == .nothingNew)
        #expect(stream.contiguousLength == 0 && stream.bytes(in: 0..<9).isEmpty)
        #expect(receive(&stream, 0, "abc") == .delivered(0..<9))
        #expect(text(stream) == "abcdefghi")
    }

    @Test("overlaps deliver only what is new, and bytes already held are kept")
    func overlaps() {
        var stream = QUICCryptoStream()
        #expect(receive(&stream, 0, "abcd") == .delivered(0..<4))
        #expect(receive(&stream, 2, "cdefg") == .delivered(4..<7))
        // A held piece keeps its bytes when a later frame covers it (first received wins).
        #expect(receive(&stream, 9, "JK") == .nothingNew)
        #expect(receive(&stream, 7, "hixyl") == .delivered(7..<12))
        #expect(text(stream) == "abcdefghiJKl")
        // A frame spanning two held pieces and the gap between them.
        #expect(receive(&stream, 14, "o") == .nothingNew)
        #expect(receive(&stream, 16, "q") == .nothingNew)
        #expect(receive(&stream, 13, "nopqr") == .nothingNew)
        #expect(receive(&stream, 12, "m") == .delivered(12..<18))
        #expect(text(stream) == "abcdefghiJKlmnopqr")
    }

    @Test("duplicates, frames inside the prefix and empty frames change nothing")
    func duplicates() {
        var stream = QUICCryptoStream()
        #expect(receive(&stream, 0, "abcdef") == .delivered(0..<6))
        #expect(receive(&stream, 0, "abcdef") == .nothingNew)
        #expect(receive(&stream, 2, "cd") == .nothingNew)
        #expect(receive(&stream, 9, "") == .nothingNew)
        #expect(receive(&stream, 8, "ij") == .nothingNew)
        #expect(receive(&stream, 8, "ij") == .nothingNew)
        #expect(receive(&stream, 6, "gh") == .delivered(6..<10))
        #expect(text(stream) == "abcdefghij")
    }

    @Test("byte by byte, forwards, backwards and shuffled, the aioquic ClientHello comes out whole")
    func byteByByte() {
        let hello = [UInt8](QUICSealedFixtures.aioquicClientHello)
        var random = SeededRandom(seed: 472)
        let orders = [Array(hello.indices), hello.indices.reversed(), hello.indices.shuffled(using: &random)]
        for order in orders {
            var stream = QUICCryptoStream(budget: .init(pieceLimit: hello.count))
            var delivered = 0
            for index in order {
                if case let .delivered(range) = receive(&stream, index, hello[index...index]) {
                    #expect(range.lowerBound == delivered)
                    delivered = range.upperBound
                }
            }
            #expect(delivered == hello.count && [UInt8](stream.bytes(in: 0..<hello.count)) == hello)
        }
    }

    @Test("split at every point into two frames, either order gives the whole ClientHello")
    func everySplit() {
        let hello = [UInt8](QUICSealedFixtures.aioquicClientHello)
        for split in 0...hello.count {
            var forwards = QUICCryptoStream()
            _ = receive(&forwards, 0, hello[..<split])
            _ = receive(&forwards, split, hello[split...])
            var backwards = QUICCryptoStream()
            let later = receive(&backwards, split, hello[split...])
            #expect(later == (split == 0 ? .delivered(0..<hello.count) : .nothingNew))
            _ = receive(&backwards, 0, hello[..<split])
            #expect([UInt8](forwards.bytes(in: 0..<hello.count)) == hello, "split \(split)")
            #expect([UInt8](backwards.bytes(in: 0..<hello.count)) == hello, "split \(split)")
        }
    }

    @Test("a ClientHello split and shuffled over two sealed Initials reassembles in either order")
    func splitOverTwoInitials() throws {
        let keys = try #require(QUICInitialKeys(version: .v1, clientDestinationConnectionID: QUICSealedFixtures.connectionID))
        func open(_ datagram: Data) throws -> QUICInitialPacket {
            try QUICInitialPacket(datagram: datagram, header: QUICInitialHeader(datagram: datagram), keys: keys,
                                  largestPacketNumber: nil)
        }
        let first = try open(QUICSealedFixtures.splitHelloFirst)
        let second = try open(QUICSealedFixtures.splitHelloSecond)
        let hello = QUICSealedFixtures.aioquicClientHello
        var stream = QUICCryptoStream()
        #expect(stream.receive(first) == .delivered(0..<40))
        #expect(stream.receive(second) == .delivered(40..<hello.count))
        #expect(Data(stream.bytes(in: 0..<hello.count)) == hello)
        var reversed = QUICCryptoStream()
        #expect(reversed.receive(second) == .nothingNew)
        #expect(reversed.receive(first) == .delivered(0..<hello.count))
        #expect(Data(reversed.bytes(in: 0..<hello.count)) == hello)
    }

    @Test("bytes(in:) and withBytes(in:) show only the contiguous prefix")
    func reading() {
        var stream = QUICCryptoStream()
        _ = receive(&stream, 0, "abc")
        _ = receive(&stream, 5, "fg")
        #expect(String(decoding: stream.bytes(in: 1..<100), as: UTF8.self) == "bc")
        #expect(stream.bytes(in: 3..<7).isEmpty)
        #expect(stream.withBytes(in: 0..<100) { Array($0) } == Array("abc".utf8))
        #expect(stream.withBytes(in: 10..<20) { $0.count } == 0)
    }

    @Test("a frame reaching past the byte limit refuses the stream, which stays refused")
    func byteBudget() {
        var stream = QUICCryptoStream(budget: .init(byteLimit: 8))
        #expect(receive(&stream, 0, "abcdefgh") == .delivered(0..<8))
        #expect(receive(&stream, 8, "") == .nothingNew)
        #expect(receive(&stream, 8, "i") == .refused(.tooManyBytes))
        #expect(stream.refusal == .tooManyBytes)
        #expect(receive(&stream, 0, "a") == .refused(.tooManyBytes))
        #expect(stream.receive(frames: Data([0x01])) == .refused(.tooManyBytes))
        #expect(text(stream) == "abcdefgh")
        var far = QUICCryptoStream()
        let huge = Data([0x06, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x01, 0x61])
        #expect(far.receive(frames: huge) == .refused(.tooManyBytes))
        #expect(QUICCryptoStream.Budget.default.byteLimit == 16_384)
    }

    @Test("the ninth Initial of a flow is refused with the default budget of eight")
    func packetBudget() {
        var stream = QUICCryptoStream()
        for index in 0..<8 {
            #expect(stream.receive(frames: Data(crypto(index, [UInt8(0x61 + index)]))) == .delivered(index..<(index + 1)))
        }
        #expect(stream.receive(frames: Data(crypto(8, [0x69]))) == .refused(.tooManyPackets))
        #expect(stream.packetsReceived == 8 && stream.contiguousLength == 8)
    }

    @Test("more separate held pieces than the limit refuses the stream")
    func pieceBudget() {
        var stream = QUICCryptoStream(budget: .init(pieceLimit: 2))
        #expect(receive(&stream, 2, "c") == .nothingNew)
        #expect(receive(&stream, 4, "e") == .nothingNew)
        #expect(receive(&stream, 3, "d") == .nothingNew)  // joins the two: one piece again
        #expect(receive(&stream, 6, "g") == .nothingNew)
        #expect(receive(&stream, 8, "i") == .refused(.tooFragmented))
    }

    @Test("frames an Initial may not carry refuse the stream, keeping what came before")
    func badFrames() {
        var stream = QUICCryptoStream()
        let payload = crypto(0, Array("abc".utf8)) + [0x1c, 0x00, 0x00, 0x00]
        #expect(stream.receive(frames: Data(payload)) == .refused(.frames(.connectionClose(errorCode: 0))))
        #expect(text(stream) == "abc")
        #expect(stream.receive(frames: Data(crypto(3, [0x64]))) == .refused(.frames(.connectionClose(errorCode: 0))))
        var other = QUICCryptoStream()
        #expect(other.receive(frames: Data([0x08, 0x00])) == .refused(.frames(.notAllowedInInitial(frameType: 8))))
    }

    @Test("a packet with several frames reports one run from the old to the new prefix end")
    func severalFramesOnePacket() {
        var stream = QUICCryptoStream()
        let payload = crypto(3, Array("def".utf8)) + [0x01] + crypto(0, Array("abc".utf8)) + crypto(100, [0x7a]) + [0, 0]
        #expect(stream.receive(frames: Data(payload)) == .delivered(0..<6))
        #expect(stream.receive(frames: Data([0x00, 0x00, 0x01])) == .nothingNew)
        #expect(stream.packetsReceived == 2)
    }
}
