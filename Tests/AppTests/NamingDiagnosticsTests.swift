import Shared
import Testing
import App

/// The two naming verdicts: names from lookups (DNS) and names from QUIC, with their footers.
@Suite("Diagnostics: names from lookups and from QUIC")
struct NamingDiagnosticsTests {
    typealias P = DiagnosticsPresentation

    static func pipeline(_ names: DNSNameStats = .zero, quic: QUICNameStats = .zero, packets: UInt64 = 0) -> PipelineStats {
        PipelineStats(packetsHandled: packets, dnsNames: names, quicNames: quic)
    }

    @Test("every verdict of names from lookups, in order")
    func dnsTable() {
        #expect(P.dnsNamingVerdict(for: Self.pipeline(DNSNameStats(repliesRecorded: 1, flowsNamed: 1), packets: 9)) == .naming)
        #expect(P.dnsNamingVerdict(for: Self.pipeline(DNSNameStats(repliesRecorded: 1, unreadableDatagrams: 5))) == .learning)
        #expect(P.dnsNamingVerdict(for: Self.pipeline(DNSNameStats(unreadableDatagrams: 5), packets: 9)) == .unreadable)
        #expect(P.dnsNamingVerdict(for: Self.pipeline(packets: 9)) == .nothingToRead)
        #expect(P.dnsNamingVerdict(for: Self.pipeline()) == .noTraffic)
    }

    @Test("each of the six reasons a readable reply taught nothing ends in nothing to learn, and outranks any unreadable ones")
    func sixReasons() {
        let reasons = [DNSNameStats(notAResponse: 1), DNSNameStats(unsupportedOpcode: 1), DNSNameStats(errorResponse: 1),
                       DNSNameStats(unsupportedQuestion: 1), DNSNameStats(unusableName: 1), DNSNameStats(noAddresses: 1)]
        for var names in reasons {
            #expect(P.dnsNamingVerdict(for: Self.pipeline(names, packets: 3)) == .nothingToLearn)
            names.unreadableDatagrams = 1_000
            #expect(P.dnsNamingVerdict(for: Self.pipeline(names, packets: 3)) == .nothingToLearn)
            #expect(P.repliesIgnored(names) == 1)
        }
    }

    @Test("only no traffic has no sentence; the others differ, carry no figures, and nothing to read is encrypted DNS")
    func dnsNotes() {
        #expect(P.dnsNamingNote(for: .noTraffic) == nil)
        let notes = P.DNSNamingVerdict.allCases.filter { $0 != .noTraffic }.compactMap { P.dnsNamingNote(for: $0) }
        #expect(notes.count == P.DNSNamingVerdict.allCases.count - 1 && Set(notes).count == notes.count)
        #expect(notes.allSatisfy { !$0.contains(where: \.isNumber) })
        #expect(P.dnsNamingNote(for: .nothingToRead)?.contains("encrypted DNS") == true)
    }

    @Test("names from lookups has five rows, is there without the relay, and follows the announced names")
    func dnsSection() {
        let stats = TunnelStats(pipeline: Self.pipeline(DNSNameStats(repliesRecorded: 2, addressesLearned: 3, flowsNamed: 1,
                                                                     errorResponse: 1, noAddresses: 1)))
        let screen = P.screen(stats: stats, isMonitoring: true)
        let keys = screen.sections.map(\.key)
        let lookups = screen.sections.first { $0.key == "namesFromLookups" }
        #expect(lookups?.rows.map(\.value) == ["2", "3", "2", "0", "1"])
        #expect(keys.firstIndex(of: "namesFromLookups")! > keys.firstIndex(of: "namesFromQUIC")!)
        #expect(lookups?.note == P.dnsNamingNote(for: .naming))
    }

    @Test("every verdict of names from QUIC, in order")
    func quicTable() {
        #expect(P.quicNamingVerdict(for: Self.pipeline(quic: QUICNameStats(initialsSeen: 2, initialsOpened: 2, helloIncomplete: 1,
                                                                           flowsNamed: 1, flowsWithoutName: 1))) == .naming)
        #expect(P.quicNamingVerdict(for: Self.pipeline(quic: QUICNameStats(initialsSeen: 2, initialsOpened: 2, helloIncomplete: 1,
                                                                           flowsWithoutName: 1))) == .nothingAnnounced)
        #expect(P.quicNamingVerdict(for: Self.pipeline(quic: QUICNameStats(initialsSeen: 2, initialsOpened: 2,
                                                                           helloIncomplete: 1))) == .notReadable)
        #expect(P.quicNamingVerdict(for: Self.pipeline(quic: QUICNameStats(initialsSeen: 2, initialsOpened: 2))) == .reading)
        #expect(P.quicNamingVerdict(for: Self.pipeline(quic: QUICNameStats(initialsSeen: 2, initialsUnopenable: 2))) == .notOpening)
        #expect(P.quicNamingVerdict(for: Self.pipeline(quic: QUICNameStats(initialsSeen: 2))) == .notOpening)
        #expect(P.quicNamingVerdict(for: Self.pipeline(packets: 5)) == .nothingToRead)
        #expect(P.quicNamingVerdict(for: Self.pipeline()) == .noTraffic)
    }

    @Test("only no traffic has no sentence; the normal case draws the line at the opening packets; unnamed cases say what is kept")
    func quicNotes() {
        #expect(P.quicNamingNote(for: .noTraffic) == nil)
        let notes = P.QUICNamingVerdict.allCases.filter { $0 != .noTraffic }.compactMap { P.quicNamingNote(for: $0) }
        #expect(notes.count == P.QUICNamingVerdict.allCases.count - 1 && Set(notes).count == notes.count)
        #expect(notes.allSatisfy { !$0.contains(where: \.isNumber) })
        #expect(P.quicNamingNote(for: .naming)?.contains("never decrypted") == true)
        for unnamed in [P.QUICNamingVerdict.nothingAnnounced, .notReadable, .notOpening] {
            #expect(P.quicNamingNote(for: unnamed)?.contains("keep the name a lookup gave") == true)
        }
    }

    @Test("names from QUIC: its rows in order, flows before packets, there without the relay, before the lookups")
    func quicSection() {
        let stats = TunnelStats(pipeline: Self.pipeline(quic: QUICNameStats(initialsSeen: 6, initialsOpened: 5, initialsUnopenable: 1,
                                                                            helloIncomplete: 2, flowsNamed: 3, flowsWithoutName: 4,
                                                                            serverAnswersRead: 7, serverInitialsUnopenable: 8)))
        let section = P.screen(stats: stats, isMonitoring: true).sections.first { $0.key == "namesFromQUIC" }
        #expect(section?.rows.map(\.value) == ["3", "4", "2", "6", "5", "1", "7", "8"])
        #expect(section?.note == P.quicNamingNote(for: .naming))
    }
}
