import Foundation
@testable import Linux
import PacketTunnel
import Shared
import Testing

/// Our client and our server sessions joined in memory, no socket: the handshake and a large
/// transfer at many chunk sizes, and what the server does with bytes that are not TLS.
@Suite("OpenSSL sessions paired in memory")
struct OpenSSLSessionPairTests {
    let host = "pair.test"
    let certificates: InspectionCertificates
    let minted: MintedCertificate

    init() throws {
        certificates = try InspectionCertificates()
        try certificates.leaf("leaf", host: host)
        minted = try certificates.minted("leaf", host: host)
    }

    func factory(counting mints: MintCounter = MintCounter()) throws -> OpenSSLSessionFactory {
        let minted = minted
        return try OpenSSLSessionFactory(mint: { _ in mints.count += 1; return minted },
                                         upstreamTrust: .file(URL(fileURLWithPath: certificates.root)))
    }

    final class MintCounter { var count = 0 }

    /// Two sessions and the bytes in flight between them, delivered `chunk` bytes per call.
    struct Wire {
        let client: any TLSSession
        let server: any TLSSession
        let chunk: Int
        var toServer = Data()
        var toClient = Data()
        var atServer = Data()
        var atClient = Data()
        var ends: [TLSSessionEnd] = []
        /// Whose peer's close_notify each side read, in order: "server" when the server read the client's.
        var closeNotifiesRead: [String] = []

        mutating func take(_ step: TLSSessionStep, fromClient: Bool) {
            if fromClient { toServer += step.toPeer; atClient += step.plaintext } else { toClient += step.toPeer; atServer += step.plaintext }
            if let end = step.ended { ends.append(end) }
        }

        /// Delivers everything in flight, both ways, until nothing moves.
        mutating func settle() {
            while !toServer.isEmpty || !toClient.isEmpty {
                if !toServer.isEmpty {
                    let piece = toServer.prefix(chunk)
                    toServer.removeFirst(piece.count)
                    let step = server.receive(Data(piece))
                    toClient += step.toPeer
                    atServer += step.plaintext
                    if let end = step.ended { ends.append(end) }
                    if step.peerClosed { closeNotifiesRead.append("server") }
                }
                if !toClient.isEmpty {
                    let piece = toClient.prefix(chunk)
                    toClient.removeFirst(piece.count)
                    let step = client.receive(Data(piece))
                    toServer += step.toPeer
                    atClient += step.plaintext
                    if let end = step.ended { ends.append(end) }
                    if step.peerClosed { closeNotifiesRead.append("client") }
                }
            }
        }
    }

    static func random(_ count: Int, seed: UInt64) -> Data {
        var state = seed
        return Data((0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        })
    }

    @Test("the handshake and 1 MiB each way arrive byte-exact whatever the chunk size", arguments: [1, 5, 1_500, 16_389, 100_000])
    func largeTransfer(chunk: Int) throws {
        let factory = try factory()
        let server = try factory.makeServer(host: host, applicationProtocol: "h2")
        let client = try factory.makeClient(host: host, applicationProtocols: ["h2", "http/1.1"])
        var wire = Wire(client: client, server: server, chunk: chunk)
        wire.take(client.start(), fromClient: true)
        wire.settle()
        #expect(client.isEstablished && server.isEstablished)
        #expect(client.applicationProtocol == "h2" && server.applicationProtocol == "h2")
        #expect(client.negotiated?.version == .tls13)
        #expect(client.negotiated == server.negotiated)

        let upward = Self.random(1 << 20, seed: 1)
        let downward = Self.random(1 << 20, seed: 2)
        // Offered in uneven pieces, so SSL_write's record split is exercised too.
        for range in stride(from: 0, to: upward.count, by: 70_001).map({ $0..<min($0 + 70_001, upward.count) }) {
            wire.take(client.send(upward.subdata(in: range)), fromClient: true)
            wire.take(server.send(downward.subdata(in: range)), fromClient: false)
        }
        wire.settle()
        #expect(wire.atServer == upward)
        #expect(wire.atClient == downward)
        #expect(wire.ends.isEmpty)

        wire.take(client.close(), fromClient: true)
        wire.settle()
        // The server reads the client's close_notify and may still send: each direction closes on its own.
        #expect(wire.closeNotifiesRead == ["server"])
        wire.take(server.send(Data("after".utf8)), fromClient: false)
        wire.take(server.close(), fromClient: false)
        wire.settle()
        #expect(wire.atClient.suffix(5) == Data("after".utf8))
        #expect(wire.closeNotifiesRead == ["server", "client"])
        #expect(wire.ends.isEmpty)
        #expect(server.receive(Data([23, 3, 3, 0, 1, 0])) == TLSSessionStep(), "nothing is read after the peer's close_notify")
    }

