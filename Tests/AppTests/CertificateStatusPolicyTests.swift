import Foundation
import Testing
import App

/// The pure decisions over the CA's status, over every state — the fail-closed ones named.
@Suite struct CertificateStatusPolicyTests {
    private static let now = Date(timeIntervalSince1970: 1_800_000_000)
    private static let statuses: [CertificateStatus] = [
        CertificateStatus(authority: .notGenerated),
        CertificateStatus(authority: .generated(.usable)),
        CertificateStatus(authority: .generated(.expired(notAfter: now - 1))),
        CertificateStatus(authority: .generated(.notYetValid(notBefore: now + 1))),
        CertificateStatus(authority: .unknown("the key cannot be read")),
    ]

    @Test("creation is offered only when it is known there is no CA — an unreadable one is not none")
    func canGenerateOnlyWhenKnownAbsent() {
        #expect(Self.statuses.filter(CertificateStatusPolicy.canGenerate) == [CertificateStatus(authority: .notGenerated)])
    }

    @Test("inspection can use the CA only when its root was read and is valid now")
    func canInspectOnlyUsable() {
        #expect(Self.statuses.filter(CertificateStatusPolicy.canInspect) == [CertificateStatus(authority: .generated(.usable))])
    }

    @Test("turning inspection on is refused over every status but a usable root, each refusal a clause naming what fixes it")
    func inspectionRefusals() {
        let refusals = Self.statuses.map(CertificateStatusPolicy.inspectionRefusal)
        #expect(refusals.map { $0 == nil } == [false, true, false, false, false])
        #expect(refusals[0] == "there is no local CA to sign with; 'tunnelvision ca create' makes one")
        #expect(refusals[2]?.contains("expired") == true && refusals[2]?.contains("'tunnelvision ca create --remake'") == true)
        #expect(refusals[3]?.contains("clock") == true)
        #expect(refusals[4] == "the local CA cannot be read: the key cannot be read")
        // The reader's reason ends its own sentence; the clause does not, so the caller's full stop is the only one.
        let sentence = CertificateStatusPolicy.inspectionRefusal(CertificateStatus(authority: .unknown("a damaged key. 'tunnelvision ca remove' deletes it.")))
        #expect(sentence == "the local CA cannot be read: a damaged key. 'tunnelvision ca remove' deletes it")
        #expect(refusals.compactMap { $0 }.allSatisfy { !$0.hasSuffix(".") })
    }

    @Test("the stage is derived from the status: the trade-off first, then generate, ready, or why not")
    func stages() {
        #expect(CertificateSetupPolicy.stage(for: Self.statuses[0], tradeOffAcknowledged: false) == .explainTradeOff)
        #expect(CertificateSetupPolicy.stage(for: Self.statuses[0], tradeOffAcknowledged: true) == .generate)
        for acknowledged in [false, true] {
            #expect(CertificateSetupPolicy.stage(for: Self.statuses[1], tradeOffAcknowledged: acknowledged) == .ready)
            #expect(CertificateSetupPolicy.stage(for: Self.statuses[4], tradeOffAcknowledged: acknowledged)
                    == .unavailable("the key cannot be read"))
            guard case let .unavailable(expired) = CertificateSetupPolicy.stage(for: Self.statuses[2], tradeOffAcknowledged: acknowledged),
                  case let .unavailable(early) = CertificateSetupPolicy.stage(for: Self.statuses[3], tradeOffAcknowledged: acknowledged)
            else {
                Issue.record("an expired or not-yet-valid root was offered as usable")
                return
            }
            #expect(expired.contains("expired") && expired.contains("remake") && early.contains("clock"))
        }
        // Exactly one stage offers to create.
        let creating = Self.statuses.flatMap { status in [false, true].map { CertificateSetupPolicy.stage(for: status, tradeOffAcknowledged: $0) } }
            .filter { $0 == .generate }
        #expect(creating.count == 1)
    }

    @Test("remake is offered over a CA that was read, removal over anything that may be one, neither over none")
    func remakeAndRemove() {
        #expect(Self.statuses.map(CertificateSetupPolicy.canRegenerate) == [false, true, true, true, false])
        #expect(Self.statuses.map(CertificateSetupPolicy.canRemove) == [false, true, true, true, true])
    }

    @Test("a root's validity against the clock: before, within and after")
    func validity() {
        let from = Self.now - 10, to = Self.now + 10
        #expect(CertificateStatus.generated(notBefore: from, notAfter: to, now: Self.now).authority == .generated(.usable))
        #expect(CertificateStatus.generated(notBefore: from, notAfter: to, now: to + 1).authority == .generated(.expired(notAfter: to)))
        #expect(CertificateStatus.generated(notBefore: from, notAfter: to, now: from - 1).authority == .generated(.notYetValid(notBefore: from)))
    }
}
