import Fixtures
import Foundation
@testable import Shared
import Testing
import TestSupport

/// The spec's published baseline (`CommunityIDBaseline`) is the oracle: every tuple in it, with
/// the seed and rendering it was published with. pycommunityid, the spec's reference
/// implementation, answers for a few hundred random tuples besides.
@Suite("Zeek's Community ID")
struct CommunityIDTests {
    /// One object of a baseline file: the tuple as published and its ID.
    struct Vector: Sendable, CustomTestStringConvertible {
        let proto: UInt8
        let source: IPAddress, destination: IPAddress
        let sourcePort: UInt16?, destinationPort: UInt16?
        let expected: String
        var testDescription: String { "\(proto) \(source) \(sourcePort.map(String.init) ?? "-") → \(destination)" }
    }

    static func vectors(_ json: String) -> [Vector] {
        let objects = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [[String: Any]] ?? []
        return objects.map { object in
            Vector(proto: UInt8(object["proto"] as! Int),
                   source: IPAddress(parsing: object["saddr"] as! String)!,
                   destination: IPAddress(parsing: object["daddr"] as! String)!,
                   sourcePort: (object["sport"] as? Int).map { UInt16($0) },
                   destinationPort: (object["dport"] as? Int).map { UInt16($0) },
                   expected: object["communityid"] as! String)
        }
    }

    /// The tuple through the initializer the spec's kind of protocol calls for; ICMP's "ports"
    /// are its type and code.
    static func communityID(_ proto: UInt8, _ source: IPAddress, _ destination: IPAddress,
                            _ sourcePort: UInt16?, _ destinationPort: UInt16?, seed: UInt16) -> CommunityID {
        let number = IPProtocolNumber(rawValue: proto)
        guard let sourcePort, let destinationPort else {
            return CommunityID(proto: number, source: source, destination: destination, seed: seed)
        }
        if number == .icmp || number == .icmpv6 {
            return CommunityID(icmp: number, source: source, destination: destination,
                               type: UInt8(sourcePort), code: UInt8(destinationPort), seed: seed)
        }
        return CommunityID(proto: number, source: IPEndpoint(address: source, port: sourcePort),
                           destination: IPEndpoint(address: destination, port: destinationPort), seed: seed)
    }

    static func communityID(_ vector: Vector, seed: UInt16) -> CommunityID {
        communityID(vector.proto, vector.source, vector.destination, vector.sourcePort, vector.destinationPort, seed: seed)
    }

    /// The spec's `--no-base64` rendering: the digest in lowercase hex.
    static func unencoded(_ id: CommunityID) -> String { "1:" + X509Digest.lowercaseHex(id.digest) }

    @Test("each tuple of baseline_deflt.json has its published ID with seed 0",
          arguments: vectors(CommunityIDBaseline.deflt))
    func defaults(_ vector: Vector) {
        #expect(Self.communityID(vector, seed: 0).description == vector.expected)
    }

    @Test("each tuple of baseline_seed1.json has its published ID with seed 1",
          arguments: vectors(CommunityIDBaseline.seed1))
    func seedOne(_ vector: Vector) {
        #expect(Self.communityID(vector, seed: 1).description == vector.expected)
    }

    @Test("each tuple of baseline_nob64.json has its published digest, in hex, with seed 0",
          arguments: vectors(CommunityIDBaseline.nob64))
    func withoutBase64(_ vector: Vector) {
        #expect(Self.unencoded(Self.communityID(vector, seed: 0)) == vector.expected)
    }

    @Test("each row of the README's tables has its three published IDs", arguments: CommunityIDBaseline.tables)
    func tables(_ row: CommunityIDBaseline.Row) throws {
        let source = try #require(IPAddress(parsing: row.source))
        let destination = try #require(IPAddress(parsing: row.destination))
        func id(seed: UInt16) -> CommunityID {
            Self.communityID(row.proto, source, destination, row.sourcePort, row.destinationPort, seed: seed)
        }
        #expect(id(seed: 0).description == row.deflt)
        #expect(id(seed: 1).description == row.seed1)
        #expect(Self.unencoded(id(seed: 0)) == row.nob64)
    }

    @Test("the baseline's three files hold the same 23 tuples, and every protocol the spec names")
    func baselineCoverage() {
        let files = [CommunityIDBaseline.deflt, CommunityIDBaseline.seed1, CommunityIDBaseline.nob64].map(Self.vectors)
        #expect(files.map(\.count) == [23, 23, 23])
        #expect(Set(files[0].map(\.proto)) == [1, 6, 17, 46, 58, 132])
        #expect(files[1].map(\.testDescription) == files[0].map(\.testDescription))
        #expect(files[2].map(\.testDescription) == files[0].map(\.testDescription))
    }

