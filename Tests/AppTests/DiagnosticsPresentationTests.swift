import Foundation
import Shared
import Testing
import App

/// The inspection and resolver verdicts, and the screen's sections (seeds/000 § Session diagnostics).
@Suite("Diagnostics: inspection, name resolution and the screen")
struct DiagnosticsPresentationTests {
    typealias P = DiagnosticsPresentation

    static func stats(inspection: InspectionStats? = nil, tlsOpenings: UInt64 = 0, relay: Bool = true,
                      resolvers: ResolverStatus? = nil, lookups: (sent: UInt64, answered: UInt64) = (0, 0),
                      pipeline: PipelineStats = .zero) -> TunnelStats {
        TunnelStats(pipeline: pipeline,
                    relay: relay ? RelayStats(dnsQueriesSent: lookups.sent, dnsRepliesReceived: lookups.answered,
                                              streamOpeningsTLS: tlsOpenings, inspection: inspection) : nil,
                    resolvers: resolvers)
    }

    @Test("every inspection verdict, in the table's order")
    func inspectionTable() {
        #expect(P.verdict(for: Self.stats(inspection: InspectionStats(inspectionCandidates: 9, flowsInspected: 1)),
                          isMonitoring: false) == .notMonitoring)
        #expect(P.verdict(for: Self.stats(relay: false), isMonitoring: true) == .unavailable)
        #expect(P.verdict(for: nil, isMonitoring: true) == .unavailable)
        #expect(P.verdict(for: Self.stats(inspection: .zero), isMonitoring: true) == .idle)
        #expect(P.verdict(for: Self.stats(inspection: InspectionStats(inspectionCandidates: 3), tlsOpenings: 3),
                          isMonitoring: true) == .neverTerminates(named: true))
        #expect(P.verdict(for: Self.stats(inspection: InspectionStats(inspectionCandidates: 3)),
                          isMonitoring: true) == .neverTerminates(named: false))
        // pinnedHostSkips does not separate the two.
        #expect(P.verdict(for: Self.stats(inspection: InspectionStats(inspectionCandidates: 3, pinnedHostSkips: 2)),
                          isMonitoring: true) == .neverTerminates(named: false))
        let all = InspectionStats(inspectionCandidates: 9, terminationsOpened: 9, flowsInspected: 1, flowsPinned: 1,
                                  terminationsFailed: 1)
        // A connection broken by inspection is never hidden: it qualifies "working" and heads off "only refusals".
        #expect(P.verdict(for: Self.stats(inspection: all), isMonitoring: true) == .workingWithBreakage)
        #expect(P.verdict(for: Self.stats(inspection: InspectionStats(inspectionCandidates: 9, terminationsOpened: 9, flowsInspected: 1,
                                                                      flowsPinned: 1)),
                          isMonitoring: true) == .working)
        #expect(P.verdict(for: Self.stats(inspection: InspectionStats(inspectionCandidates: 9, terminationsOpened: 9,
                                                                      flowsPinned: 1, terminationsFailed: 1)),
                          isMonitoring: true) == .failing)
        #expect(P.verdict(for: Self.stats(inspection: InspectionStats(inspectionCandidates: 9, terminationsOpened: 9, flowsPinned: 1)),
                          isMonitoring: true) == .pinnedOnly)
        #expect(P.verdict(for: Self.stats(inspection: InspectionStats(inspectionCandidates: 9, terminationsOpened: 9,
                                                                      terminationsFailed: 1)),
                          isMonitoring: true) == .failing)
        #expect(P.verdict(for: Self.stats(inspection: InspectionStats(inspectionCandidates: 9, terminationsOpened: 9)),
                          isMonitoring: true) == .starting)
    }

    @Test("with no inspection counters in the reply (this build) the verdict is idle, never unavailable")
    func absentInspectionIsIdle() {
        #expect(P.verdict(for: Self.stats(inspection: nil, tlsOpenings: 40), isMonitoring: true) == .idle)
    }

    @Test("a missing relay is not read as idle, and the refused-only copy says what is known: pinning, or a trust store not reached")
    func copy() {
        #expect(P.headline(for: .unavailable) != P.headline(for: .idle))
        #expect(P.headline(for: .pinnedOnly).text.contains("trusts a store this run did not reach"))
        #expect(P.headline(for: .pinnedOnly).text.contains("never forced"))
        let verdicts: [P.InspectionVerdict] = [.notMonitoring, .unavailable, .idle, .neverTerminates(named: true),
                                               .neverTerminates(named: false), .working, .workingWithBreakage, .pinnedOnly, .failing,
                                               .starting]
        #expect(Set(verdicts.map { P.headline(for: $0).text }).count == verdicts.count)
        #expect(Set(verdicts.map { P.headline(for: $0).verdict }).count == verdicts.count)
        #expect(!verdicts.map { P.headline(for: $0).text }.contains { $0.contains("pinned") })
        for broken in [P.InspectionVerdict.workingWithBreakage, .failing] {
            #expect(P.headline(for: broken).text.contains("'tunnelvision flows --status inspectionFailed' lists them"))
        }
    }

    @Test("every resolver verdict; a reply without resolvers is unknown, never 'announced none'")
    func resolverTable() {
        let announced = ResolverStatus(announced: ["198.19.0.2"], reportedAtStart: ["198.19.0.2"])
        #expect(P.resolverVerdict(for: Self.stats(resolvers: announced), isMonitoring: false) == .unknown)
        #expect(P.resolverVerdict(for: Self.stats(resolvers: nil), isMonitoring: true) == .unknown)
        #expect(P.resolverVerdict(for: Self.stats(resolvers: ResolverStatus(announced: [], reportedAtStart: nil)),
                                  isMonitoring: true) == .unreadable)
        #expect(P.resolverVerdict(for: Self.stats(resolvers: ResolverStatus(announced: [], reportedAtStart: [])),
                                  isMonitoring: true) == .noneReported)
        #expect(P.resolverVerdict(for: Self.stats(resolvers: ResolverStatus(announced: [], reportedAtStart: ["127.0.0.53"])),
                                  isMonitoring: true) == .noneUsable)
        #expect(P.resolverVerdict(for: Self.stats(resolvers: announced, lookups: (4, 0)), isMonitoring: true) == .notAnswering)
        // Cause and symptom together: a change that taught nothing, and lookups unanswered.
        var changed = announced
        changed.networkChanges = 2
        #expect(P.resolverVerdict(for: Self.stats(resolvers: changed, lookups: (4, 0)), isMonitoring: true) == .stale)
        #expect(P.resolverVerdict(for: Self.stats(resolvers: changed, lookups: (3, 0)), isMonitoring: true) == .announcing)
        #expect(P.resolverVerdict(for: Self.stats(resolvers: changed, lookups: (9, 2)), isMonitoring: true) == .announcing)
        changed.networkChangesLearned = 1   // learnt once: it catches up, so the servers are not blamed on the change
        #expect(P.resolverVerdict(for: Self.stats(resolvers: changed, lookups: (4, 0)), isMonitoring: true) == .notAnswering)
        #expect(P.resolverVerdict(for: Self.stats(resolvers: announced, lookups: (40, 1)), isMonitoring: true) == .announcing)
        #expect(P.resolverVerdict(for: Self.stats(resolvers: announced), isMonitoring: true) == .announcing)
    }

    @Test("a handful of lookups in flight is no failure, and none is claimed without the relay's counters")
    func lookupsInFlight() {
        let announced = ResolverStatus(announced: ["198.19.0.2"], reportedAtStart: ["198.19.0.2"])
        #expect(P.resolverVerdict(for: Self.stats(resolvers: announced, lookups: (3, 0)), isMonitoring: true) == .announcing)
        #expect(P.resolverVerdict(for: Self.stats(relay: false, resolvers: announced), isMonitoring: true) == .announcing)
    }

    @Test("the normal case has no notice; every other says something different")
    func resolverNotices() {
        #expect(P.resolverNotice(for: .announcing) == nil)
        #expect(P.resolverNotice(for: .unknown) == nil)
        let warned: [P.ResolverVerdict] = [.unreadable, .noneReported, .noneUsable, .stale, .notAnswering]
        let texts = warned.compactMap { P.resolverNotice(for: $0)?.text }
        #expect(texts.count == warned.count && Set(texts).count == warned.count)
    }

    @Test("the screen puts the notice above the headline, and the lists in words where one is empty or unreadable")
    func resolverSectionWords() {
        let stats = Self.stats(resolvers: ResolverStatus(announced: [], reportedAtStart: nil))
        let screen = P.screen(stats: stats, isMonitoring: true)
        #expect(screen.resolverNotice?.verdict == "unreadable")
        let text = screen.text
        let notice = text.range(of: "Warning:")?.lowerBound
        let headline = text.range(of: screen.headline.text)?.lowerBound
        #expect(notice != nil && headline != nil && notice! < headline!)
        let rows = screen.sections.first { $0.key == "resolvers" }?.rows ?? []
        #expect(rows.first { $0.key == "resolvers.announced" }?.value == "none")
        #expect(rows.first { $0.key == "resolvers.reportedAtStart" }?.value == "could not be read")
    }

    @Test("sections in order; the relay's are absent rather than zeroed when it did not answer")
    func sectionOrder() {
        let full = P.screen(stats: Self.stats(inspection: .zero, resolvers: ResolverStatus(announced: ["198.19.0.2"],
                                                                                          reportedAtStart: ["198.19.0.2"])),
                            isMonitoring: true)
        #expect(full.sections.map(\.key) == ["inspection", "inspectionReasons", "traffic", "relay", "resolvers", "namesFromTCP",
                                             "namesFromQUIC", "namesFromLookups"])
        let noRelay = P.screen(stats: Self.stats(relay: false), isMonitoring: true)
        #expect(noRelay.sections.map(\.key) == ["traffic", "namesFromQUIC", "namesFromLookups"])
        #expect(P.screen(stats: Self.stats(), isMonitoring: false).sections.isEmpty)
    }

    @Test("the seven inspection counters are all on screen")
    func inspectionRows() {
        let screen = P.screen(stats: Self.stats(inspection: InspectionStats(inspectionCandidates: 1, terminationsOpened: 2,
                                                                            inspectionsAbandoned: 3, pinnedHostSkips: 4,
                                                                            flowsInspected: 5, flowsPinned: 6,
                                                                            terminationsFailed: 7)), isMonitoring: true)
        let rows = screen.sections.first { $0.key == "inspection" }?.rows ?? []
        #expect(rows.map(\.value) == ["1", "2", "3", "4", "5", "6", "7"])
        #expect(!rows.map(\.label).contains { $0.contains("pinned") })
    }

    @Test("the connections not inspected, or broken, are counted by reason in the reasons' order; none yet is said")
    func reasonRows() {
        let tally = InspectionReasonTally([.clientCertificateRequested: 2, .quic: 5, .upstreamFailed: 1])
        let screen = P.screen(stats: Self.stats(inspection: InspectionStats(inspectionCandidates: 3, byReason: tally)), isMonitoring: true)
        let section = screen.sections.first { $0.key == "inspectionReasons" }
        #expect(section?.rows.map(\.key) == ["inspectionReasons.quic", "inspectionReasons.clientCertificateRequested",
                                             "inspectionReasons.upstreamFailed"])
        #expect(section?.rows.map(\.label) == ["QUIC (passed through)", "server asks for the app's certificate", "server's side failed"])
        #expect(section?.rows.map(\.value) == ["5", "2", "1"])
        #expect(section?.note == nil)
        let none = P.screen(stats: Self.stats(inspection: .zero), isMonitoring: true).sections.first { $0.key == "inspectionReasons" }
        #expect(none?.rows.isEmpty == true && none?.note?.hasPrefix("None so far") == true)
    }

    @Test("the errors section exists only when there is an error")
    func errorsOnlyWhenThere() {
        #expect(!P.screen(stats: Self.stats(), isMonitoring: true).sections.contains { $0.key == "errors" })
        let failing = P.screen(stats: Self.stats(pipeline: PipelineStats(lastStoreError: "database or disk is full")),
                               isMonitoring: true, failure: "control socket: connect failed: Permission denied")
        let errors = failing.sections.first { $0.key == "errors" }
        #expect(errors?.rows.map(\.value) == ["control socket: connect failed: Permission denied", "database or disk is full"])
    }

    @Test("row keys are unique on the whole screen, and volumes are written as volumes")
    func keysAndVolumes() {
        let stats = TunnelStats(pipeline: PipelineStats(bytesHandled: 1_536, lastCaptureError: "x", diskFull: true),
                                relay: RelayStats(bytesFromDevice: 3 << 20, inspection: .zero),
                                resolvers: ResolverStatus(announced: ["198.19.0.2"], reportedAtStart: []))
        let screen = P.screen(stats: stats, isMonitoring: true, failure: "y")
        let keys = screen.sections.flatMap { $0.rows.map(\.key) }
        #expect(Set(keys).count == keys.count)
        let rows = screen.sections.flatMap(\.rows)
        #expect(rows.first { $0.key == "traffic.volume" }?.value == "1.5 KiB")
        #expect(rows.first { $0.key == "relay.sent" }?.value == "3.0 MiB")
    }

    @Test("the JSON form parses and holds the headline, the notice and every row")
    func json() throws {
        let screen = P.screen(stats: Self.stats(resolvers: ResolverStatus(announced: [], reportedAtStart: [])), isMonitoring: true)
        let document = try exportDocument(Data(screen.json.utf8))
        #expect(document["monitoring"] as? Bool == true)
        #expect((document["headline"] as? [String: Any])?["verdict"] as? String == "idle")
        #expect((document["resolverNotice"] as? [String: Any])?["verdict"] as? String == "noneReported")
        let sections = try #require(document["sections"] as? [[String: Any]])
        #expect(sections.map { $0["key"] as? String } == screen.sections.map(\.key))
        let rows = sections.flatMap { ($0["rows"] as? [[String: Any]]) ?? [] }
        #expect(rows.count == screen.sections.flatMap(\.rows).count)
    }
}
