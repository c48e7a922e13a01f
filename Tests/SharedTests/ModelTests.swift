import Fixtures
import Foundation
import Testing
@testable import Shared

@Suite struct FlowKeyTests {
    let device = GoldenVectors.endpoint("198.18.0.2", 51234)
    let server = GoldenVectors.endpoint("198.19.0.1", 443)

    @Test func bothDirectionsOfAConversationShareOneKey() {
        let out = FlowKey(proto: .tcp, source: device, destination: server)
        let back = FlowKey(proto: .tcp, source: server, destination: device)
        #expect(out == back)
        #expect(out.endpointA == device)      // 10.7.0.2 < 198.18.0.1
        #expect(out.hashValue == back.hashValue)
    }

    @Test func theSameAddressOrdersByPort() {
        let low = GoldenVectors.endpoint("fd00:7::2", 80)
        let high = GoldenVectors.endpoint("fd00:7::2", 8080)
        #expect(FlowKey(proto: .udp, source: high, destination: low).endpointA == low)
    }

    @Test func directionComesFromTheLocalAddressWhicheverWayTheKeyWasBuilt() {
        for key in [FlowKey(proto: .tcp, source: device, destination: server),
                    FlowKey(proto: .tcp, source: server, destination: device)] {
            #expect(key.direction(ofPacketFrom: device, localAddress: TunnelAddressing.ipv4Address) == .outbound)
            #expect(key.direction(ofPacketFrom: server, localAddress: TunnelAddressing.ipv4Address) == .inbound)
        }
    }

    @Test func protocolDistinguishesKeys() {
        #expect(FlowKey(proto: .tcp, source: device, destination: server)
                != FlowKey(proto: .udp, source: device, destination: server))
    }

    @Test("a protocol without a name keeps its number: GRE and ESP between two hosts are two keys")
    func anUnnamedProtocolKeepsItsNumberInTheKey() {
        let gre = FlowKey(proto: IPProtocolNumber(wire: 47), source: device, destination: server)
        let esp = FlowKey(proto: IPProtocolNumber(wire: 50), source: device, destination: server)
        #expect(gre != esp && gre.stableMix != esp.stableMix)
        #expect(Set([gre, esp]).count == 2)
        #expect(gre.proto.knownName == nil && gre.proto.displayName == "proto-47")
        #expect("\(esp)".hasPrefix("proto-50 ") && "\(FlowKey(proto: .tcp, source: device, destination: server))".hasPrefix("TCP "))
    }
}

@Suite struct ModelTests {
    @Test func rawValuesAreTheSpecifiedWireFormat() {
        #expect(IPProtocolNumber.named.map(\.rawValue) == [1, 6, 17, 58] && IPProtocolNumber.other.rawValue == 255)
        #expect(IPProtocolNumber(wire: 47).rawValue == 47 && IPProtocolNumber(wire: 47) != .other)
        #expect(IPProtocolNumber(wire: 58) == .icmpv6)
        #expect(Direction.outbound.rawValue == 0 && Direction.inbound.rawValue == 1)
        #expect(TLSInspectionStatus.allCases.map(\.rawValue) == [0, 1, 2, 3, 4])
        #expect(IPVersion.v4.addressByteCount == 4 && IPVersion.v6.addressByteCount == 16)
        #expect(CaptureDetail.metadataOnly.snaplen == 128 && CaptureDetail.fullPayload.snaplen == 262_144)
    }

    @Test func tcpFlagsAreByte13OfTheHeader() {
        #expect(TCPFlags.fin.rawValue == 0x01 && TCPFlags.syn.rawValue == 0x02 && TCPFlags.rst.rawValue == 0x04)
        #expect(TCPFlags.psh.rawValue == 0x08 && TCPFlags.ack.rawValue == 0x10 && TCPFlags.urg.rawValue == 0x20)
        let synAck: TCPFlags = [.syn, .ack]
        #expect(synAck.rawValue == 0x12)
        #expect(synAck.contains(.syn) && !synAck.contains(.fin))
        #expect(TCPFlags.emittable.rawValue == 0x3F)
    }

