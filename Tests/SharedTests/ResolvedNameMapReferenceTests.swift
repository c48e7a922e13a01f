import Fixtures
import Testing
@testable import Shared

/// The map against a naive reference that keeps every pair in one array and scans it for every
/// decision, driven by a seeded stream of replies, lookups and sweeps: both must agree on every
/// answer, so the queues, lazy removal and compaction change nothing but speed.
@Suite struct ResolvedNameMapReferenceTests {
    typealias F = DNSMessageFixture

    struct Reference {
        struct Pair { var address: IPAddress; var name: String; var resolvedAt: UInt64; var expiresAt: UInt64 }
        let limits: ResolvedNameLimits
        var pairs: [Pair] = []

        static func ranksBefore(_ lhs: Pair, _ rhs: Pair) -> Bool {
            lhs.resolvedAt != rhs.resolvedAt ? lhs.resolvedAt > rhs.resolvedAt : lhs.name < rhs.name
        }

        mutating func record(_ name: String, _ address: IPAddress, ttl: UInt32, at now: UInt64) {
            let lifetime = UInt64(min(max(ttl, limits.minimumLifetime), limits.maximumLifetime))
            let (sum, overflow) = now.addingReportingOverflow(lifetime * 1_000_000_000)
            let pair = Pair(address: address, name: name, resolvedAt: now, expiresAt: overflow ? .max : sum)
            if let index = pairs.firstIndex(where: { $0.address == address && $0.name == name }) {
                pairs[index] = pair
                return
            }
            let held = pairs.filter { $0.address == address }
            if held.count >= limits.namesPerAddress {
                if held.contains(where: { $0.expiresAt <= now }) {
                    pairs.removeAll { $0.address == address && $0.expiresAt <= now }
                } else if let victim = held.max(by: Self.ranksBefore) {
                    pairs.removeAll { $0.address == address && $0.name == victim.name }
                }
            } else if pairs.count >= limits.capacity {
                _ = removeExpired(at: now)
                if pairs.count >= limits.capacity, let victim = pairs.min(by: { lhs, rhs in
                    if lhs.resolvedAt != rhs.resolvedAt { return lhs.resolvedAt < rhs.resolvedAt }
                    if lhs.address != rhs.address { return lhs.address < rhs.address }
                    return lhs.name > rhs.name
                }) {
                    pairs.removeAll { $0.address == victim.address && $0.name == victim.name }
                }
            }
            pairs.append(pair)
        }

        mutating func removeExpired(at now: UInt64) -> Int {
            let before = pairs.count
            pairs.removeAll { $0.expiresAt <= now }
            return before - pairs.count
        }

        func name(for address: IPAddress, at now: UInt64) -> ResolvedName? {
            let live = pairs.filter { $0.address == address && $0.expiresAt > now }.sorted(by: Self.ranksBefore)
            guard let winner = live.first else { return nil }
            return ResolvedName(name: winner.name, resolvedAt: winner.resolvedAt, otherNames: live.dropFirst().map(\.name))
        }
    }

    @Test(arguments: [
        ResolvedNameLimits(capacity: 1, namesPerAddress: 1, minimumLifetime: 1, maximumLifetime: 30),
        ResolvedNameLimits(capacity: 6, namesPerAddress: 2, minimumLifetime: 5, maximumLifetime: 40),
        ResolvedNameLimits(capacity: 24, namesPerAddress: 4, minimumLifetime: 10, maximumLifetime: 120),
    ])
    func theMapAgreesWithANaiveReference(limits: ResolvedNameLimits) {
        var map = ResolvedNameMap(limits: limits)
        var reference = Reference(limits: limits)
        var random = SeededRandom(seed: UInt64(limits.capacity))
        let addresses = (0..<12).map { IPAddress(ipv4: 0xC000_0200 | UInt32($0)) }
        var now: UInt64 = 1_000_000_000_000
        for step in 0..<6_000 {
            // Time advances by 0 to 3 s: often not at all, so ties at one instant are common.
            now += (random.next() % 4) * 1_000_000_000 / (1 + random.next() % 2)
            switch random.next() % 10 {
            case 0:
                #expect(map.removeExpired(at: now) == reference.removeExpired(at: now), "step \(step)")
            default:
                let name = "n\(random.next() % 9).example"
                let answers = (0..<(1 + random.next() % 3)).map { _ in
                    F.a(name, addresses[Int(random.next() % UInt64(addresses.count))].description,
                        ttl: UInt32(random.next() % 50))
                }
                var seen: [IPAddress: UInt32] = [:]
                for answer in answers {
                    let address = answer.data.address!
                    seen[address] = min(seen[address] ?? .max, answer.ttl)
                }
                let result = map.ingest(F.reply(to: name, answers: answers), at: now)
                #expect(result == .recorded(addresses: seen.count), "step \(step)")
                for (address, ttl) in seen.sorted(by: { $0.key < $1.key }) {
                    reference.record(name, address, ttl: ttl, at: now)
                }
            }
            #expect(map.count == reference.pairs.count && map.count <= limits.capacity, "step \(step)")
            for address in addresses {
                #expect(map.name(for: address, at: now) == reference.name(for: address, at: now), "step \(step)")
            }
        }
    }
}
