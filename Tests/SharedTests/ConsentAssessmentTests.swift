import Foundation
import Testing
import Shared

/// The consent check, row by row (audit.md § Consent): when a flow's first packet was seen against
/// the session's consent markers.
@Suite struct ConsentAssessmentTests {
    typealias F = AuditFindingsFixtures

    static let audit = AuditSessionKind.audit(AppRelease(version: "2.4.0", build: "311"))
    /// Consent marked at 10 s and again at 20 s.
    static let consent = ConsentInterval(instants: [F.start.addingTimeInterval(20), F.start.addingTimeInterval(10)])

    static func assess(at second: Double, kind: AuditSessionKind = audit, consent: ConsentInterval? = consent) -> ConsentAssessment {
        ConsentAssessment(of: F.flow(1, at: second), sessionKind: kind, consent: consent)
    }

    @Test("a baseline is not applicable: it is recorded without the app, so there is no consent to give")
    func baseline() {
        for second in [0.0, 15, 30] {
            #expect(Self.assess(at: second, kind: .baseline) == .notApplicable)
            #expect(Self.assess(at: second, kind: .baseline, consent: nil) == .notApplicable)
        }
        #expect(Self.assess(at: 0, kind: .baseline).outcome == .notApplicable)
    }

    @Test("a session without a consent marker is unassessed: no consent marker")
    func noConsentMarker() {
        #expect(Self.assess(at: 0, consent: nil) == .notAssessed(.noConsentMarker))
        #expect(Self.assess(at: 0, consent: nil).outcome == .unassessed(.noConsentMarker))
    }

    @Test("a first packet before the earliest marker is activity before consent")
    func beforeConsent() {
        #expect(Self.assess(at: 0) == .beforeConsent)
        #expect(Self.assess(at: 9.999) == .beforeConsent)
        #expect(Self.assess(at: 0).outcome == .finding(.activityBeforeConsent))
    }

    @Test("a first packet at the latest marker or after is after consent: the marker's instant counts as after")
    func afterConsent() {
        #expect(Self.assess(at: 20) == .afterConsent)
        #expect(Self.assess(at: 3_600) == .afterConsent)
        #expect(Self.assess(at: 20).outcome == .satisfied)
        let once = ConsentInterval(instants: [F.start.addingTimeInterval(10)])
        #expect(Self.assess(at: 10, consent: once) == .afterConsent)
    }

    @Test("a first packet from the earliest marker to before the latest is unassessed: between consent markers")
    func betweenMarkers() {
        for second in [10.0, 15, 19.999] {
            #expect(Self.assess(at: second) == .notAssessed(.betweenConsentMarkers))
        }
    }

    @Test("the interval holds only this session's consentGiven markers; none makes no interval")
    func interval() {
        let markers = [
            SessionMarker(id: 1, sessionID: 5, date: F.start.addingTimeInterval(30), kind: .consentGiven),
            SessionMarker(id: 2, sessionID: 5, date: F.start.addingTimeInterval(1), kind: .loggedIn),
            SessionMarker(id: 3, sessionID: 6, date: F.start.addingTimeInterval(2), kind: .consentGiven),
            SessionMarker(id: 4, sessionID: 5, date: F.start.addingTimeInterval(3), kind: .custom("consentGiven")),
            SessionMarker(id: 5, sessionID: 5, date: F.start.addingTimeInterval(40), kind: .consentGiven),
        ]
        let interval = ConsentInterval(markers: markers, sessionID: 5)
        #expect(interval?.earliest == F.start.addingTimeInterval(30) && interval?.latest == F.start.addingTimeInterval(40))
        #expect(ConsentInterval(markers: markers, sessionID: 7) == nil)
        #expect(ConsentInterval(markers: Array(markers[1...3]), sessionID: 5) == nil)
        #expect(ConsentInterval(instants: []) == nil)
    }

    @Test("the gaps' identifiers are stable")
    func identifiers() {
        #expect(ConsentGap.allCases.map(\.identifier) == ["noConsentMarker", "betweenConsentMarkers"])
    }
}
