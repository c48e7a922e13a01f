import Foundation
import Shared
import Testing
@testable import PacketTunnel

@Suite struct ServerCertificateScannerTests {
    typealias V = TLSVectors
    typealias C = TestCertificates
    typealias Outcome = ServerCertificateScanner.Outcome

    static let leaf = C.der(subject: "www.example.com", issuer: "Example CA")
    static let intermediate = C.der(subject: "Example CA", issuer: "Example Root", notAfter: "491231235959Z")
    /// 2030-12-31T23:59:59Z and 2049-12-31T23:59:59Z (`date -u -d … +%s`).
    static let leafRead = ServerCertificate(subject: CertificateName(text: "CN=www.example.com"),
                                            issuer: CertificateName(text: "CN=Example CA"),
                                            notAfter: Date(timeIntervalSince1970: 1_924_991_999))
    static let intermediateRead = ServerCertificate(subject: CertificateName(text: "CN=Example CA"),
                                                    issuer: CertificateName(text: "CN=Example Root"),
                                                    notAfter: Date(timeIntervalSince1970: 2_524_607_999))
    static let fullChain: Outcome = .found(.chain(ServerCertificateChain(certificates: [leafRead, intermediateRead],
                                                                         isComplete: true)))
    static let certificate = V.certificateMessage([leaf, intermediate])

    /// Feeds `chunks` to a ServerHelloScanner and, from the chunk that completes the hello on, to
    /// the certificate scanner built from its remainder; the certificate scanner's answers.
    private func certificates(_ chunks: [Data], config: ServerCertificateScanner.Config = .init()) -> [Outcome] {
        var hello = ServerHelloScanner()
        var scanner: ServerCertificateScanner?
        var outcomes: [Outcome] = []
        for chunk in chunks {
            if var current = scanner {
                outcomes.append(current.scan(chunk))
                scanner = current
            } else if case .found = hello.scan(chunk), let remainder = hello.remainder {
                var fresh = ServerCertificateScanner(resuming: remainder, config: config)
                outcomes.append(fresh.scan(Data()))
                scanner = fresh
            }
        }
        return outcomes
    }

    private func certificates(_ stream: [UInt8], config: ServerCertificateScanner.Config = .init()) -> Outcome? {
        certificates([Data(stream)], config: config).last
    }

    private func chain(_ certificates: [ServerCertificate], complete: Bool) -> Outcome {
        .found(.chain(ServerCertificateChain(certificates: certificates, isComplete: complete)))
    }

    // MARK: where the chain is

    @Test("the chain in the ServerHello's own record")
    func sharedRecord() {
        #expect(certificates(V.record(V.serverHello12Message + Self.certificate + V.serverHelloDone)) == Self.fullChain)
    }

    @Test("the chain in a record of its own, and arriving in a later chunk")
    func ownRecordAndLater() {
        let hello = V.record(V.serverHello12Message)
        let certificate = V.record(Self.certificate)
        #expect(certificates(hello + certificate) == Self.fullChain)
        #expect(certificates([Data(hello), Data(certificate)]) == [.needMoreBytes, Self.fullChain])
    }

