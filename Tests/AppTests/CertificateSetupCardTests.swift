import Foundation
import Shared
import Testing
import TestSupport
@testable import App

/// The Settings card of the local CA, decided from the status alone: no CA offers Create and
/// nothing else; a usable one its facts' actions; one that cannot be used never offers Create.
struct CertificateSetupCardTests {
    static let now = Date(timeIntervalSince1970: 1_796_004_000)
    static let facts = CAReport.Facts(subject: "CN=Test", fingerprintSHA256: "AA:BB", notBefore: now - 86_400, notAfter: now + 86_400)

    static func card(_ authority: CertificateStatus.Authority, inspection: Bool? = false) -> CertificateSetupCard {
        let facts: CAReport.Facts? = if case .generated = authority { Self.facts } else { nil }
        return CertificateSetupCard(CAReport(status: CertificateStatus(authority: authority), facts: facts,
                                             certificatePath: "/d/ca/root.pem", inspection: inspection))
    }

    @Test("no CA: 'Set up secure traffic inspection', the trade-off, Create only, the switch cannot be turned on")
    func noCA() {
        let card = Self.card(.notGenerated)
        #expect(card.stage == .none && card.title == "Set up secure traffic inspection")
        #expect(card.actions == [.create])
        #expect(!card.canTurnInspectionOn && card.switchHint?.contains("Create the certificate first") == true)
        #expect(card.usage == nil)
        #expect(card.sentences.joined().contains("private key never leaves"))
    }

    @Test("a usable CA: 'Manage your certificate', how to use it, Download, Remake and Remove; the switch can be turned on")
    func ready() {
        let card = Self.card(.generated(.usable))
        #expect(card.stage == .ready && card.title == "Manage your certificate")
        #expect(card.actions == [.download, .remake, .remove])
        #expect(card.usage == "sudo tunnelvision run --inspect -- COMMAND")
        #expect(card.canTurnInspectionOn && card.switchHint == nil)
    }

    @Test("an unreadable CA: its sentence, never Create (doubt closes the door), Remove only; an expired one may be remade")
    func unavailable() {
        let unreadable = Self.card(.unknown("ca/root-key.pem holds no PEM private key"))
        #expect(unreadable.stage == .unavailable && unreadable.title == "Set up secure traffic inspection")
        #expect(unreadable.sentences.first == "ca/root-key.pem holds no PEM private key")
        #expect(unreadable.actions == [.remove])
        #expect(!unreadable.canTurnInspectionOn)
        let expired = Self.card(.generated(.expired(notAfter: Self.now)))
        #expect(expired.stage == .unavailable && expired.actions == [.remake, .remove])
        #expect(expired.sentences.first?.contains("expired") == true && !expired.canTurnInspectionOn)
    }

    @Test("the JSON's setup object carries the stage, the actions and each question only with its action")
    func json() throws {
        let none = Self.card(.notGenerated)
        let report = CAReport(status: CertificateStatus(authority: .notGenerated), facts: nil, certificatePath: "/d/ca/root.pem", inspection: false)
        #expect(try PythonJSON.value(report.json, "setup.actions") == #"["create"]"#)
        #expect(try PythonJSON.value(report.json, "setup.title") == "\"\(none.title)\"")
        #expect(try !PythonJSON.value(report.json, "setup").contains("removeQuestion"))
        let ready = CAReport(status: CertificateStatus(authority: .generated(.usable)), facts: Self.facts, certificatePath: "/d/ca/root.pem", inspection: true)
        #expect(try PythonJSON.value(ready.json, "setup.removeQuestion") == "\"\(CertificateSetupCard.removeQuestion)\"")
        #expect(try PythonJSON.value(ready.json(lines: ["done"]), "lines") == #"["done"]"#)
        #expect(try !PythonJSON.value(ready.json, "").contains("\"lines\""))
    }
}
