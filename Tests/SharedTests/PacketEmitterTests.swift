import Fixtures
import Foundation
import Testing
@testable import Shared

@Suite struct PacketEmitterTests {
    typealias G = GoldenVectors

    @Test func ipv4TCPMatchesTheHandComputedVector() throws {
        let datagram = try PacketEmitter.tcp(source: G.endpoint("10.7.0.2", 51234), destination: G.endpoint("198.18.0.1", 443),
                                             sequence: 0x0102_0304, acknowledgment: 0, flags: .syn, windowSize: 64240)
        #expect([UInt8](datagram) == G.ipv4TCP)
    }

    @Test func ipv4UDPMatchesTheHandComputedVector() throws {
        let datagram = try PacketEmitter.udp(source: G.endpoint("198.18.0.53", 53), destination: G.endpoint("10.7.0.2", 40000),
                                             payload: Data("abc".utf8))
        #expect([UInt8](datagram) == G.ipv4UDP)
    }

    @Test func ipv6TCPMatchesTheHandComputedVector() throws {
        let datagram = try PacketEmitter.tcp(source: G.endpoint("fd00:7::2", 50000), destination: G.endpoint("fd00:18::1", 80),
                                             sequence: 0xFFFF_FFF0, acknowledgment: 0x10, flags: [.psh, .ack],
                                             windowSize: 512, payload: Data("GET /".utf8))
        #expect([UInt8](datagram) == G.ipv6TCP)
    }

    @Test func ipv6UDPWithAnOddPayloadMatchesTheHandComputedVector() throws {
        let datagram = try PacketEmitter.udp(source: G.endpoint("fd00:18::35", 53), destination: G.endpoint("fd00:7::2", 33333),
                                             payload: Data("odd-len".utf8))
        #expect([UInt8](datagram) == G.ipv6UDP)
    }