    @Test("the chain split across records of any size")
    func splitAcrossRecords() {
        for size in [1, 2, 3, 4, 100, 333] {
            #expect(certificates(V.record(V.serverHello12Message) + V.records(Self.certificate, size: size)) == Self.fullChain,
                    "records of \(size)")
        }
    }

    @Test("the same chain at seven chunk sizes and at every split")
    func chunkSizes() {
        let flight = V.record(V.serverHello12Message + Self.certificate + V.serverHelloDone)
        for size in [1, 2, 3, 7, 64, 500, flight.count] {
            let outcomes = certificates(V.chunks(flight, size: size))
            // Undecided until the Certificate message is whole, then the same answer to every chunk.
            let decided = outcomes.drop { $0 == .needMoreBytes }
            #expect(!decided.isEmpty && decided.allSatisfy { $0 == Self.fullChain }, "chunks of \(size)")
        }
        for index in 1..<flight.count {
            #expect(certificates(V.split(flight, at: index)).last == Self.fullChain, "split at \(index)")
        }
    }

    @Test("what follows the Certificate message is not read")
    func followingIgnored() {
        let flight = V.record(V.serverHello12Message + Self.certificate) + [0x15, 0xFF, 0xFF, 0xFF]
        #expect(certificates(flight) == Self.fullChain)
    }

    // MARK: no certificate

    @Test("a resumed session: ChangeCipherSpec, a NewSessionTicket or a Finished right after the hello")
    func resumed() {
        let resumed: Outcome = .found(.notSent(.resumedSession))
        #expect(certificates(V.record(V.serverHello12Message) + V.changeCipherSpec + [0x16, 0x03, 0x03, 0x00, 0x28]) == resumed)
        #expect(certificates(V.record(V.serverHello12Message + V.handshake(4, [0, 0, 0, 0, 0, 0]))) == resumed)
        #expect(certificates(V.record(V.serverHello12Message) + V.record(V.handshake(20, [UInt8](repeating: 0, count: 12)))) == resumed)
        // The ChangeCipherSpec arriving in the next chunk.
        #expect(certificates([Data(V.record(V.serverHello12Message)), Data(V.changeCipherSpec)]) == [.needMoreBytes, resumed])
    }

    @Test("a full handshake going on without a Certificate message")
    func continuedWithoutCertificate() {
        let without: Outcome = .found(.notSent(.continuedWithoutCertificate))
        #expect(certificates(V.record(V.serverHello12Message + V.handshake(12, [0x03, 0x00, 0x1D]))) == without)
        #expect(certificates(V.record(V.serverHello12Message + V.serverHelloDone)) == without)
    }

    // MARK: refusals and oddities

    @Test("an alert, an unexpected message, a record that is not a handshake")
    func refusals() {
        #expect(certificates(V.record(V.serverHello12Message) + V.handshakeFailureAlert) == .unavailable(.alert(description: 40)))
        #expect(certificates(V.record(V.serverHello12Message + V.handshake(13, [0x01, 0x01, 0x00, 0x00, 0x00])))
                == .unavailable(.unexpectedMessage(type: 13)))
        #expect(certificates(V.record(V.serverHello12Message + V.handshake(2, V.serverHelloBody())))
                == .unavailable(.unexpectedMessage(type: 2)))
        #expect(certificates(V.record(V.serverHello12Message) + [0x17, 0x03, 0x03, 0x00, 0x10]) == .unavailable(.notTLSHandshake))
    }

    @Test("a ChangeCipherSpec or an alert in the middle of the Certificate message")
    func interleaved() {
        let half = Array(Self.certificate[..<100])
        #expect(certificates(V.record(V.serverHello12Message) + V.record(half) + V.changeCipherSpec) == .unavailable(.malformed))
        #expect(certificates(V.record(V.serverHello12Message) + V.record(half) + V.handshakeFailureAlert)
                == .unavailable(.alert(description: 40)))
        #expect(certificates(V.record(V.serverHello12Message) + V.record(half) + [0x00, 0x00]) == .unavailable(.malformed))
    }

    @Test("lying lengths in the certificate list")
    func lyingLengths() {
        func message(_ list: [UInt8]) -> [UInt8] { V.record(V.serverHello12Message + V.handshake(11, list)) }
        let entry = V.vector(Self.leaf, lengthBytes: 3)
        #expect(certificates(message(V.bigEndian(entry.count + 1, bytes: 3) + entry)) == .unavailable(.malformed))   // list > body
        #expect(certificates(message(V.bigEndian(entry.count - 1, bytes: 3) + entry)) == .unavailable(.malformed))   // list < body
        let overrun = V.bigEndian(Self.leaf.count + 1, bytes: 3) + Self.leaf                                         // entry > list
        #expect(certificates(message(V.vector(overrun, lengthBytes: 3))) == .unavailable(.malformed))
        #expect(certificates(message(V.vector([0, 0, 0], lengthBytes: 3))) == .unavailable(.malformed))            // empty entry
        #expect(certificates(message([0, 0, 0])) == .unavailable(.malformed))                                     // empty list
        #expect(certificates(message([0, 0])) == .unavailable(.malformed))                                        // no list length
        #expect(certificates(message(V.vector(entry + [0x00], lengthBytes: 3))) == .unavailable(.malformed))      // half an entry
    }

    @Test("an unreadable certificate stops the reading")
    func unreadable() {
        var broken = Self.intermediate
        broken[broken.count - 1] ^= 0xFF                                 // still DER, but…
        broken.removeLast()                                              // …now cut: the outer length lies
        #expect(certificates(V.record(V.serverHello12Message + V.certificateMessage([Self.leaf, broken, Self.leaf])))
                == chain([Self.leafRead], complete: false))
        #expect(certificates(V.record(V.serverHello12Message + V.certificateMessage([broken, Self.leaf])))
                == .unavailable(.malformed))
    }

    // MARK: limits

    @Test("the count limit keeps the first certificates, as incomplete")
    func countLimit() {
        let ten = [[UInt8]](repeating: Self.leaf, count: 10)
        let flight = V.record(V.serverHello12Message) + V.records(V.certificateMessage(ten), size: 1 << 14)
        #expect(certificates(flight) == chain([ServerCertificate](repeating: Self.leafRead, count: 8), complete: false))
        let exactly = V.record(V.serverHello12Message + V.certificateMessage([Self.leaf, Self.leaf]))
        #expect(certificates(exactly, config: .init(maxCertificates: 2)) == chain([Self.leafRead, Self.leafRead], complete: true))
        #expect(certificates(exactly, config: .init(maxCertificates: 1)) == chain([Self.leafRead], complete: false))
    }

    @Test("the byte limit keeps the certificates wholly inside it, and reads the one it cuts from its beginning")
    func byteLimit() {
        let flight = V.record(V.serverHello12Message + Self.certificate)
        let leafEnd = 3 + 3 + Self.leaf.count
        #expect(certificates(flight, config: .init(maxChainBytes: leafEnd)) == chain([Self.leafRead], complete: false))
        #expect(certificates(flight, config: .init(maxChainBytes: leafEnd - 1)) == chain([Self.leafRead], complete: false))
        #expect(certificates(flight, config: .init(maxChainBytes: Self.certificate.count - 5))
                == chain([Self.leafRead, Self.intermediateRead], complete: true))
        #expect(certificates(flight, config: .init(maxChainBytes: 3 + 3 + 40)) == chain([], complete: false))
        #expect(certificates(flight, config: .init(maxChainBytes: Self.certificate.count - 4)) == Self.fullChain)
    }

    @Test("a lone certificate larger than the byte limit is read from its beginning, and the chain is whole")
    func loneCertificateLargerThanTheLimit() {
        let flight = V.record(V.serverHello12Message + V.certificateMessage([Self.leaf]))
        // Cut inside its key, after the subject: what is kept of it is all there.
        let read = certificates(flight, config: .init(maxChainBytes: 3 + 3 + Self.leaf.count - 20))
        #expect(read == chain([Self.leafRead], complete: true))
    }

    @Test("a message that declares 16 MiB is read up to the limit")
    func hugeDeclaration() {
        let big = C.der(subject: "big.example", issuer: "Example CA", padding: 33_000)
        var body = V.bigEndian(0xFF_FFFC, bytes: 3) + V.vector(Self.leaf, lengthBytes: 3) + V.vector(big, lengthBytes: 3)
        body += [UInt8](repeating: 0xAB, count: 40_000)
        let message: [UInt8] = [0x0B, 0xFF, 0xFF, 0xFF] + body                              // declares 2^24 − 1
        let flight = V.record(V.serverHello12Message) + V.records(message, size: 1 << 14)
        // The second certificate begins inside the limit: it is read from its beginning.
        #expect(certificates(flight) == chain([Self.leafRead, Self.bigRead], complete: false))
        // Nothing is decided before the limit's worth has arrived.
        let early = V.record(V.serverHello12Message) + V.records(Array(message[..<30_000]), size: 1 << 14)
        #expect(certificates(early) == .needMoreBytes)
    }

    @Test("a lone leaf larger than the whole limit is read from its beginning: the chain is whole")
    func leafBeyondLimit() {
        let big = C.der(subject: "big.example", issuer: "Example CA", padding: 40_000)
        let flight = V.record(V.serverHello12Message) + V.records(V.certificateMessage([big]), size: 1 << 14)
        #expect(certificates(flight) == chain([Self.bigRead], complete: true))
    }

    static let bigRead = ServerCertificate(subject: CertificateName(text: "CN=big.example"),
                                           issuer: CertificateName(text: "CN=Example CA"), notAfter: leafRead.notAfter)

    // MARK: the hand-over

    @Test("after a TLS 1.3 hello nothing is read")
    func afterTLS13() throws {
        var hello = ServerHelloScanner()
        _ = hello.scan(Data(V.serverHello13Record + V.record(Self.certificate)))
        let remainder = try #require(hello.remainder)
        var scanner = ServerCertificateScanner(resuming: remainder)
        #expect(scanner.scan(Data()) == .unavailable(.notTLSHandshake))
        #expect(scanner.scan(Data(V.record(Self.certificate))) == .unavailable(.notTLSHandshake))
    }

    @Test("a hello completed by the chunk that also starts the chain: the pending bytes are read first")
    func handOver() {
        let flight = V.record(V.serverHello12Message + Self.certificate)
        let chunks = [Data(flight[..<20]), Data(flight[20..<200]), Data(flight[200...])]
        #expect(certificates(chunks) == [.needMoreBytes, Self.fullChain])
        #expect(certificates([Data(flight)]) == [Self.fullChain])
    }

    @Test("once settled, later bytes change nothing")
    func sticky() throws {
        var hello = ServerHelloScanner()
        _ = hello.scan(Data(V.record(V.serverHello12Message + V.serverHelloDone)))
        var scanner = ServerCertificateScanner(resuming: try #require(hello.remainder))
        let without: Outcome = .found(.notSent(.continuedWithoutCertificate))
        #expect(scanner.scan(Data()) == without)
        #expect(scanner.scan(Data(V.record(Self.certificate))) == without)
    }
}