    @Test("a flow key has the published ID of each TCP, UDP and port-less tuple, with seed 0 and 1")
    func flowKeys() throws {
        let published = zip(Self.vectors(CommunityIDBaseline.deflt), Self.vectors(CommunityIDBaseline.seed1))
            .filter { [6, 17, 46].contains($0.0.proto) }
        let tables = try CommunityIDBaseline.tables.filter { [6, 17, 46].contains($0.proto) }.map { row in
            (row.proto, try #require(IPAddress(parsing: row.source)), row.sourcePort, try #require(IPAddress(parsing: row.destination)),
             row.destinationPort, row.deflt, row.seed1)
        }
        let files = published.map { deflt, seed1 in
            (deflt.proto, deflt.source, deflt.sourcePort, deflt.destination, deflt.destinationPort, deflt.expected, seed1.expected)
        }
        #expect(files.count == 8 && tables.count == 8)
        for (proto, source, sourcePort, destination, destinationPort, deflt, seed1) in files + tables {
            // The key keeps port 0 where the protocol has none, as the parser leaves it.
            let key = FlowKey(proto: IPProtocolNumber(rawValue: proto), source: IPEndpoint(address: source, port: sourcePort ?? 0),
                              destination: IPEndpoint(address: destination, port: destinationPort ?? 0))
            #expect(try CommunityID(flow: key).description == deflt, "\(key)")
            #expect(try CommunityID(flow: key, seed: 1).description == seed1, "\(key)")
        }
    }

    @Test("a flow key of ICMP, ICMPv6 or SCTP has none, for the key keeps no type, code or SCTP port")
    func flowKeysWithout() {
        let a = IPEndpoint(address: IPAddress(parsing: "198.18.0.1")!, port: 0)
        let b = IPEndpoint(address: IPAddress(parsing: "198.18.0.2")!, port: 0)
        func refusal(_ proto: IPProtocolNumber) -> CommunityID.Unavailable? {
            do {
                _ = try CommunityID(flow: FlowKey(proto: proto, source: a, destination: b))
                return nil
            } catch {
                return error
            }
        }
        #expect(refusal(.icmp) == .icmpTypeNotKept)
        #expect(refusal(.icmpv6) == .icmpTypeNotKept)
        #expect(refusal(IPProtocolNumber(rawValue: 132)) == .sctpPortsNotKept)
        #expect(refusal(.other) == .protocolNotKept)
        #expect(refusal(IPProtocolNumber(rawValue: 47)) == nil)
    }

    @Test("an ICMP request and its reply share one ID either way round; an error message's keeps its direction")
    func icmpDirections() throws {
        let a = try #require(IPAddress(parsing: "198.18.0.9")), b = try #require(IPAddress(parsing: "198.18.0.1"))
        let request = CommunityID(icmp: .icmp, source: a, destination: b, type: 8, code: 0)
        #expect(CommunityID(icmp: .icmp, source: b, destination: a, type: 0, code: 0) == request)
        let unreachable = CommunityID(icmp: .icmp, source: a, destination: b, type: 3, code: 1)
        #expect(CommunityID(icmp: .icmp, source: b, destination: a, type: 3, code: 1) != unreachable)
        let c = try #require(IPAddress(parsing: "fd00::9")), d = try #require(IPAddress(parsing: "fd00::1"))
        let solicitation = CommunityID(icmp: .icmpv6, source: c, destination: d, type: 135, code: 0)
        #expect(CommunityID(icmp: .icmpv6, source: d, destination: c, type: 136, code: 0) == solicitation)
    }

    @Test("random tuples of every kind, seeds and equal addresses among them, have pycommunityid's ID")
    func againstReference() throws {
        var random = SeededRandom(seed: 0xC1D)
        let protocols: [UInt8] = [1, 6, 17, 58, 132, 47, 46]
        var tuples: [(proto: UInt8, source: IPAddress, destination: IPAddress, ports: (UInt16, UInt16)?, seed: UInt16)] = []
        for _ in 0..<400 {
            let proto = protocols.randomElement(using: &random)!
            let v6 = proto == 58 || (proto != 1 && Bool.random(using: &random))
            // Addresses and ports from small ranges, so equal addresses and equal ports happen;
            // ICMP's types around those that pair up, its codes few.
            func address() -> IPAddress {
                v6 ? IPAddress(ipv6High: 0xfd00_0000_0000_0000, low: .random(in: 0...3, using: &random))
                   : IPAddress(ipv4: 0xC612_0000 | .random(in: 0...3, using: &random))
            }
            let ports: (UInt16, UInt16)? = switch proto {
            case 1, 58: (UInt16.random(in: 0...20, using: &random) + (proto == 58 ? 120 : 0), .random(in: 0...3, using: &random))
            case 6, 17, 132: (.random(in: 0...3, using: &random), .random(in: 0...3, using: &random))
            default: nil
            }
            let seed: UInt16 = Bool.random(using: &random) ? 0 : .random(in: 0...0xFFFF, using: &random)
            tuples.append((proto, address(), address(), ports, seed))
        }
        let answers = try CommunityIDOracle.ids(tuples.map {
            CommunityIDOracle.Tuple(proto: $0.proto, source: "\($0.source)", destination: "\($0.destination)", ports: $0.ports,
                                    seed: $0.seed)
        })
        for (tuple, answer) in zip(tuples, answers) {
            let ours = Self.communityID(tuple.proto, tuple.source, tuple.destination, tuple.ports?.0, tuple.ports?.1, seed: tuple.seed)
            #expect(ours.description == answer, "\(tuple)")
        }
    }
}
