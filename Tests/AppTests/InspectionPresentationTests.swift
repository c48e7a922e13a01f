import Foundation
import Shared
import Testing
@testable import App

/// How inspection's reasons, its two legs and how a server ended are said: the wording per kind,
/// the run summary's tally, and a body the server cut short never blamed on the budget.
@Suite("Inspection, said on every screen")
struct InspectionPresentationTests {
    @Test("every reason has its own label and sentence; broken flows say so, refusals never claim pinning alone")
    func wordingPerKind() {
        let kinds = InspectionReasonKind.allCases
        #expect(Set(kinds.map(InspectionReasonWording.label)).count == kinds.count)
        #expect(Set(kinds.map(InspectionReasonWording.sentence)).count == kinds.count)
        for kind in kinds { #expect(InspectionReasonWording.kind(identifier: InspectionReasonWording.identifier(kind).uppercased()) == kind) }
        #expect(InspectionReasonWording.sentence(.refusedCertificate).contains("trusts a store this run did not reach"))
        for kind in [InspectionReasonKind.clientHandshakeFailed, .upstreamFailed, .internalError] {
            #expect(InspectionReasonWording.sentence(kind).hasPrefix("broken by inspection"))
        }
        #expect(InspectionReasonWording.text(InspectionReason(.upstreamVerificationFailed, detail: "certificate has expired"))
                .hasSuffix("(certificate has expired)"))
    }

    static func connection(_ status: TLSInspectionStatus?, _ kind: InspectionReasonKind?) -> RunSummary.Connection {
        RunSummary.Connection(proto: .tcp, remote: nil, name: nil, bytesOut: 0, bytesIn: 0, packets: 0, duration: 0, tlsStatus: status,
                              inspectionReason: kind.map { InspectionReason($0) })
    }

    @Test("a run that inspected counts its connections by status and reason, in the text and the JSON")
    func summaryTally() throws {
        var summary = RunSummary(command: "curl", exitStatus: 0, signal: nil, connections: .known([
            Self.connection(.inspected, nil), Self.connection(.inspected, nil), Self.connection(.encrypted, .quic),
            Self.connection(.encrypted, .clientTLSPolicy), Self.connection(.notInspectable, .clientCertificateRequested),
            Self.connection(.inspectionFailed, .upstreamFailed), Self.connection(.plaintext, nil),
        ]), captureFiles: [], databasePath: "/d/db")
        #expect(!summary.text().contains("inspection:"))                 // a run without --inspect says nothing of it
        summary.inspectionTrust = "trusted"
        #expect(summary.text().contains("inspection: 2 inspected; 2 not inspected (quic 1, clientTLSPolicy 1); "
                                        + "1 not inspectable (clientCertificateRequested 1); 1 broken by inspection (upstreamFailed 1)"))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(summary.json().utf8)) as? [String: Any])
        let inspection = try #require(document["inspection"] as? [String: Any])
        #expect(inspection["inspected"] as? Int == 2)
        #expect((inspection["notInspected"] as? [[String: Any]])?.map { $0["reason"] as? String } == ["quic", "clientTLSPolicy"])
        #expect((inspection["inspectionFailed"] as? [[String: Any]])?.first?["count"] as? Int == 1)
        let connections = try #require(document["connections"] as? [[String: Any]])
        #expect(connections[2]["inspectionReason"] as? String == "quic" && connections[2]["tlsStatus"] as? String == "encrypted")
    }

    @Test("a body the connection ended early is the sender's doing; only a budget cut says the rest was not kept")
    func truncationIsNotTheBudgets() {
        let short = HTTP1Body(framing: .length(100_000), bytes: Data(count: 40_000), isComplete: false)
        #expect(short.summary(.none) == "40 000 bytes of 100 000 — the connection ended before the rest was sent")
        let cut = HTTP1Body(framing: .length(100_000), bytes: Data(count: 40_000), isComplete: false, cutByBudget: true)
        #expect(cut.summary(.none) == "40 000 bytes kept of 100 000 — the rest was not kept")
    }

    @Test("how a server ended is said with what it means for the content, each ending its own words")
    func endings() {
        let said = TLSStreamEnding.allCases.map(FlowInspector.ending)
        #expect(Set(said).count == said.count)
        #expect(FlowInspector.ending(.withoutCloseNotify).contains("cut short"))
        #expect(TLSStreamEnding.allCases.map(FlowInspector.endingIdentifier) == ["closeNotify", "withoutCloseNotify", "reset", "fatalAlert"])
    }
}
