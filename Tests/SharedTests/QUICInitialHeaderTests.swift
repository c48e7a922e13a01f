import Fixtures
import Foundation
import Testing
@testable import Shared

/// What `QUICInitialHeader` accepts and refuses before any key is used.
@Suite struct QUICInitialHeaderTests {
    typealias RFC = QUICRFCVectors

    private func error(_ datagram: Data) -> QUICInitialError? {
        do { _ = try QUICInitialHeader(datagram: datagram); return nil } catch { return error }
    }

    /// first byte · version · DCID · SCID · token length · token · Length (2-byte varint) · then
    /// `body` bytes (packet number and payload; never decrypted here).
    private func initial(first: UInt8 = 0xc3, version: UInt32 = 1, dcid: Int = 8, scid: Int = 0,
                         token: [UInt8] = [], length: Int = 20, body: Int = 20) -> Data {
        var bytes: [UInt8] = [first, UInt8(version >> 24), UInt8((version >> 16) & 0xff),
                              UInt8((version >> 8) & 0xff), UInt8(version & 0xff)]
        bytes.append(UInt8(dcid)); bytes += [UInt8](repeating: 0xdd, count: dcid)
        bytes.append(UInt8(scid)); bytes += [UInt8](repeating: 0x55, count: scid)
        bytes.append(UInt8(token.count)); bytes += token
        bytes += [0x40 | UInt8(length >> 8), UInt8(length & 0xff)]
        bytes += [UInt8](repeating: 0xab, count: body)
        return Data(bytes)
    }

    @Test("the RFC 9001 §A.2 Initial: every cleartext field")
    func rfcVersion1() throws {
        let header = try QUICInitialHeader(datagram: RFC.V1.protectedPacket)
        #expect(header.version == .v1)
        #expect(header.destinationConnectionID == RFC.clientDestinationConnectionID)
        #expect(header.sourceConnectionID.isEmpty && header.tokenLength == 0)
        // 1 first byte + 4 version + 1 + 8 DCID + 1 SCID length + 1 token length + 2 Length.
        #expect(header.packetNumberOffset == 18)
        #expect(header.packetLength == 1182 && header.totalLength == 1200)  // Length 0x449e: a 2-byte varint
    }

    @Test("the RFC 9369 §A.2 Initial: every cleartext field")
    func rfcVersion2() throws {
        let header = try QUICInitialHeader(datagram: RFC.V2.protectedPacket)
        #expect(header.version == .v2)
        #expect(header.destinationConnectionID == RFC.clientDestinationConnectionID)
        #expect(header.sourceConnectionID.isEmpty && header.tokenLength == 0)
        #expect(header.packetNumberOffset == 18 && header.packetLength == 1182)
    }

    @Test("token, SCID and 20-byte connection IDs move the packet number start")
    func fieldsMoveTheOffset() throws {
        let header = try QUICInitialHeader(datagram: initial(dcid: 20, scid: 20, token: [1, 2, 3]))
        #expect(header.destinationConnectionID == Data(repeating: 0xdd, count: 20))
        #expect(header.sourceConnectionID == Data(repeating: 0x55, count: 20))
        #expect(header.tokenLength == 3)
        #expect(header.packetNumberOffset == 1 + 4 + 21 + 21 + 1 + 3 + 2 && header.packetLength == 20)
        let empty = try QUICInitialHeader(datagram: initial(dcid: 0))
        #expect(empty.destinationConnectionID.isEmpty && empty.packetNumberOffset == 10)
    }

    @Test("Length, not the datagram size, ends the packet; what follows is left for the caller")
    func lengthEndsThePacket() throws {
        let header = try QUICInitialHeader(datagram: initial(length: 20, body: 500))
        #expect(header.packetLength == 20 && header.totalLength == header.packetNumberOffset + 20)
    }

    @Test("no long header: short header, cleared fixed bit, zero padding")
    func notALongHeader() {
        #expect(error(initial(first: 0x43)) == .notALongHeader)
        #expect(error(initial(first: 0x83)) == .notALongHeader)
        #expect(error(Data(repeating: 0, count: 40)) == .notALongHeader)
    }

