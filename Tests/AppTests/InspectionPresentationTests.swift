import Foundation
import Shared
import Testing
@testable import App

/// How inspection's reasons, its two legs and how a server ended are said: the wording per kind,
/// the run summary's tally, and a body the server cut short never blamed on the budget.
@Suite("Inspection, said on every screen")
struct InspectionPresentationTests {
    @Test("every reason has its own label and sentence; what became of the flow is its status's to say, and refusals never claim pinning alone")
    func wordingPerKind() {
        let kinds = InspectionReasonKind.allCases
        #expect(Set(kinds.map(InspectionReasonWording.label)).count == kinds.count)
        #expect(Set(kinds.map(InspectionReasonWording.sentence)).count == kinds.count)
        for kind in kinds { #expect(InspectionReasonWording.kind(identifier: InspectionReasonWording.identifier(kind).uppercased()) == kind) }
        #expect(InspectionReasonWording.sentence(.refusedCertificate).contains("trusts a store this run did not reach"))
        #expect(!kinds.map(InspectionReasonWording.sentence).contains { $0.contains("pinned") })
        // The tunnel's own failure steps aside when it still can: its flow is then not said broken.
        let own = InspectionReason(.internalError, detail: "a certificate could not be minted")
        #expect(InspectionReasonWording.text(own, status: .encrypted)
                == "not inspected (passed through untouched): the tunnel's own side failed (a certificate could not be minted)")
        #expect(InspectionReasonWording.text(own, status: .inspectionFailed).hasPrefix("broken by inspection (the app's connection failed): "))
        #expect(InspectionReasonWording.text(InspectionReason(.clientCertificateRequested), status: .notInspectable)
                == "kept private (the host is left alone for the rest of the run): the server asks for the app's own certificate, "
                + "which the tunnel cannot present for it")
        #expect(InspectionReasonWording.text(InspectionReason(.upstreamVerificationFailed, detail: "certificate has expired"), status: .encrypted)
                .hasSuffix("(certificate has expired)"))
        #expect(InspectionReasonWording.sentence(.inspectionOff).contains("'tunnelvision settings set tls-inspection on'"))
    }

    @Test("a row says every reason but inspection simply not asked for, which is every connection of a plain run")
    func worthSaying() {
        #expect(!InspectionReasonWording.isWorthSaying(InspectionReason(.inspectionOff)))
        #expect(InspectionReasonWording.isWorthSaying(InspectionReason(.inspectionOff, detail: "the local CA is not usable")))
        for kind in InspectionReasonKind.allCases where kind != .inspectionOff {
            #expect(InspectionReasonWording.isWorthSaying(InspectionReason(kind)))
        }
        #expect(HistoryFlowWording.encryption(.encrypted, reason: InspectionReason(.quic)) == "encrypted — QUIC (passed through)")
        #expect(HistoryFlowWording.encryption(.encrypted, reason: InspectionReason(.inspectionOff)) == "encrypted")
        #expect(HistoryFlowWording.encryption(.inspectionFailed, reason: InspectionReason(.upstreamFailed))
                == "broken by inspection — server's side failed")
        #expect(Set(TLSInspectionStatus.allCases.map(HistoryFlowWording.statusLabel)).count == TLSInspectionStatus.allCases.count)
        #expect(HistoryFlowWording.statusLabel(.inspectionFailed) == "Broken by inspection")
        #expect(TLSInspectionStatus.allCases.filter { !HistoryFlowWording.statusIsWritten($0) } == [.encrypted])
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
        let short = DecryptedHTTPBody(framing: .length(100_000), bytes: Data(count: 40_000), isComplete: false)
        #expect(short.summary(.none) == "40 000 bytes of 100 000 — the connection ended before the rest was sent")
        let cut = DecryptedHTTPBody(framing: .length(100_000), bytes: Data(count: 40_000), isComplete: false, cutByBudget: true)
        #expect(cut.summary(.none) == "40 000 bytes kept of 100 000 — the rest was not kept")
    }

    @Test("how a server ended is said with what it means for the content, each ending its own words")
    func endings() {
        let said = TLSStreamEnding.allCases.map(FlowInspector.ending)
        #expect(Set(said).count == said.count)
        #expect(FlowInspector.ending(.withoutCloseNotify).contains("cut short"))
        #expect(TLSStreamEnding.allCases.map(FlowInspector.endingIdentifier) == ["closeNotify", "withoutCloseNotify", "reset", "fatalAlert"])
    }

    @Test("an unclean end by the server is said as the server's doing under the decrypted content; a clean one, or one after whole answers, says nothing")
    func endingNotes() {
        let chunks = [DecryptedChunks.chunk(.outbound, "GET / HTTP/1.1\r\nHost: a\r\n\r\n", at: 1),
                      DecryptedChunks.chunk(.inbound, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n01234", at: 2)]
        let start = Date(timeIntervalSince1970: 0)
        #expect(DecryptedContent(chunks, connectionStart: start, serverEnding: .closeNotify).endingNote == nil)
        #expect(DecryptedContent(chunks, connectionStart: start).endingNote == nil)
        let notes = [TLSStreamEnding.withoutCloseNotify, .reset, .fatalAlert].compactMap {
            DecryptedContent(chunks, connectionStart: start, serverEnding: $0).endingNote
        }
        #expect(notes.count == 3 && Set(notes).count == 3)
        for note in notes { #expect(note.hasPrefix("the server ") && note.contains("not by what TunnelVision keeps") && !note.contains("budget")) }
        // Answered in full before the server dropped the connection: nothing was cut, nothing is said.
        let whole = [chunks[0], DecryptedChunks.chunk(.inbound, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n01234", at: 2)]
        #expect(DecryptedContent(whole, connectionStart: start, serverEnding: .withoutCloseNotify).endingNote == nil)
        #expect(DecryptedContent(whole, connectionStart: start, serverEnding: .reset).endingNote == nil)
        // A body read until the close is never known to be whole; bytes that are not HTTP neither.
        let untilClose = [chunks[0], DecryptedChunks.chunk(.inbound, "HTTP/1.1 200 OK\r\n\r\n01234", at: 2)]
        #expect(DecryptedContent(untilClose, connectionStart: start, serverEnding: .withoutCloseNotify).endingNote != nil)
        let opaque = [DecryptedChunks.chunk(.outbound, "hello", at: 1), DecryptedChunks.chunk(.inbound, "world", at: 2)]
        #expect(DecryptedContent(opaque, connectionStart: start, serverEnding: .withoutCloseNotify).endingNote != nil)
        // No response, no budget cut: it never came; a cut inbound direction is the budget's.
        let unanswered = DecryptedContent([chunks[0]], connectionStart: start)
        #expect(unanswered.responseMissing == "none arrived before the connection ended")
        let cut = DecryptedContent([chunks[0], DecryptedChunks.chunk(.inbound, "", carried: 4_000, at: 2)], connectionStart: start)
        #expect(cut.responseMissing.contains("the budget for what was received ran out"))
    }
}
