import Fixtures
import Foundation
import Testing
@testable import Shared

@Suite struct QUICInitialPacketTests {
    typealias RFC = QUICRFCVectors
    typealias Sealed = QUICSealedFixtures

    private func keys(_ version: QUICVersion, _ cid: Data = Sealed.connectionID) throws -> QUICInitialKeys {
        try #require(QUICInitialKeys(version: version, clientDestinationConnectionID: cid))
    }

    private func open(_ datagram: Data, _ keys: QUICInitialKeys, largest: UInt64? = nil) throws -> QUICInitialPacket {
        let header = try QUICInitialHeader(datagram: datagram)
        return try QUICInitialPacket(datagram: datagram, header: header, keys: keys, largestPacketNumber: largest)
    }

    private func error(_ datagram: Data, _ keys: QUICInitialKeys, header: QUICInitialHeader? = nil,
                       largest: UInt64? = nil) -> QUICInitialError? {
        do throws(QUICInitialError) {
            let header = if let header { header } else { try QUICInitialHeader(datagram: datagram) }
            _ = try QUICInitialPacket(datagram: datagram, header: header, keys: keys, largestPacketNumber: largest)
            return nil
        } catch { return error }
    }

    /// The RFC's plaintext: the CRYPTO frame, then zeros to 1162 bytes.
    private var rfcFrames: Data {
        RFC.cryptoFrame + Data(count: RFC.unprotectedPayloadLength - RFC.cryptoFrame.count)
    }

    // MARK: the RFC Initials

    @Test("RFC 9001 §A.2: the v1 client Initial opens to packet number 2 and the CRYPTO frame padded to 1162 bytes")
    func rfcVersion1() throws {
        let packet = try open(RFC.V1.protectedPacket, keys(.v1, RFC.clientDestinationConnectionID))
        #expect(packet.packetNumber == RFC.packetNumber)
        #expect(packet.frames.count == 1162)
        #expect(packet.frames == rfcFrames)
        #expect(packet.header.destinationConnectionID == RFC.clientDestinationConnectionID)
    }

    @Test("RFC 9369 §A.2: the v2 client Initial opens the same way")
    func rfcVersion2() throws {
        let packet = try open(RFC.V2.protectedPacket, keys(.v2, RFC.clientDestinationConnectionID))
        #expect(packet.packetNumber == RFC.packetNumber)
        #expect(packet.frames.count == 1162)
        #expect(packet.frames == rfcFrames)
    }

    // MARK: packets sealed by aioquic

    @Test("every packet-number length opens, in both versions")
    func everyPacketNumberLength() throws {
        let expected: [(Data, Data, UInt64)] = [
            (Sealed.v1PacketNumberLength1, Sealed.v2PacketNumberLength1, 0x2a),
            (Sealed.v1PacketNumberLength2, Sealed.v2PacketNumberLength2, 0x1234),
            (Sealed.v1PacketNumberLength3, Sealed.v2PacketNumberLength3, 0x01_2345),
            (Sealed.v1PacketNumberLength4, Sealed.v2PacketNumberLength4, 0x0123_4567),
        ]
        for (v1, v2, number) in expected {
            let one = try open(v1, keys(.v1))
            let two = try open(v2, keys(.v2))
            #expect(one.packetNumber == number && one.frames == Sealed.fixtureFrames)
            #expect(two.packetNumber == number && two.frames == Sealed.fixtureFrames)
            #expect(one.header.totalLength == v1.count && two.header.version == .v2)
        }
    }

    @Test("the shortest sampleable Initial (Length 20) opens")
    func shortest() throws {
        let packet = try open(Sealed.v1Shortest, keys(.v1))
        #expect(packet.header.packetLength == 20 && packet.packetNumber == 0)
        #expect(packet.frames == Data([0x01, 0x00, 0x00]))
    }

    @Test("a token and a source connection ID are skipped and authenticated")
    func tokenAndSourceConnectionID() throws {
        let packet = try open(Sealed.v1TokenAndSourceCID, keys(.v1))
        #expect(packet.header.destinationConnectionID == Data(repeating: 0xaa, count: 8))
        #expect(packet.header.sourceConnectionID == Data([1, 2, 3, 4, 5]))
        #expect(packet.header.tokenLength == 12 && packet.header.packetNumberOffset == 35)
        #expect(packet.packetNumber == 1)
        #expect(packet.frames == Data([0x06, 0x00, 0x0a]) + Data("token+scid".utf8) + Data(count: 3))
    }

    @Test("after the switch to the server's CID the keys of the first DCID still open; the new CID's do not")
    func keysOfTheFirstConnectionID() throws {
        let datagram = Sealed.v2ServerChosenCID
        let header = try QUICInitialHeader(datagram: datagram)
        let packet = try open(datagram, keys(.v2))
        #expect(packet.packetNumber == 2)
        #expect(packet.frames == Data([0x06, 0x00, 0x10]) + Data("after the switch".utf8) + Data(count: 2))
        #expect(error(datagram, try keys(.v2, header.destinationConnectionID)) == .authenticationFailed)
    }

