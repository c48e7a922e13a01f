import Foundation
import Testing
import Shared

/// Two releases of one app compared domain by domain (audit.md § Release diff): the refusals in
/// their order, which session is later, each status, the order of domains, the allowlist
/// standing, and the TLS comparison per negotiator.
@Suite struct ReleaseDiffTests {
    typealias F = ReleaseDiffFixtures

    static func diff(_ first: AuditSession, _ firstFlows: [StoredFlow], _ second: AuditSession, _ secondFlows: [StoredFlow],
                     allowlist: [String] = []) throws -> ReleaseDiff {
        try ReleaseDiff(between: first, flows: firstFlows, and: second, flows: secondFlows, project: F.project(allowlist: allowlist))
    }

    /// The refusal for a pair, asked both ways round: argument order never changes it.
    static func refusal(_ a: AuditSession, _ b: AuditSession, project: Int64 = 1) throws -> ReleaseDiffRefusal? {
        func attempt(_ x: AuditSession, _ y: AuditSession) throws -> ReleaseDiffRefusal? {
            do {
                _ = try ReleaseDiff(between: x, flows: [], and: y, flows: [], project: F.project(project))
                return nil
            } catch let refusal as ReleaseDiffRefusal {
                return refusal
            }
        }
        let forward = try attempt(a, b)
        #expect(try attempt(b, a) == forward)
        return forward
    }

