import Foundation
import Testing
import Shared
@testable import PacketTunnel

@Suite struct TCPStreamReassemblerTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func receive(_ stream: inout TCPStreamReassembler, _ sequence: UInt32, _ text: String, syn: Bool = false) -> String {
        var out = ""
        bytes(text).withUnsafeBytes { payload in
            stream.receive(sequence: SequenceNumber(sequence), isSyn: syn, payload: payload) {
                out += String(decoding: $0, as: UTF8.self)
            }
        }
        return out
    }

    @Test func segmentsInOrderAfterTheSynComeOutAsTheyArrive() {
        var stream = TCPStreamReassembler(limit: 1 << 16)
        #expect(receive(&stream, 100, "", syn: true) == "")
        #expect(receive(&stream, 101, "hello ") == "hello ")
        #expect(receive(&stream, 107, "world") == "world")
    }

    @Test func outOfOrderAndOverlappingSegmentsComeOutOnceInOrder() {
        var stream = TCPStreamReassembler(limit: 1 << 16)
        _ = receive(&stream, 0, "", syn: true)
        #expect(receive(&stream, 7, "GHI") == "")
        #expect(receive(&stream, 4, "DEFG") == "")
        #expect(receive(&stream, 1, "ABCDE") == "ABCDEFGHI")
        #expect(receive(&stream, 1, "ABCDEFGHI") == "")                    // a retransmission
        #expect(receive(&stream, 9, "IJK") == "JK")                          // a partial overlap
    }

    @Test func aCaptureStartingMidStreamStartsAtItsFirstSegment() {
        var stream = TCPStreamReassembler(limit: 1 << 16)
        #expect(receive(&stream, 4_294_967_290, "wrap") == "wrap")
        #expect(receive(&stream, 4_294_967_294, "around") == "around")      // across 2^32
    }

    @Test func nothingPastTheLimitIsHandedOut() {
        var stream = TCPStreamReassembler(limit: 5)
        _ = receive(&stream, 0, "", syn: true)
        #expect(receive(&stream, 1, "abc") == "abc")
        #expect(receive(&stream, 4, "defg") == "de")
        #expect(stream.isDone)
        #expect(receive(&stream, 8, "h") == "")
    }

    @Test("a segment ahead of a gap is held only as far as the limit, and what is not held is counted")
    func onlyTheBytesWithinTheLimitAreHeld() {
        var stream = TCPStreamReassembler(limit: 10)
        _ = receive(&stream, 0, "", syn: true)
        #expect(receive(&stream, 13, "xyz") == "")                              // wholly beyond byte 10
        #expect(stream.notHeld == OutOfOrderDrops(segments: 1, bytes: 3))
        #expect(receive(&stream, 6, "FGHIJKL") == "")                           // bytes 6…12: 6…10 held
        #expect(stream.notHeld == OutOfOrderDrops(segments: 2, bytes: 5))
        #expect(stream.heldByteCount == 5)
        #expect(receive(&stream, 1, "ABCDE") == "ABCDEFGHIJ")
        #expect(stream.isDone)
        #expect(stream.heldByteCount == 0)
    }

    @Test("retransmitted copies ahead of a gap never hold more than the bytes still wanted")
    func copiesDoNotMultiplyWhatIsHeld() {
        var stream = TCPStreamReassembler(limit: 8)
        _ = receive(&stream, 0, "", syn: true)
        for _ in 0..<5 { _ = receive(&stream, 3, "CDEFGH") }
        #expect(stream.heldByteCount == 6)
        #expect(stream.notHeld == OutOfOrderDrops(segments: 4, bytes: 24))
        #expect(receive(&stream, 1, "AB") == "ABCDEFGH")
    }

    @Test("the room the caller gives bounds what is held, and release frees it")
    func theCallersRoomBoundsWhatIsHeld() {
        var stream = TCPStreamReassembler(limit: 100)
        _ = receive(&stream, 0, "", syn: true)
        "later".utf8.withContiguousStorageIfAvailable { bytes in
            stream.receive(sequence: SequenceNumber(20), isSyn: false, payload: UnsafeRawBufferPointer(bytes), room: 4) { _ in }
        }
        #expect(stream.heldByteCount == 0)
        #expect(stream.notHeld == OutOfOrderDrops(segments: 1, bytes: 5))
        _ = receive(&stream, 30, "held")
        #expect(stream.release() == 4)
        #expect(stream.heldByteCount == 0)
    }
}
