import Fixtures
import Foundation
import Testing
@testable import Shared

@Suite struct QUICLongHeaderTests {
    /// first byte · version · DCID length · DCID · SCID length · SCID · what follows (RFC 8999 §5.1).
    private func header(_ first: UInt8, _ version: UInt32, dcid: Int = 8, scid: Int = 0,
                        dcidLengthByte: UInt8? = nil, trailer: [UInt8] = [0x00, 0x41, 0x00]) -> Data {
        var bytes: [UInt8] = [first, UInt8(version >> 24), UInt8((version >> 16) & 0xff),
                              UInt8((version >> 8) & 0xff), UInt8(version & 0xff)]
        bytes.append(dcidLengthByte ?? UInt8(dcid))
        bytes += (0..<dcid).map { UInt8(truncatingIfNeeded: 0xd0 + $0) }
        bytes.append(UInt8(scid))
        bytes += (0..<scid).map { UInt8(truncatingIfNeeded: 0x50 + $0) }
        return Data(bytes + trailer)
    }

    @Test("the RFC client Initials read as version 1 and version 2")
    func rfcPackets() {
        #expect(QUICLongHeader.version(in: QUICRFCVectors.V1.protectedPacket) == .v1)
        #expect(QUICLongHeader.version(in: QUICRFCVectors.V2.protectedPacket) == .v2)
    }

    @Test("every long packet type counts: the version is read whatever the type bits")
    func everyType() {
        for typeBits: UInt8 in 0...3 {
            let first = 0xc0 | typeBits << 4 | 0x03
            #expect(QUICLongHeader.version(in: header(first, 0x0000_0001)) == .v1)
            #expect(QUICLongHeader.version(in: header(first, 0x6b33_43cf)) == .v2)
        }
    }

    @Test("an unknown version is returned by value, not dropped")
    func unknownVersion() {
        let version = QUICLongHeader.version(in: header(0xc0, 0xff00_001d))
        #expect(version == QUICVersion(rawValue: 0xff00_001d))
        #expect(version?.hasKnownPacketProtection == false)
        // A greased version (RFC 9000 §15: 0x?a?a?a?a).
        #expect(QUICLongHeader.version(in: header(0xc0, 0x1a2a_3a4a))?.rawValue == 0x1a2a_3a4a)
    }

    @Test("connection IDs of 20 bytes and of none are both fine, with nothing after them")
    func connectionIDEdges() {
        #expect(QUICLongHeader.version(in: header(0xc0, 1, dcid: 20, scid: 20)) == .v1)
        #expect(QUICLongHeader.version(in: header(0xc0, 1, dcid: 0, scid: 0)) == .v1)
        #expect(QUICLongHeader.version(in: header(0xc0, 1, dcid: 0, scid: 0, trailer: [])) == .v1)
        #expect(QUICLongHeader.version(in: header(0xc0, 1, dcid: 20, scid: 20, trailer: [])) == .v1)
    }

    @Test("a slice that does not start at index 0 is read from its own first byte")
    func slice() {
        let datagram = Data([0x00, 0x00, 0x00]) + header(0xd3, 0x6b33_43cf)
        #expect(QUICLongHeader.version(in: datagram.dropFirst(3)) == .v2)
        #expect(QUICLongHeader.version(in: datagram) == nil)
    }

    @Test("short headers, cleared fixed bits and Version Negotiation are not long headers")
    func notLongHeaders() {
        #expect(QUICLongHeader.version(in: header(0x40, 1)) == nil)   // short header
        #expect(QUICLongHeader.version(in: header(0x80, 1)) == nil)   // fixed bit cleared (RFC 9287)
        #expect(QUICLongHeader.version(in: header(0x00, 1)) == nil)
        #expect(QUICLongHeader.version(in: header(0xc0, 0)) == nil)   // Version Negotiation
        #expect(QUICLongHeader.version(in: header(0x80, 0)) == nil)
    }

    @Test("too short, or connection IDs that do not fit the datagram")
    func tooShort() {
        let whole = header(0xc0, 1, dcid: 8, scid: 4, trailer: [])
        #expect(QUICLongHeader.version(in: whole) == .v1)
        for length in 0..<whole.count {
            #expect(QUICLongHeader.version(in: whole.prefix(length)) == nil, "prefix \(length)")
        }
        #expect(QUICLongHeader.version(in: Data()) == nil)
    }

    @Test("a connection ID over 20 bytes drops a known version but not an unknown one")
    func oversizedConnectionID() {
        #expect(QUICLongHeader.version(in: header(0xc0, 1, dcid: 21)) == nil)
        #expect(QUICLongHeader.version(in: header(0xc0, 1, scid: 21)) == nil)
        #expect(QUICLongHeader.version(in: header(0xd0, 0x6b33_43cf, dcid: 21)) == nil)
        #expect(QUICLongHeader.version(in: header(0xc0, 0xff00_001d, dcid: 21))?.rawValue == 0xff00_001d)
        #expect(QUICLongHeader.version(in: header(0xc0, 0xff00_001d, dcid: 255, scid: 255))?.rawValue == 0xff00_001d)
        // A length byte promising more than is there is not a header, whatever the version.
        #expect(QUICLongHeader.version(in: header(0xc0, 0xff00_001d, dcid: 8, dcidLengthByte: 200)) == nil)
    }
}

/// Which datagrams open a QUIC connection, for the pipeline and the relay alike.
@Suite struct QUICConnectionVersionTests {
    static func version(_ bytes: [UInt8], toPort port: UInt16) -> QUICVersion? {
        bytes.withUnsafeBytes { QUICLongHeader.connectionVersion(in: $0, remotePort: port) }
    }

    @Test("a DNS query whose ID begins like a long header is no QUIC, toward port 53")
    func dnsQueryIsNoQUIC() {
        let query = DNSMessageFixture.encode(DNSMessageFixture.query(id: 0xC0DE, for: "video.demo.test"))
        #expect(QUICLongHeader.version(in: Data(query)) != nil, "the query does look like a long header")
        #expect(Self.version(query, toPort: 53) == nil)
    }

    @Test("toward 443 any version counts; elsewhere only versions whose Initials open")
    func byPort() {
        let v1 = [UInt8](QUICRFCVectors.V1.protectedPacket)
        #expect(Self.version(v1, toPort: 443) == .v1 && Self.version(v1, toPort: 8443) == .v1)
        let unknown: [UInt8] = [0xC0, 0x1A, 0x2A, 0x3A, 0x4A, 0x00, 0x00]
        #expect(Self.version(unknown, toPort: 443) == QUICVersion(rawValue: 0x1A2A_3A4A))
        #expect(Self.version(unknown, toPort: 8443) == nil)
    }
}