    @Test("a coalesced datagram: the second Initial opens from the first one's end, then zeros stop the walk")
    func coalesced() throws {
        let datagram = Sealed.v1Coalesced
        let keys = try keys(.v1)
        let first = try open(datagram, keys)
        #expect(first.header.totalLength == Sealed.v1CoalescedFirstLength && first.packetNumber == 3)
        #expect(first.frames == Data([0x06, 0x00, 0x0a]) + Data("first half".utf8) + Data(count: 2))
        let rest = datagram.dropFirst(first.header.totalLength)
        let second = try open(rest, keys, largest: first.packetNumber)
        #expect(second.header.totalLength == Sealed.v1CoalescedSecondLength && second.packetNumber == 4)
        #expect(second.frames == Data([0x06, 0x0a, 0x0b]) + Data("second half".utf8) + Data([0x01, 0x00, 0x00]))
        let tail = rest.dropFirst(second.header.totalLength)
        #expect(tail.count == 8)
        #expect(throws: QUICInitialError.notALongHeader) { try QUICInitialHeader(datagram: tail) }
    }

    @Test("a truncated packet number is completed from the largest seen, and fails without it")
    func packetNumberFromLargest() throws {
        let keys = try keys(.v1)
        let packet = try open(Sealed.v1PacketNumber261, keys, largest: 256)
        #expect(packet.packetNumber == 261)
        #expect(packet.frames == Data([0x06, 0x00, 0x04]) + Data("late".utf8) + Data(count: 4))
        #expect(error(Sealed.v1PacketNumber261, keys) == .authenticationFailed)
    }

    @Test("a real aioquic client Initial opens; the zeros after it are not a packet")
    func aioquicInitial() throws {
        let datagram = Sealed.aioquicDatagram
        let packet = try open(datagram, keys(.v1, Sealed.aioquicOriginalDCID))
        #expect(packet.packetNumber == 0)
        #expect(packet.header.totalLength == Sealed.aioquicPacketLength)
        var reader = QUICFrameReader(payload: packet.frames)
        let frame = try #require(try reader.next())
        #expect(frame.offset == 0 && frame.data == Sealed.aioquicClientHello)
        #expect(try reader.next() == nil)
        #expect(throws: QUICInitialError.notALongHeader) {
            try QUICInitialHeader(datagram: datagram.dropFirst(packet.header.totalLength))
        }
    }

    // MARK: failures

    @Test("an altered byte in the header, the ciphertext or the tag fails authentication")
    func alteredBytes() throws {
        let keys = try keys(.v1, RFC.clientDestinationConnectionID)
        let original = RFC.V1.protectedPacket
        // A DCID byte, a protected reserved bit of the first byte, the middle of the ciphertext
        // (past the sample), the last byte of the tag, a bit of the protected packet number.
        for (index, bit) in [(7, UInt8(0x01)), (0, 0x04), (600, 0x80), (1199, 0x01), (18, 0x10)] {
            var altered = original
            altered[index] ^= bit
            #expect(error(altered, keys) == .authenticationFailed, "byte \(index)")
        }
    }

    @Test("another connection's keys, or keys of the other version, do not open it")
    func wrongKeys() throws {
        let datagram = RFC.V1.protectedPacket
        #expect(error(datagram, try keys(.v1, Data([0, 0, 0, 0, 0, 0, 0, 0]))) == .authenticationFailed)
        #expect(error(datagram, try keys(.v2, RFC.clientDestinationConnectionID)) == .keysOfAnotherVersion)
        #expect(error(RFC.V2.protectedPacket, try keys(.v1, RFC.clientDestinationConnectionID)) == .keysOfAnotherVersion)
    }

    @Test("a datagram shorter than its header claims is truncated, even with the header read elsewhere")
    func shorterThanClaimed() throws {
        let keys = try keys(.v1, RFC.clientDestinationConnectionID)
        let header = try QUICInitialHeader(datagram: RFC.V1.protectedPacket)
        for length in [0, 1, 17, 18, 30, 1199] {
            #expect(error(RFC.V1.protectedPacket.prefix(length), keys, header: header) == .truncated, "length \(length)")
        }
    }

    @Test("opening a slice reads it from its own first byte")
    func sliceOfALargerBuffer() throws {
        let buffer = Data(repeating: 0xee, count: 5) + RFC.V1.protectedPacket
        let packet = try open(buffer.dropFirst(5), keys(.v1, RFC.clientDestinationConnectionID))
        #expect(packet.packetNumber == 2 && packet.frames.count == 1162)
    }

    @Test("bit flips anywhere in a sealed packet fail cleanly, never trap")
    func bitFlips() throws {
        let keys = try keys(.v1)
        var random = SeededRandom(seed: 0x0b17_f11b)
        let original = Sealed.v1TokenAndSourceCID
        for _ in 0..<300 {
            var altered = original
            let index = Int.random(in: 0..<altered.count, using: &random)
            altered[index] ^= 1 << UInt8.random(in: 0...7, using: &random)
            #expect(error(altered, keys) != nil, "byte \(index)")
        }
    }
}