    @Test("no common ALPN protocol, or none given, means no ALPN on either side")
    func noApplicationProtocol() throws {
        let factory = try factory()
        for (answer, offer) in [("h2", ["http/1.1"]), (nil, ["h2"]), ("h2", [])] as [(String?, [String])] {
            let server = try factory.makeServer(host: host, applicationProtocol: answer)
            let client = try factory.makeClient(host: host, applicationProtocols: offer)
            var wire = Wire(client: client, server: server, chunk: 4_096)
            wire.take(client.start(), fromClient: true)
            wire.settle()
            #expect(client.isEstablished && server.isEstablished)
            #expect(client.applicationProtocol == nil && server.applicationProtocol == nil)
        }
    }

    @Test("an HTTP request fed to the server session ends it as failed with OpenSSL's reason, and nothing follows")
    func notTLS() throws {
        let server = try factory().makeServer(host: host, applicationProtocol: nil)
        let step = server.receive(Data("GET / HTTP/1.1\r\nHost: pair.test\r\n\r\n".utf8))
        guard case .failed(let reason) = step.ended else {
            Issue.record("expected a failure, got \(String(describing: step.ended))")
            return
        }
        #expect(reason.contains("http request"), "\(reason)")
        #expect(!server.isEstablished)
        #expect(server.receive(Data("more".utf8)) == TLSSessionStep())
        #expect(server.receiveEnd() == TLSSessionStep())
    }

    @Test("garbage after the handshake ends the session as failed")
    func garbageAfterHandshake() throws {
        let factory = try factory()
        let server = try factory.makeServer(host: host, applicationProtocol: nil)
        let client = try factory.makeClient(host: host, applicationProtocols: [])
        var wire = Wire(client: client, server: server, chunk: 4_096)
        wire.take(client.start(), fromClient: true)
        wire.settle()
        #expect(server.isEstablished)
        // An application-data record of the right shape whose contents no key made.
        let forged = Data([23, 3, 3, 0, 40]) + Self.random(40, seed: 3)
        guard case .failed(let reason) = server.receive(forged).ended else {
            Issue.record("a forged record did not end the session")
            return
        }
        #expect(!reason.isEmpty)
    }

    @Test("plaintext offered before the handshake ends the session with a reason instead of vanishing")
    func sendBeforeHandshake() throws {
        let client = try factory().makeClient(host: host, applicationProtocols: [])
        _ = client.start()
        #expect(client.send(Data("early".utf8)).ended == .failed("plaintext sent before the handshake finished"))
    }

    @Test("the stream ending during the handshake fails the session; after it, the session may still send")
    func streamEnds() throws {
        let factory = try factory()
        let early = try factory.makeClient(host: host, applicationProtocols: [])
        _ = early.start()
        #expect(early.receiveEnd().ended == .streamEndedInHandshake)

        let server = try factory.makeServer(host: host, applicationProtocol: nil)
        let client = try factory.makeClient(host: host, applicationProtocols: [])
        var wire = Wire(client: client, server: server, chunk: 4_096)
        wire.take(client.start(), fromClient: true)
        wire.settle()
        #expect(server.receiveEnd() == TLSSessionStep())                  // half-closed: it may still send
        #expect(server.send(Data("still".utf8)).toPeer.isEmpty == false)
    }

    @Test("a host's leaf is minted once; its second connection mints nothing")
    func leafMintedOnce() throws {
        let mints = MintCounter()
        let factory = try factory(counting: mints)
        _ = try factory.makeServer(host: host, applicationProtocol: nil)
        _ = try factory.makeServer(host: host, applicationProtocol: "h2")
        #expect(mints.count == 1)
        #expect(factory.leavesMinted == 1)
    }

    @Test("a mint that fails, or a leaf OpenSSL cannot read, is a TLSSessionFailure naming the host")
    func badLeaf() throws {
        let broken = try OpenSSLSessionFactory(
            mint: { host in MintedCertificate(host: host, certificateDER: Data([0x30, 0x03, 0x02, 0x01, 0x01]), privateKeyDER: Data()) },
            upstreamTrust: .file(URL(fileURLWithPath: certificates.root)))
        #expect(throws: TLSSessionFailure.self) { _ = try broken.makeServer(host: "broken.test", applicationProtocol: nil) }
        do {
            _ = try broken.makeServer(host: "broken.test", applicationProtocol: nil)
        } catch {
            #expect(error.description.contains("broken.test"))
        }
    }
}
