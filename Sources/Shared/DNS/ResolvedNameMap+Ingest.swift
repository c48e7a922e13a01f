extension ResolvedNameMap {
    /// CNAMEs followed from the name asked before the rest of a chain is ignored.
    static let aliasHopLimit = 16

    /// Reads one DNS message: a NOERROR response to one standard IN question whose name is an exact
    /// domain pattern records, for every A and AAAA address reachable from that name through the
    /// reply's own CNAMEs, the pair (address, name asked). Lifetime is the shortest TTL on the path
    /// (the address record and every CNAME before it) clamped to the limits; addresses are
    /// recorded in address order. Anything else reports why it taught nothing.
    package mutating func ingest(_ message: DNSMessage, at instant: UInt64) -> DNSNameIngestion {
        let header = message.header
        guard header.isResponse else { return .ignored(.notAResponse) }
        guard header.opcode == .query else { return .ignored(.unsupportedOpcode) }
        guard header.responseCode == .noError else { return .ignored(.errorResponse) }
        guard message.questions.count == 1, message.questions[0].recordClass == .internet else {
            return .ignored(.unsupportedQuestion)
        }
        let asked = message.questions[0].name
        guard let name = asked.normalizedDomain else { return .ignored(.unusableName) }
        let found = Self.reachableAddresses(in: message.answers, from: asked)
        guard !found.isEmpty else { return .ignored(.noAddresses) }
        for (address, ttl) in found {
            record(name, for: address, lifetime: min(max(ttl, limits.minimumLifetime), limits.maximumLifetime), at: instant)
        }
        return .recorded(addresses: found.count)
    }

    /// Every distinct address of a class-IN A or AAAA record owned by `start` or by a name its CNAME
    /// chain reaches, with the shortest TTL on its path, in address order. The chain is walked from
    /// `start`, not in record order; a name's first CNAME is the one followed; the walk stops at a
    /// name already visited or after `aliasHopLimit` hops. Names compare ignoring ASCII case.
    static func reachableAddresses(in answers: [DNSResourceRecord], from start: DNSName) -> [(address: IPAddress, ttl: UInt32)] {
        var found: [(address: IPAddress, ttl: UInt32)] = []
        var visited: [DNSName] = [start]
        var current = start
        var pathTTL = UInt32.max
        while true {
            var alias: (target: DNSName, ttl: UInt32)?
            for record in answers where record.recordClass == .internet && record.name.equalsIgnoringCase(current) {
                switch record.data {
                case let .a(address), let .aaaa(address):
                    found.append((address, min(pathTTL, record.ttl)))
                case let .cname(target):
                    if alias == nil { alias = (target, record.ttl) }
                case .opaque:
                    break
                }
            }
            guard let alias, visited.count <= aliasHopLimit,
                  !visited.contains(where: { $0.equalsIgnoringCase(alias.target) }) else { break }
            visited.append(alias.target)
            pathTTL = min(pathTTL, alias.ttl)
            current = alias.target
        }
        // One entry per address, the shortest TTL kept: sorted, the first of each run wins.
        found.sort { $0.address != $1.address ? $0.address < $1.address : $0.ttl < $1.ttl }
        var distinct: [(address: IPAddress, ttl: UInt32)] = []
        distinct.reserveCapacity(found.count)
        for entry in found where distinct.last?.address != entry.address {
            distinct.append(entry)
        }
        return distinct
    }
}
