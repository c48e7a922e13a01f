import Foundation

/// pycommunityid (PyPI `communityid`, the reference implementation the Community ID spec names)
/// as an outside oracle: the ID it computes for each flow tuple.
package enum CommunityIDOracle {
    /// A flow as pycommunityid's `FlowTuple` takes it: ports nil for a protocol hashed without
    /// them; for ICMP and ICMPv6 the message's type and code in their place.
    package struct Tuple: Sendable {
        package let proto: UInt8
        package let source: String, destination: String
        package let ports: (source: UInt16, destination: UInt16)?
        package let seed: UInt16

        package init(proto: UInt8, source: String, destination: String, ports: (source: UInt16, destination: UInt16)?,
                    seed: UInt16 = 0) {
            self.proto = proto
            self.source = source
            self.destination = destination
            self.ports = ports
            self.seed = seed
        }
    }

    /// Each tuple's ID, base64 and "1:" as every monitor writes it, in order.
    package static func ids(_ tuples: [Tuple]) throws -> [String] {
        let request: [[Any]] = tuples.map { tuple in
            let ports: [Any] = tuple.ports.map { [Int($0.source), Int($0.destination)] } ?? [NSNull(), NSNull()]
            return [Int(tuple.proto), tuple.source, tuple.destination] + ports + [Int(tuple.seed)]
        }
        let argument = String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self)
        guard let ids = try PythonOracle.json(script, [argument]) as? [String], ids.count == tuples.count else {
            throw PythonOracle.Failure(message: "pycommunityid answered something else than one ID a tuple")
        }
        return ids
    }

    /// One tuple's ID.
    package static func id(_ tuple: Tuple) throws -> String { try ids([tuple])[0] }

    static let script = """
        import json, sys
        import communityid
        out = []
        for proto, saddr, daddr, sport, dport, seed in json.loads(sys.argv[1]):
            ports = () if sport is None else (sport, dport)
            out.append(communityid.CommunityID(seed).calc(communityid.FlowTuple(proto, saddr, daddr, *ports)))
        print(json.dumps(out))
        """
}