    @Test("each refusal, the first that fails in the spec's order, whatever order the sessions come in")
    func refusals() throws {
        let open = F.session(1, version: nil, at: 0, ended: false)
        #expect(try Self.refusal(open, open) == .sameSession)
        #expect(try Self.refusal(F.session(1, project: 1, version: nil, ended: false), F.session(2, project: 2, version: nil))
                == .differentProjects)
        #expect(try Self.refusal(F.session(1, project: 2, version: nil), F.session(2, project: 2), project: 1) == .notTheSessionsProject)
        // Baselines before open sessions, and the earlier session before the later.
        #expect(try Self.refusal(F.session(1, at: 0, ended: false), F.session(2, version: nil, at: 10)) == .baseline(sessionID: 2))
        #expect(try Self.refusal(F.session(7, version: nil, at: 0), F.session(2, version: nil, at: 10)) == .baseline(sessionID: 7))
        #expect(try Self.refusal(F.session(1, at: 0, ended: false), F.session(2, at: 10)) == .stillOpen(sessionID: 1))
        #expect(try Self.refusal(F.session(1, at: 0), F.session(2, at: 10, ended: false)) == .stillOpen(sessionID: 2))
        #expect(try Self.refusal(F.session(9, at: 0, ended: false), F.session(2, at: 10, ended: false)) == .stillOpen(sessionID: 9))
        #expect(try Self.refusal(F.session(1, at: 0), F.session(2, at: 10)) == nil)
    }

    @Test("each refusal says in a sentence what is wrong, naming the session where one is")
    func refusalSentences() {
        let refusals: [ReleaseDiffRefusal] = [.sameSession, .differentProjects, .notTheSessionsProject,
                                              .baseline(sessionID: 41), .stillOpen(sessionID: 42)]
        let sentences = refusals.map(\.description)
        #expect(Set(sentences).count == refusals.count)
        for sentence in sentences {
            #expect(sentence.first?.isUppercase == true && sentence.hasSuffix("."))
        }
        #expect(sentences[3].contains("41") && sentences[3].contains("baseline"))
        #expect(sentences[4].contains("42") && sentences[4].contains("still recording"))
    }

    @Test("later is the session that started later, a tie going to the greater id; argument order changes nothing")
    func whichIsLater() throws {
        let a = F.session(5, version: "1.0", at: 100), b = F.session(3, version: "2.0", at: 200)
        let diff = try Self.diff(a, [F.flow(1, sni: "old.test")], b, [F.flow(2, sni: "new.test")])
        #expect(diff.earlier.id == 5 && diff.later.id == 3)
        #expect(diff.earlierRelease.version == "1.0" && diff.laterRelease.version == "2.0")
        #expect(diff == (try Self.diff(b, [F.flow(2, sni: "new.test")], a, [F.flow(1, sni: "old.test")])))
        let tieLow = F.session(3, at: 100), tieHigh = F.session(4, at: 100)
        #expect(try Self.diff(tieHigh, [], tieLow, []).later.id == 4)
        #expect(try Self.diff(tieLow, [], tieHigh, []).later.id == 4)
    }

    @Test("absent then seen is new, seen then absent gone, seen in both inBoth, a candidate on either side undetermined")
    func statuses() throws {
        let earlier = [F.flow(1, sni: "both.test"), F.flow(2, sni: "gone.test"),
                       F.flow(3, dns: "maybe-before.test", others: ["x.test"]), F.flow(4, sni: "seen-then-maybe.test"),
                       F.flow(5, dns: "maybe-both.test", others: ["y.test"])]
        let later = [F.flow(11, sni: "both.test"), F.flow(12, sni: "new.test"), F.flow(13, sni: "maybe-before.test"),
                     F.flow(14, dns: "seen-then-maybe.test", others: ["z.test"]),
                     F.flow(15, dns: "maybe-both.test", others: ["y.test"])]
        let diff = try Self.diff(F.session(1, at: 0), earlier, F.session(2, at: 10), later)
        func status(_ host: String) -> DomainStatus? { diff.domains.first { $0.host == host }?.status }
        #expect(status("new.test") == .new && status("gone.test") == .gone)
        #expect(status("both.test") == .inBoth(app: .notCompared(.notReadInEitherSession), tunnel: .notCompared(.notReadInEitherSession)))
        #expect(status("maybe-before.test") == .undetermined(earlier: .candidateOnly, later: .seen))
        #expect(status("seen-then-maybe.test") == .undetermined(earlier: .seen, later: .candidateOnly))
        #expect(status("maybe-both.test") == .undetermined(earlier: .candidateOnly, later: .candidateOnly))
        #expect(status("x.test") == .undetermined(earlier: .candidateOnly, later: .absent))
        #expect(status("z.test") == .undetermined(earlier: .absent, later: .candidateOnly))
        #expect(diff.newDomains.map(\.host) == ["new.test"] && diff.goneDomains.map(\.host) == ["gone.test"])
        #expect(diff.domainsInBoth.map(\.host) == ["both.test"])
        #expect(diff.undeterminedDomains.map(\.host)
                == ["maybe-before.test", "seen-then-maybe.test", "z.test", "maybe-both.test", "y.test", "x.test"])
        let both = try #require(diff.domains.first { $0.host == "both.test" })
        #expect(both.earlier?.flowIDs == [1] && both.later?.flowIDs == [11])
        #expect(diff.domains.first { $0.host == "new.test" }?.earlier == nil)
    }

    @Test("the later session's domains come first, in its order, then those only the earlier one named, in its order")
    func order() throws {
        let earlier = [F.flow(1, sni: "e1.test"), F.flow(2, sni: "shared.test"), F.flow(3, sni: "e2.test")]
        let later = [F.flow(11, sni: "l1.test"), F.flow(12, sni: "shared.test"), F.flow(13, sni: "l2.test")]
        let diff = try Self.diff(F.session(2, at: 10), later, F.session(1, at: 0), earlier)
        #expect(diff.domains.map(\.host) == ["l1.test", "shared.test", "l2.test", "e1.test", "e2.test"])
    }

    @Test("unnamed flows are kept per side")
    func unnamedFlows() throws {
        let diff = try Self.diff(F.session(1, at: 0), [F.flow(1), F.flow(2, sni: "a.test")], F.session(2, at: 10), [F.flow(7), F.flow(8)])
        #expect(diff.earlierUnnamedFlowIDs == [1] && diff.laterUnnamedFlowIDs == [7, 8])
    }

    @Test("the standing is today's allowlist: the first entry that allows, unlisted, or an empty list; the headline is new and unlisted")
    func standing() throws {
        let earlier = [F.flow(1, sni: "gone.tracker.test")]
        let later = [F.flow(11, sni: "api.lab.test"), F.flow(12, sni: "cdn.lab.test"), F.flow(13, sni: "tracker.test"),
                     F.flow(14, dns: "maybe.test", others: ["other.test"])]
        let diff = try Self.diff(F.session(1, at: 0), earlier, F.session(2, at: 10), later,
                                 allowlist: ["api.lab.test", "*.lab.test"])
        func standing(_ host: String) -> AllowlistStanding? { diff.domains.first { $0.host == host }?.standing }
        let entries = try F.project(allowlist: ["api.lab.test", "*.lab.test"]).allowlist
        #expect(standing("api.lab.test") == .listed(entries[0]) && standing("cdn.lab.test") == .listed(entries[1]))
        #expect(standing("tracker.test") == .unlisted && standing("gone.tracker.test") == .unlisted)
        // Unlisted but gone, or only a candidate: not the headline.
        #expect(diff.unexpectedNewDomains.map(\.host) == ["tracker.test"])
        let open = try Self.diff(F.session(1, at: 0), earlier, F.session(2, at: 10), later)
        #expect(open.domains.allSatisfy { $0.standing == .allowlistEmpty })
        #expect(open.unexpectedNewDomains.isEmpty && open.newDomains.count == 3)
    }

    /// The comparison of `a.test` seen in both sessions with the given flows' readings.
    static func tls(_ earlier: [StoredFlow], _ later: [StoredFlow]) throws -> (app: TLSVersionComparison, tunnel: TLSVersionComparison, change: Bool) {
        let diff = try Self.diff(F.session(1, at: 0), earlier + [F.flow(90, sni: "a.test")],
                            F.session(2, at: 10), later + [F.flow(91, sni: "a.test")])
        let domain = try #require(diff.domains.first { $0.host == "a.test" })
        guard case let .inBoth(app, tunnel) = domain.status else { throw NotInBoth(status: domain.status) }
        #expect(diff.domainsWithTLSChange.map(\.host) == (domain.hasTLSChange ? ["a.test"] : []))
        return (app, tunnel, domain.hasTLSChange)
    }

    struct NotInBoth: Error { let status: DomainStatus }

    @Test("the same set of versions is the same, however many flows carry each")
    func sameVersions() throws {
        let result = try Self.tls([F.flow(1, sni: "a.test", tls: .tls12), F.flow(2, sni: "a.test", tls: .tls13)],
                                  [F.flow(11, sni: "a.test", tls: .tls13), F.flow(12, sni: "a.test", tls: .tls12),
                                   F.flow(13, sni: "a.test", tls: .tls12)])
        #expect(result.app == .same([.tls12, .tls13]) && !result.change)
    }

    @Test("the floor is the weakest version: lowered, raised, or held while the sets differ above it")
    func floors() throws {
        let lowered = try Self.tls([F.flow(1, sni: "a.test", tls: .tls13)],
                                   [F.flow(11, sni: "a.test", tls: .tls13), F.flow(12, sni: "a.test", tls: .tls11)])
        #expect(lowered.app == .different(earlier: [.tls13], later: [.tls11, .tls13], floor: .lowered) && lowered.change)
        let raised = try Self.tls([F.flow(1, sni: "a.test", tls: .tls12), F.flow(2, sni: "a.test", tls: .tls13)],
                                  [F.flow(11, sni: "a.test", tls: .tls13)])
        #expect(raised.app == .different(earlier: [.tls12, .tls13], later: [.tls13], floor: .raised) && raised.change)
        let held = try Self.tls([F.flow(1, sni: "a.test", tls: .tls12)],
                                [F.flow(11, sni: "a.test", tls: .tls12), F.flow(12, sni: "a.test", quic: .v1)])
        #expect(held.app == .different(earlier: [.tls12], later: [.tls12, .tls13], floor: .held) && held.change)
    }

    @Test("any unpublished version on either side leaves the floor not ordered")
    func unpublished() throws {
        let draft = TLSProtocolVersion(rawValue: 0x7F1C)
        let result = try Self.tls([F.flow(1, sni: "a.test", tls: .tls12)],
                                  [F.flow(11, sni: "a.test", tls: .tls13), F.flow(12, sni: "a.test", tls: draft)])
        #expect(result.app == .different(earlier: [.tls12], later: [.tls13, draft], floor: .notOrdered) && result.change)
        #expect(TLSFloorShift(earlier: [draft], later: [.tls12]) == .notOrdered)
        #expect(TLSVersionComparison(earlier: [draft], later: [draft]) == .same([draft]))
    }

    @Test("each gap: not read in the earlier session, in the later, in either — and none is a change")
    func gaps() throws {
        let earlierOnly = try Self.tls([F.flow(1, sni: "a.test", tls: .tls12)], [])
        #expect(earlierOnly.app == .notCompared(.notReadInLaterSession) && !earlierOnly.change)
        let laterOnly = try Self.tls([], [F.flow(11, sni: "a.test", tls: .tls12)])
        #expect(laterOnly.app == .notCompared(.notReadInEarlierSession) && !laterOnly.change)
        let neither = try Self.tls([F.flow(1, sni: "a.test", refused: true)], [F.flow(11, sni: "a.test", quic: .v1, quicFrom: .client)])
        #expect(neither.app == .notCompared(.notReadInEitherSession) && neither.tunnel == .notCompared(.notReadInEitherSession))
    }

    @Test("the app's and the tunnel's versions are compared apart: ServerHello and QUIC the app's, upstream the tunnel's")
    func perNegotiator() throws {
        let result = try Self.tls([F.flow(1, sni: "a.test", tls: .tls12), F.flow(2, sni: "a.test", tls: .tls12, source: .upstreamConnection)],
                                  [F.flow(11, sni: "a.test", quic: .v2), F.flow(12, sni: "a.test", tls: .tls12, source: .upstreamConnection)])
        #expect(result.app == .different(earlier: [.tls12], later: [.tls13], floor: .raised))
        #expect(result.tunnel == .same([.tls12]) && result.change)
        let tunnelOnly = try Self.tls([F.flow(1, sni: "a.test", tls: .tls13, source: .upstreamConnection)],
                                      [F.flow(11, sni: "a.test", tls: .tls12, source: .upstreamConnection)])
        #expect(tunnelOnly.app == .notCompared(.notReadInEitherSession))
        #expect(tunnelOnly.tunnel == .different(earlier: [.tls13], later: [.tls12], floor: .lowered) && tunnelOnly.change)
    }

    @Test("only a domain seen in both has a TLS comparison; a new or undetermined one never has a change")
    func changesOnlyInBoth() throws {
        let diff = try Self.diff(F.session(1, at: 0), [F.flow(1, dns: "m.test", others: ["n.test"], tls: .tls10)],
                                 F.session(2, at: 10), [F.flow(11, sni: "m.test", tls: .tls13), F.flow(12, sni: "k.test", tls: .tls13)])
        #expect(diff.domainsWithTLSChange.isEmpty)
        #expect(diff.domains.allSatisfy { !$0.hasTLSChange })
    }
}
