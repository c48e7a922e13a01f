import Foundation
@testable import PacketTunnel
import Shared
import Testing

/// The passive target's direction rule: the machine's own addresses decide, a flow keeps the side
/// it opened with, and traffic that only passes by is told by who opened it.
@Suite("LocalAddressDirection: which way a packet seen on a watched interface goes")
struct LocalAddressDirectionTests {
    static let here = IPEndpoint(address: IPAddress(ipv4: 0xC612_5001), port: 40_000)        // 198.18.80.1
    static let server = IPEndpoint(address: IPAddress(ipv4: 0xC612_5102), port: 443)         // 198.18.81.2
    static let client = IPEndpoint(address: IPAddress(ipv4: 0xC612_5002), port: 50_000)      // 198.18.80.2
    static let loopback = IPAddress(ipv4: 0x7F00_0001)

    static func parsed(_ source: IPEndpoint, _ destination: IPEndpoint, flags: TCPFlags) throws -> ParsedPacket {
        let bytes = try PacketEmitter.tcp(source: source, destination: destination, sequence: 1, acknowledgment: 1,
                                          flags: flags, windowSize: 65_535, payload: Data())
        return try bytes.withUnsafeBytes { try PacketParser.parse($0) }
    }

    static func direction(_ rule: LocalAddressDirection, _ packet: ParsedPacket) -> (Direction, IPEndpoint?)? {
        rule.direction(of: packet, key: packet.flowKey, found: nil).map { ($0.0, $0.localSide) }
    }

    @Test("a packet from one of the machine's addresses is outbound, one to it inbound, and that end is the local one")
    func ownAddressesDecide() throws {
        let rule = LocalAddressDirection(addresses: [Self.here.address])
        let out = try #require(Self.direction(rule, try Self.parsed(Self.here, Self.server, flags: [.syn])))
        #expect(out.0 == .outbound && out.1 == Self.here)
        let back = try #require(Self.direction(rule, try Self.parsed(Self.server, Self.here, flags: [.syn, .ack])))
        #expect(back.0 == .inbound && back.1 == Self.here)
        #expect(rule.isLocal(Self.here.address) && !rule.isLocal(Self.server.address))
    }

    @Test("traffic between two other machines is told by who opened it: a SYN's sender, or the peer of a SYN-ACK's sender")
    func passingTrafficByWhoOpened() throws {
        let rule = LocalAddressDirection(addresses: [Self.here.address])
        let opening = try #require(Self.direction(rule, try Self.parsed(Self.client, Self.server, flags: [.syn])))
        #expect(opening.0 == .outbound && opening.1 == Self.client)
        let other = LocalAddressDirection(addresses: [Self.here.address])
        let answer = try #require(Self.direction(other, try Self.parsed(Self.server, Self.client, flags: [.syn, .ack])))
        #expect(answer.0 == .inbound && answer.1 == Self.client)
    }

    @Test("between two of the machine's own addresses (loopback), the side that opened is local")
    func bothEndsLocal() throws {
        let a = IPEndpoint(address: Self.loopback, port: 50_001), b = IPEndpoint(address: Self.loopback, port: 8_080)
        let rule = LocalAddressDirection(addresses: [Self.loopback])
        let opening = try #require(Self.direction(rule, try Self.parsed(a, b, flags: [.syn])))
        #expect(opening.0 == .outbound && opening.1 == a)
    }

    @Test("a flow keeps the side it opened with, whatever the addresses say later")
    func keptSideWins() throws {
        var table = FlowTable()
        let rule = LocalAddressDirection(addresses: [Self.here.address])
        let syn = try Self.parsed(Self.here, Self.server, flags: [.syn])
        _ = table.count(syn, key: syn.flowKey, found: nil, direction: .outbound, length: 60, now: 1, resolvedName: nil, localSide: Self.here)
        rule.addresses = [Self.server.address]    // the machine's address changed meanwhile
        let reply = try Self.parsed(Self.server, Self.here, flags: [.syn, .ack])
        let answer = try #require(rule.direction(of: reply, key: reply.flowKey, found: table.find(reply.flowKey)))
        #expect(answer.0 == .inbound && answer.localSide == Self.here)
    }

    @Test("on every interface a forwarded packet's outgoing copy is not kept, the machine's own outgoing packets and every incoming one are; one interface keeps all")
    func forwardedCopiesAreKeptOnce() throws {
        let rule = LocalAddressDirection(addresses: [Self.here.address])
        func bytes(_ source: IPEndpoint, _ destination: IPEndpoint) throws -> Data {
            try PacketEmitter.tcp(source: source, destination: destination, sequence: 1, acknowledgment: 1, flags: [.ack],
                                  windowSize: 65_535, payload: Data())
        }
        let forwarded = try bytes(Self.client, Self.server), own = try bytes(Self.here, Self.server)
        forwarded.withUnsafeBytes { packet in
            #expect(!rule.keeps(packet, outgoing: true, onEveryInterface: true))
            #expect(rule.keeps(packet, outgoing: false, onEveryInterface: true))
            #expect(rule.keeps(packet, outgoing: true, onEveryInterface: false))
        }
        own.withUnsafeBytes { #expect(rule.keeps($0, outgoing: true, onEveryInterface: true)) }
        Data([0x45, 0, 0]).withUnsafeBytes { #expect(rule.keeps($0, outgoing: true, onEveryInterface: true)) }
    }
}