    @Test func mixedFamiliesAreRefused() {
        #expect(throws: PacketEmitError.addressFamilyMismatch(source: .v4, destination: .v6)) {
            try PacketEmitter.udp(source: G.endpoint("10.7.0.2", 1), destination: G.endpoint("fd00::1", 2), payload: Data())
        }
        #expect(throws: PacketEmitError.addressFamilyMismatch(source: .v6, destination: .v4)) {
            try PacketEmitter.tcp(source: G.endpoint("fd00::1", 1), destination: G.endpoint("10.7.0.2", 2),
                                  sequence: 0, acknowledgment: 0, flags: .ack, windowSize: 0)
        }
    }

    @Test func datagramsBeyondTheLengthFieldsAreRefused() throws {
        let v4Limit = Data(count: 65_535 - 28)
        #expect(try PacketEmitter.udp(source: G.endpoint("10.7.0.2", 1), destination: G.endpoint("198.18.0.1", 2),
                                      payload: v4Limit).count == 65_535)
        #expect(throws: PacketEmitError.datagramTooLarge(byteCount: 65_536, limit: 65_535)) {
            try PacketEmitter.udp(source: G.endpoint("10.7.0.2", 1), destination: G.endpoint("198.18.0.1", 2),
                                  payload: Data(count: 65_535 - 27))
        }
        #expect(throws: PacketEmitError.datagramTooLarge(byteCount: 40 + 65_536, limit: 40 + 65_535)) {
            try PacketEmitter.tcp(source: G.endpoint("fd00::1", 1), destination: G.endpoint("fd00::2", 2),
                                  sequence: 0, acknowledgment: 0, flags: .ack, windowSize: 0, payload: Data(count: 65_536 - 20))
        }
    }

    @Test func aUDPChecksumThatComputesToZeroIsSentAsFFFF() throws {
        // Choose the payload's last word so the sum lands on 0xFFFF, whose complement is 0.
        let source = G.endpoint("10.7.0.2", 1000)
        let destination = G.endpoint("198.18.0.1", 2000)
        let probe = try PacketEmitter.udp(source: source, destination: destination, payload: Data([0, 0]))
        let probeChecksum = UInt16(probe[26]) << 8 | UInt16(probe[27])
        // With payload word w the sum is S + w (one's complement); the probe's checksum is ~S.
        let word = probeChecksum                          // S + ~S = 0xFFFF
        let datagram = try PacketEmitter.udp(source: source, destination: destination,
                                             payload: Data([UInt8(word >> 8), UInt8(word & 0xFF)]))
        #expect(datagram[26] == 0xFF && datagram[27] == 0xFF)
        #expect(IndependentChecksum.transportIsValid([UInt8](datagram)))
    }

    @Test func flagsOutsideTheSixAreMaskedOff() throws {
        let datagram = try PacketEmitter.tcp(source: G.endpoint("10.7.0.2", 1), destination: G.endpoint("198.18.0.1", 2),
                                             sequence: 0, acknowledgment: 0, flags: [.syn, .ece, .cwr], windowSize: 0)
        #expect(datagram[33] == TCPFlags.syn.rawValue)
    }

    @Test(arguments: [IPVersion.v4, .v6])
    func everyPayloadLengthFrom0To64ParsesBackToWhatWasEmitted(version: IPVersion) throws {
        let (a, b) = version == .v4 ? ("10.7.0.2", "198.18.3.4") : ("fd00:7::2", "fd00:18::99")
        var random = SeededRandom(seed: 64)
        for length in 0...64 {
            let payload = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &random) })
            let sequence = UInt32.random(in: 0...UInt32.max, using: &random)
            let tcp = try PacketEmitter.tcp(source: G.endpoint(a, 40000), destination: G.endpoint(b, 443),
                                            sequence: sequence, acknowledgment: ~sequence, flags: [.psh, .ack],
                                            windowSize: UInt16(length * 100), payload: payload)
            #expect(IndependentChecksum.transportIsValid([UInt8](tcp)), "TCP length \(length)")
            let parsedTCP = try PacketParser.parse(tcp)
            #expect(parsedTCP.source == G.endpoint(a, 40000) && parsedTCP.destination == G.endpoint(b, 443))
            #expect(parsedTCP.tcp?.sequence == sequence && parsedTCP.tcp?.acknowledgment == ~sequence)
            #expect(parsedTCP.tcp?.flags == [.psh, .ack] && parsedTCP.tcp?.windowSize == UInt16(length * 100))
            #expect(tcp[parsedTCP.tcp!.payloadRange] == payload)
            #expect(parsedTCP.ip.totalLength == tcp.count)

            let udp = try PacketEmitter.udp(source: G.endpoint(b, 53), destination: G.endpoint(a, 5353), payload: payload)
            #expect(IndependentChecksum.transportIsValid([UInt8](udp)), "UDP length \(length)")
            let parsedUDP = try PacketParser.parse(udp)
            #expect(parsedUDP.source == G.endpoint(b, 53) && parsedUDP.destination == G.endpoint(a, 5353))
            #expect(Int(parsedUDP.udp!.length) == 8 + length)
            #expect(udp[parsedUDP.udp!.payloadRange] == payload)
            #expect(parsedUDP.flowKey == FlowKey(proto: .udp, source: G.endpoint(a, 5353), destination: G.endpoint(b, 53)))
        }
    }

    @Test(arguments: [IPVersion.v4, .v6])
    func tcpOptionsWidenTheDataOffsetAndCountInTheChecksum(version: IPVersion) throws {
        let (a, b) = version == .v4 ? ("198.18.0.1", "10.7.0.2") : ("fd00:18::1", "fd00:7::2")
        let options = TCPOptions(maximumSegmentSize: 1460, windowScale: 0)
        for payload in [Data(), Data("odd".utf8)] {
            let datagram = try PacketEmitter.tcp(source: G.endpoint(a, 443), destination: G.endpoint(b, 51000),
                                                 sequence: 7, acknowledgment: 9, flags: [.syn, .ack], windowSize: 1000,
                                                 options: options, payload: payload)
            #expect(IndependentChecksum.transportIsValid([UInt8](datagram)))
            let parsed = try PacketParser.parse(datagram)
            let tcp = try #require(parsed.tcp)
            #expect(tcp.dataOffsetBytes == 28 && parsed.ip.totalLength == datagram.count)
            let optionsStart = tcp.payloadRange.lowerBound - 8
            #expect(try TCPOptions.parse(datagram[optionsStart..<tcp.payloadRange.lowerBound]) == options)
            #expect(datagram[tcp.payloadRange] == payload)
        }
    }

    @Test func aReplyEmittedWithEndpointsSwappedKeepsTheFlowKey() throws {
        let device = G.endpoint("fd00:7::2", 50000)
        let server = G.endpoint("fd00:18::1", 443)
        let out = try PacketParser.parse(try PacketEmitter.tcp(source: device, destination: server, sequence: 1,
                                                               acknowledgment: 0, flags: .syn, windowSize: 1))
        let back = try PacketParser.parse(try PacketEmitter.tcp(source: server, destination: device, sequence: 9,
                                                                acknowledgment: 2, flags: [.syn, .ack], windowSize: 1))
        #expect(out.flowKey == back.flowKey)
        #expect(out.flowKey.direction(ofPacketFrom: back.source, localAddress: TunnelAddressing.ipv6Address) == .inbound)
    }
}

/// A checksum verifier written apart from `InternetChecksum` (16-bit words straight off the bytes,
/// end-around carry at every step), so the emitter's tests cannot confirm themselves.
enum IndependentChecksum {
    static func onesComplementSum(_ bytes: [UInt8]) -> UInt16 {
        var sum: UInt32 = 0
        var index = 0
        while index < bytes.count {
            let high = UInt32(bytes[index]) << 8
            let low = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            sum += high | low
            sum = (sum & 0xFFFF) + (sum >> 16)
            index += 2
        }
        return UInt16(sum)
    }

    /// True when the IP header (IPv4) and the TCP/UDP segment with its pseudo-header verify.
    static func transportIsValid(_ datagram: [UInt8]) -> Bool {
        let v4 = datagram[0] >> 4 == 4
        let headerLength = v4 ? Int(datagram[0] & 0x0F) * 4 : 40
        if v4 && onesComplementSum(Array(datagram[0..<headerLength])) != 0xFFFF { return false }
        let segment = Array(datagram[headerLength...])
        let addresses = v4 ? Array(datagram[12..<20]) : Array(datagram[8..<40])
        let proto = v4 ? datagram[9] : datagram[6]
        let length = segment.count
        let pseudo = addresses + (v4 ? [0, proto, UInt8(length >> 8), UInt8(length & 0xFF)]
                                     : [0, 0, UInt8(length >> 8), UInt8(length & 0xFF), 0, 0, 0, proto])
        return onesComplementSum(pseudo + segment) == 0xFFFF
    }
}
