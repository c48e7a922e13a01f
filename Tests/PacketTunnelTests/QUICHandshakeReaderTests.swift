import Fixtures
import Foundation
import Testing
@testable import PacketTunnel
@testable import Shared

/// The server's side of a QUIC handshake read from its Initials, with keys from the client's:
/// the RFCs' own server Initials (RFC 9001 and RFC 9369 §A.3), and answers sealed by aioquic.
@Suite struct QUICHandshakeReaderTests {
    typealias RFC = QUICRFCVectors
    typealias Sealed = QUICSealedFixtures
    typealias Server = QUICSealedServerFixtures

    /// What both RFCs' ServerHello chose: TLS 1.3 with TLS_AES_128_GCM_SHA256.
    static let rfcAnswer = QUICServerHelloReader.Outcome.answered(
        NegotiatedTLS(version: TLSProtocolVersion(rawValue: 0x0304), cipherSuite: TLSCipherSuite(rawValue: 0x1301),
                      fromHelloRetryRequest: false, source: .serverHello))

    /// A Retry by hand (RFC 9000 §17.2.5): v1 type 11, the client's SCID (empty) as DCID, `source`
    /// as SCID, a token and a tag of zeros (nothing checks it).
    static func retry(source: Data, version: QUICVersion = .v1) -> Data {
        let first: UInt8 = version == .v2 ? 0xC0 : 0xF0
        var bytes = Data([first]) + withUnsafeBytes(of: version.rawValue.bigEndian) { Data($0) }
        bytes += Data([0]) + Data([UInt8(source.count)]) + source
        return bytes + Data("token".utf8) + Data(count: QUICRetryHeader.integrityTagLength)
    }

    @Test("RFC 9001 §A.3: after the client's Initial to 8394c8f03e515708, the server's v1 Initial opens to its ServerHello")
    func rfcVersion1() {
        var reader = QUICHandshakeReader()
        _ = reader.readClient(RFC.V1.protectedPacket)
        guard case .named("example.com", _) = reader.takeClientOutcome() else {
            Issue.record("the client's hello names example.com")
            return
        }
        let counts = reader.readServer(RFC.ServerV1.protectedPacket)
        #expect(counts.initialsOpened == 1 && counts.initialsUnopenable == 0)
        #expect(reader.takeServerOutcome() == Self.rfcAnswer)
        #expect(reader.isSettled)
    }

    @Test("RFC 9369 §A.3: the same in QUIC v2, whose labels and salt differ")
    func rfcVersion2() {
        var reader = QUICHandshakeReader()
        _ = reader.readClient(RFC.V2.protectedPacket)
        _ = reader.readServer(RFC.ServerV2.protectedPacket)
        #expect(reader.takeServerOutcome() == Self.rfcAnswer)
    }

    @Test("a server answering a v1 hello in v2 (compatible version negotiation) opens with v2 keys of the first DCID")
    func compatibleVersionNegotiation() {
        var reader = QUICHandshakeReader()
        _ = reader.readClient(RFC.V1.protectedPacket)
        _ = reader.readServer(RFC.ServerV2.protectedPacket)
        #expect(reader.takeServerOutcome() == Self.rfcAnswer)
    }

    @Test("without a client Initial there is no key: the server's Initial is not opened and nothing settles")
    func noClientInitial() {
        var reader = QUICServerHelloReader()
        #expect(!reader.knowsConnectionID)
        let counts = reader.read(datagram: RFC.ServerV1.protectedPacket)
        #expect(counts.initialsSeen == 1 && counts.initialsUnopenable == 1)
        #expect(reader.outcome == .needMoreInitials)
    }