    @Test func persistedTypesRoundTripThroughJSON() throws {
        let key = FlowKey(proto: .udp, source: GoldenVectors.endpoint("fd00:7::2", 5353),
                          destination: GoldenVectors.endpoint("fd00:18::35", 53))
        let meta = PacketMeta(timestamp: 123_456_789, flowKey: key, direction: .inbound, length: 1500,
                              tcpFlags: [.syn, .ack], capture: CaptureLocation(fileSequence: 7, recordOffset: 24))
        let data = try JSONEncoder().encode(meta)
        #expect(try JSONDecoder().decode(PacketMeta.self, from: data) == meta)
        let anchor = MonotonicAnchor(uptimeNanoseconds: 5, wallClockNanosecondsSince1970: 1_700_000_000_000_000_001)
        #expect(try JSONDecoder().decode(MonotonicAnchor.self, from: JSONEncoder().encode(anchor)) == anchor)
    }

    @Test func tunnelAddressingDerivesItsTextFromItsBytes() {
        #expect(TunnelAddressing.ipv4Address.bytes == [198, 18, 0, 2])
        #expect(TunnelAddressing.ipv4CIDR == "198.18.0.2/24")
        #expect(TunnelAddressing.ipv6CIDR == "fd00:7::2/64")
        #expect(TunnelAddressing.localAddresses == [IPAddress(parsing: "198.18.0.2")!, IPAddress(parsing: "fd00:7::2")!])
    }

    @Test func anAnchorTurnsMonotonicInstantsIntoWallClockWithExactSpacing() {
        let anchor = MonotonicAnchor(uptimeNanoseconds: 1_000, wallClockNanosecondsSince1970: 1_800_000_000_000_000_000)
        #expect(anchor.nanosecondsSince1970(forUptime: 1_000) == 1_800_000_000_000_000_000)
        #expect(anchor.nanosecondsSince1970(forUptime: 2_500) == 1_800_000_000_000_001_500)
        #expect(anchor.nanosecondsSince1970(forUptime: 0) == 1_799_999_999_999_999_000)
        let now = MonotonicAnchor.now()
        #expect(abs(now.wallClock.timeIntervalSinceNow) < 5)
        #expect(MonotonicAnchor.uptimeNow() >= now.uptimeNanoseconds)
    }

    @Test("an anchor turns a kernel's wall-clock timestamp back into its monotonic instant, and a time before the machine started into 0")
    func anAnchorTurnsWallClockBackIntoUptime() {
        let anchor = MonotonicAnchor(uptimeNanoseconds: 1_000, wallClockNanosecondsSince1970: 1_800_000_000_000_000_000)
        #expect(anchor.uptime(forNanosecondsSince1970: 1_800_000_000_000_001_500) == 2_500)
        #expect(anchor.uptime(forNanosecondsSince1970: 1_799_999_999_999_999_400) == 400)
        #expect(anchor.uptime(forNanosecondsSince1970: 1_799_999_999_999_998_000) == 0)
        #expect(anchor.uptime(forNanosecondsSince1970: .min) == 0)
        #expect(anchor.uptime(forNanosecondsSince1970: anchor.nanosecondsSince1970(forUptime: 123_456)) == 123_456)
    }

    @Test func captureFileNamesCarryASixDigitSequenceAndUTCTime() {
        // 2026-11-30 02:18:50 UTC
        let name = CaptureFileName.make(sequence: 42, nanosecondsSince1970: 1_796_005_130_000_000_000)
        #expect(name == "tunnelvision-000042-20261130-021850.pcap")
        #expect(CaptureFileName.sequence(in: name) == 42)
        #expect(CaptureFileName.sequence(in: "tunnelvision-4294967295-20261130-021850.pcap") == UInt32.max)
        #expect(CaptureFileName.sequence(in: "tunnelvision-000042-20261130-021850.pcapng") == nil)
        #expect(CaptureFileName.sequence(in: "tunnelvision-42-20261130-021850.pcap") == nil)
        #expect(CaptureFileName.sequence(in: "other-000042-20261130-021850.pcap") == nil)
        #expect(CaptureFileName.sequence(in: "tunnelvision-99999999999-20261130-021850.pcap") == nil)
    }

    @Test func utcTimestampsMatchFoundationsCalendar() {
        var stamp = UTCTimestamp(fractionDigits: 6)
        var random = SeededRandom(seed: 3)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        for _ in 0..<2_000 {
            let seconds = Int64.random(in: 0...4_102_444_800, using: &random)     // 1970 … 2100
            var writer = ASCIIWriter()
            stamp.write(nanosecondsSince1970: seconds * 1_000_000_000 + 123_456_789, to: &writer)
            let expected = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            #expect(writer.string == expected.replacingOccurrences(of: "Z", with: ".123456Z"))
        }
    }
}
