import Foundation
import Shared

/// What Settings → *Look inside secure traffic* shows for a `CAReport` (screens.md § Settings and
/// onboarding-and-consent's CA steps, in Linux words): the stage, the title, the sentences, which
/// actions are offered, the questions they ask first, and the inspection switch. Derived from the
/// report every time it is read, never kept; the web page draws it as it is. Also the lines
/// `ca create` and `ca create --remake` print, so the terminal and the page say the same.
package struct CertificateSetupCard: Sendable, Equatable {
    package enum Stage: String, Sendable, Equatable {
        /// Known to be no CA: the trade-off, and Create.
        case none
        /// A usable root: its facts, how to use it, Download, Remake, Remove.
        case ready
        /// A CA that cannot be used (unreadable, expired, not yet valid): the problem; never Create.
        case unavailable
    }

    package enum Action: String, Sendable, Equatable, CaseIterable {
        case create, download, remake, remove
    }

    package let stage: Stage
    package let title: String
    package let sentences: [String]
    /// The command line that gives a command the trust; only when the CA is ready.
    package let usage: String?
    package let actions: [Action]
    /// The tls-inspection setting; nil when the settings file cannot be read.
    package let inspection: Bool?
    /// Turning inspection on needs a usable CA; turning it off is always offered.
    package let canTurnInspectionOn: Bool
    /// Why the switch cannot be turned on, when it cannot.
    package let switchHint: String?

    static let setUpTitle = "Set up secure traffic inspection"
    static let manageTitle = "Manage your certificate"
    static let usageLine = "sudo tunnelvision run --inspect -- COMMAND"

    /// What Remake asks first (the command asks it at a terminal; `--yes` answers it).
    package static let remakeQuestion = "Remake the local CA? The old root stops signing; whatever trusts it must be given the new one: "
        + "every copy of the old root certificate you exported stops working."
    /// What Remove asks first.
    package static let removeQuestion = "Remove the local CA? Its key is deleted; TLS inspection is turned off first. "
        + "The history and the captures stay."

    package init(_ report: CAReport) {
        let status = report.status
        inspection = report.inspection
        if status.authority == .notGenerated {
            stage = .none
        } else if CertificateStatusPolicy.canInspect(status) {
            stage = .ready
        } else {
            stage = .unavailable
        }
        title = stage == .ready ? Self.manageTitle : Self.setUpTitle
        switch stage {
        case .none:
            sentences = ["TunnelVision can read your own HTTPS traffic: it makes a certificate authority (CA) of its own, kept in "
                         + "this data directory only — its private key never leaves it.",
                         "Nothing on this machine is asked to trust it. Only a command you start with 'tunnelvision run --inspect' "
                         + "is given the trust, for that run alone; every other program's traffic stays private.",
                         "Apps that pin their certificates are never forced: they stay private, and work as before."]
            usage = nil
        case .ready:
            sentences = ["The certificate is ready. To look inside a command's secure traffic, start it with inspection on — "
                         + "it alone trusts this certificate, for that run, and the run checks that it does."]
            usage = Self.usageLine
        case .unavailable:
            sentences = [report.problem ?? "The local CA cannot be used.",
                         "Nothing new is made over a CA that cannot be read: it may still be trusted somewhere."]
            usage = nil
        }
        var actions: [Action] = []
        if CertificateStatusPolicy.canGenerate(status) { actions.append(.create) }
        if stage == .ready { actions.append(.download) }
        if CertificateSetupPolicy.canRegenerate(status) { actions.append(.remake) }
        if CertificateSetupPolicy.canRemove(status) { actions.append(.remove) }
        self.actions = actions
        canTurnInspectionOn = CertificateStatusPolicy.inspectionRefusal(status) == nil
        switchHint = switch stage {
        case .ready: nil
        case .none: "Create the certificate first: inspection can be turned on only when it is ready."
        case .unavailable: "Inspection can be turned on only when the certificate can be used."
        }
    }

    /// The `"setup"` object of the CA's JSON.
    func write(into out: inout JSONWriter) {
        out.beginObject("setup")
        out.string("stage", stage.rawValue)
        out.string("title", title)
        out.strings("sentences", sentences)
        if let usage { out.string("usage", usage) }
        out.strings("actions", actions.map(\.rawValue))
        if actions.contains(.remake) { out.string("remakeQuestion", Self.remakeQuestion) }
        if actions.contains(.remove) { out.string("removeQuestion", Self.removeQuestion) }
        out.bool("canTurnInspectionOn", canTurnInspectionOn)
        if let switchHint { out.string("switchHint", switchHint) }
        out.endObject()
    }

    /// What `ca create` did, as the web app's notice says it (the card shows the facts).
    static let createdLines = ["created a local CA"]

    /// What `ca create --remake` did, as the web app's notice says it.
    static func remadeLines(_ removal: CAQuestion.Removal) -> [String] {
        removal.lines.dropLast() + ["created a new local CA"]
    }

    /// What `ca create` prints: what it did, then the facts.
    package static func createdText(_ report: CAReport) -> [String] { createdLines + report.lines.dropFirst() }

    /// What `ca create --remake` prints.
    package static func remadeText(_ removal: CAQuestion.Removal, _ report: CAReport) -> [String] {
        remadeLines(removal) + report.lines.dropFirst()
    }
}