    @Test("unknown versions and Version Negotiation are unsupported, with the version kept")
    func unsupportedVersions() {
        #expect(error(initial(version: 0xff00_001d)) == .unsupportedVersion(QUICVersion(rawValue: 0xff00_001d)))
        #expect(error(initial(version: 0)) == .unsupportedVersion(QUICVersion(rawValue: 0)))
        #expect(error(initial(version: 2)) == .unsupportedVersion(QUICVersion(rawValue: 2)))
    }

    @Test("the three other long types of each version are not Initials (RFC 9369 §3.2 renumbering)")
    func otherTypes() throws {
        // v1: 00 Initial, 01 0-RTT, 10 Handshake, 11 Retry.
        _ = try QUICInitialHeader(datagram: initial(first: 0xc0, version: 1))
        for first: UInt8 in [0xd0, 0xe0, 0xf0] {
            #expect(error(initial(first: first, version: 1)) == .notAnInitial)
        }
        // v2: 01 Initial, 10 0-RTT, 11 Handshake, 00 Retry.
        _ = try QUICInitialHeader(datagram: initial(first: 0xd0, version: 0x6b33_43cf))
        for first: UInt8 in [0xc0, 0xe0, 0xf0] {
            #expect(error(initial(first: first, version: 0x6b33_43cf)) == .notAnInitial)
        }
    }

    @Test("a connection ID over 20 bytes is refused, DCID or SCID")
    func oversizedConnectionID() {
        #expect(error(initial(dcid: 21)) == .connectionIDTooLong)
        #expect(error(initial(scid: 21)) == .connectionIDTooLong)
        #expect(error(initial(dcid: 255)) == .connectionIDTooLong)
    }

    @Test("cut at every byte, the RFC Initial is truncated, never mistaken or trapped")
    func everyPrefix() {
        let packet = RFC.V1.protectedPacket
        for length in 0..<packet.count {
            #expect(error(packet.prefix(length)) == .truncated, "prefix \(length)")
        }
        let token = initial(scid: 5, token: [9, 9, 9, 9])
        for length in 0..<token.count {
            #expect(error(token.prefix(length)) == .truncated, "token prefix \(length)")
        }
    }

    @Test("a token or a Length that does not fit the datagram is truncated")
    func lyingLengths() {
        // Token length 16, four bytes follow.
        var bytes = [UInt8](initial(body: 0).prefix(15))
        bytes += [0x10, 1, 2, 3, 4]
        #expect(error(Data(bytes)) == .truncated)
        // Length one more than the bytes present.
        #expect(error(initial(length: 21, body: 20)) == .truncated)
        // An 8-byte Length of 2^62 − 1.
        var huge = [UInt8](initial(body: 0).prefix(16))
        huge += [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff] + [UInt8](repeating: 0, count: 40)
        #expect(error(Data(huge)) == .truncated)
    }

    @Test("a Length below 20 cannot be sampled, however long the datagram")
    func tooShortToSample() throws {
        #expect(error(initial(length: 19, body: 100)) == .tooShortToSample)
        #expect(error(initial(length: 0, body: 100)) == .tooShortToSample)
        #expect(try QUICInitialHeader(datagram: initial(length: 20, body: 20)).packetLength == 20)
    }

    @Test("seeded random and bit-flipped datagrams only ever throw QUICInitialError")
    func randomInput() {
        var random = SeededRandom(seed: 0x5155_4943)
        for _ in 0..<2_000 {
            let length = Int.random(in: 0..<80, using: &random)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            if !bytes.isEmpty { bytes[0] |= 0xc0 }
            if bytes.count > 5, Bool.random(using: &random) { bytes[1...4] = [0, 0, 0, 1] }
            if let header = try? QUICInitialHeader(datagram: Data(bytes)) {
                #expect(header.totalLength <= bytes.count)
            }
        }
        var packet = [UInt8](RFC.V1.protectedPacket)
        for _ in 0..<500 {
            let index = Int.random(in: 0..<20, using: &random)
            packet[index] ^= 1 << UInt8.random(in: 0...7, using: &random)
            if let header = try? QUICInitialHeader(datagram: Data(packet)) {
                #expect(header.totalLength <= packet.count)
            }
        }
    }
}
