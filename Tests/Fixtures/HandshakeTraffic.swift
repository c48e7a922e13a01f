import Foundation
import Shared

/// A deterministic capture's worth of named conversations, for the `analyze` benchmark: each
/// begins with a DNS lookup of its server's name, then a TLS 1.2 connection to that address — SYN,
/// SYN-ACK, ACK, a ClientHello with SNI and ALPN, the server's hello, certificate and hello-done,
/// then application data both ways and the two FINs — all built with `PacketEmitter`, so every
/// datagram is well formed and checksum-correct. `concurrentConversations` run at once, their
/// packets interleaved in a seeded random order (each conversation's own order kept), as a busy
/// machine's capture would hold them.
package struct HandshakeTraffic: Sendable {
    package struct Packet: Sendable {
        package let bytes: Data
        /// Nanoseconds since the stream started (strictly increasing).
        package let offsetNanoseconds: UInt64
    }

    /// A self-signed P-256 certificate made by `openssl req -x509` (CN=bench.example.test): what
    /// every server presents.
    static let certificate = Data(base64Encoded: """
        MIIB4zCCAYmgAwIBAgIUd/BoDcle9alpZ+10nfKo6nEfZBEwCgYIKoZIzj0EAwIwRzELMAkGA1UEBhMCWFgxGzAZBgNVBAoMElR1bm5lbFZpc2lvbiBCZW5jaDEbMBkGA1UEAwwSYmVuY2guZXhhbXBsZS50ZXN0MB4XDTI2MTEzMDIwNTcwNloXDTM2MTEyNzIwNTcwNlowRzELMAkGA1UEBhMCWFgxGzAZBgNVBAoMElR1bm5lbFZpc2lvbiBCZW5jaDEbMBkGA1UEAwwSYmVuY2guZXhhbXBsZS50ZXN0MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAELh7FPYMTsF0iLECkUfDjRl0BFzAbaRW3JKIAOz0w4A98/Iwx46cKH0Lv73oQydDWaI96Uz56mDGiYC1aGVdi8aNTMFEwHQYDVR0OBBYEFN6ffzogrB/KEYIXguSRM9VHfR/nMB8GA1UdIwQYMBaAFN6ffzogrB/KEYIXguSRM9VHfR/nMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSAAwRQIhAK+zE1QcmfGgygoKn+V1sFuutbIYbnNRAZ3xK2EqAF47AiBrf7XAhHx17coTXXRZPq/OEGfYCEx6O3V2/K0qJPJvUQ==
        """, options: .ignoreUnknownCharacters)!

    static let client = IPAddress(ipv4: 0xC612_0002)                  // 198.18.0.2, the tunnel's address
    static let resolver = IPEndpoint(address: IPAddress(ipv4: 0xC613_0035), port: 53)   // 198.19.0.53
    /// Application-data records each way per conversation.
    static let dataRecords = 12
    /// Conversations in progress at any time.
    static let concurrentConversations = 16

    private var random: SeededRandom
    private var clock: UInt64 = 0
    /// Each running conversation's packets still to come, last first.
    private var running: [[Data]] = []
    private var conversation = 0

    package init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    package mutating func next() -> Packet {
        while running.count < Self.concurrentConversations { running.append(makeConversation().reversed()) }
        let pick = Int(random.next() % UInt64(running.count))
        let bytes = running[pick].removeLast()
        if running[pick].isEmpty { running.remove(at: pick) }
        clock += 1_000 + random.next() % 20_000
        return Packet(bytes: bytes, offsetNanoseconds: clock)
    }

    private mutating func makeConversation() -> [Data] {
        conversation += 1
        let name = "host-\(conversation).example.test"
        // Servers in 198.18.128.0/17, apart from the client and the resolver.
        let server = IPEndpoint(address: IPAddress(ipv4: 0xC612_8000 | UInt32(1 + conversation % 32_000)), port: 443)
        let local = IPEndpoint(address: Self.client, port: UInt16(20_000 + conversation % 40_000))
        let lookup = IPEndpoint(address: Self.client, port: UInt16(10_000 + conversation % 10_000))
        var packets: [Data] = []
        let id = UInt16(truncatingIfNeeded: conversation)
        packets.append(try! PacketEmitter.udp(source: lookup, destination: Self.resolver,
                                              payload: Data(DNSMessageFixture.encode(DNSMessageFixture.query(id: id, for: name)))))
        let reply = DNSMessageFixture.reply(id: id, to: name, answers: [DNSMessageFixture.a(name, "\(server.address)")])
        packets.append(try! PacketEmitter.udp(source: Self.resolver, destination: lookup,
                                              payload: Data(DNSMessageFixture.encode(reply))))

        var clientNext = UInt32(truncatingIfNeeded: random.next())
        var serverNext = UInt32(truncatingIfNeeded: random.next())
        func segment(_ fromClient: Bool, _ flags: TCPFlags, _ payload: Data = Data()) {
            let (source, destination) = fromClient ? (local, server) : (server, local)
            let sequence = fromClient ? clientNext : serverNext
            let acknowledgment = fromClient ? serverNext : clientNext
            packets.append(try! PacketEmitter.tcp(source: source, destination: destination, sequence: sequence,
                                                  acknowledgment: flags.contains(.ack) ? acknowledgment : 0,
                                                  flags: flags, windowSize: 64_240, payload: payload))
            let length = UInt32(payload.count) + (flags.contains(.syn) || flags.contains(.fin) ? 1 : 0)
            if fromClient { clientNext &+= length } else { serverNext &+= length }
        }
        segment(true, .syn)
        segment(false, [.syn, .ack])
        segment(true, .ack)
        segment(true, [.ack, .psh], TLSHandshakeFixture.clientHelloRecord(serverName: name, applicationProtocols: ["h2", "http/1.1"]))
        segment(false, .ack)
        segment(false, [.ack, .psh], TLSHandshakeFixture.serverFlight12(cipherSuite: 0xC02B, certificates: [Self.certificate]))
        for _ in 0..<Self.dataRecords {
            segment(true, [.ack, .psh], TLSHandshakeFixture.applicationData(byteCount: 200 + Int(random.next() % 300)))
            segment(false, [.ack, .psh], TLSHandshakeFixture.applicationData(byteCount: 600 + Int(random.next() % 800)))
        }
        segment(true, [.fin, .ack])
        segment(false, [.fin, .ack])
        segment(true, .ack)
        return packets
    }
}