    @Test("after a Retry, the server's Initials are opened with keys of the Retry's SCID, not of the first DCID")
    func retry() {
        var reader = QUICHandshakeReader()
        _ = reader.readClient(Sealed.v1PacketNumberLength1)
        // Keyed from 8394c8f03e515708, the RFC's answer does not open with the first DCID's keys…
        #expect(reader.readServer(RFC.ServerV1.protectedPacket).initialsUnopenable == 1)
        #expect(reader.takeServerOutcome() == nil)
        // …and does once a Retry sent the client there.
        #expect(reader.readServer(Self.retry(source: RFC.clientDestinationConnectionID)) == QUICInitialCounts())
        #expect(reader.readServer(RFC.ServerV1.protectedPacket).initialsOpened == 1)
        #expect(reader.takeServerOutcome() == Self.rfcAnswer)
    }

    @Test("a forged Retry does not blind the reader: the first DCID's keys are tried too, and only one Retry counts")
    func forgedRetry() {
        var reader = QUICHandshakeReader()
        _ = reader.readClient(RFC.V1.protectedPacket)
        _ = reader.readServer(Self.retry(source: Data([1, 2, 3, 4])))
        _ = reader.readServer(Self.retry(source: RFC.clientDestinationConnectionID))
        _ = reader.readServer(RFC.ServerV1.protectedPacket)
        #expect(reader.takeServerOutcome() == Self.rfcAnswer)
    }

    @Test("a v2 Retry is told by v2's type bits, and a v1 Initial is no Retry")
    func retryTypes() {
        #expect(QUICRetryHeader(datagram: Self.retry(source: Data([9]), version: .v2))?.sourceConnectionID == Data([9]))
        #expect(QUICRetryHeader(datagram: Self.retry(source: Data([9]), version: .v1))?.version == .v1)
        #expect(QUICRetryHeader(datagram: RFC.ServerV1.protectedPacket) == nil)
        #expect(QUICRetryHeader(datagram: Self.retry(source: Data([9])).dropLast(6)) == nil, "the token gone and one byte of the tag")
    }

    @Test("a ServerHello in two Initials, second half first, a Handshake packet coalesced after the first, is read whole")
    func splitAnswer() {
        var reader = QUICHandshakeReader()
        _ = reader.readClient(Sealed.v1PacketNumberLength1)
        let first = reader.readServer(Server.secondHalfAndHandshake)
        #expect(first.initialsSeen == 1 && first.initialsOpened == 1, "the Handshake packet is not an Initial")
        #expect(reader.takeServerOutcome() == nil)
        _ = reader.readServer(Server.firstHalf)
        #expect(reader.takeServerOutcome() == Self.rfcAnswer)
    }

    @Test("a CONNECTION_CLOSE with CRYPTO_ERROR 0x178 is the server's alert 120; another error code says nothing")
    func refusals() throws {
        var refused = QUICServerHelloReader()
        refused.clientInitial(try QUICInitialHeader(datagram: Sealed.v1PacketNumberLength1))
        _ = refused.read(datagram: Server.refusedWithAlert120)
        #expect(refused.outcome == .refused(alert: 120))

        var closed = QUICServerHelloReader()
        closed.clientInitial(try QUICInitialHeader(datagram: Sealed.v1PacketNumberLength1))
        _ = closed.read(datagram: Server.closedWithProtocolViolation)
        #expect(closed.outcome == .incomplete)
    }

    @Test("a ServerHello then a CONNECTION_CLOSE in one v2 packet is the answer, not a refusal")
    func answerThenClose() throws {
        var reader = QUICServerHelloReader()
        reader.clientInitial(try QUICInitialHeader(datagram: Sealed.v2PacketNumberLength1))
        _ = reader.read(datagram: Server.helloThenClose)
        #expect(reader.outcome == Self.rfcAnswer)
    }

    @Test("once settled, later datagrams are not opened")
    func settledStaysSettled() {
        var reader = QUICHandshakeReader()
        _ = reader.readClient(RFC.V1.protectedPacket)
        _ = reader.readServer(RFC.ServerV1.protectedPacket)
        #expect(reader.readServer(RFC.ServerV1.protectedPacket) == QUICInitialCounts())
        #expect(reader.takeServerOutcome() == Self.rfcAnswer)
        #expect(reader.takeServerOutcome() == nil, "handed out once")
    }
}
