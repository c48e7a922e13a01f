import Foundation
import Shared

/// What `ca show` (and `ca create`) print, and the `/api` document the web app reads:
///
///   {"status": "notCreated"|"created"|"unreadable", "problem": sentence, "subject", "fingerprintSHA256",
///    "notBefore", "notAfter" (ISO 8601), "certificate": path of ca/root.pem, "inspection": bool,
///    "canCreate", "canRemake", "canRemove", "setup": the web card's (`CertificateSetupCard`),
///    "lines": what an action did (its answers only)}
/// with every field that is not known left out.
package struct CAReport: Sendable, Equatable {
    package struct Facts: Sendable, Equatable {
        package let subject: String
        package let fingerprintSHA256: String
        package let notBefore: Date
        package let notAfter: Date

        package init(subject: String, fingerprintSHA256: String, notBefore: Date, notAfter: Date) {
            self.subject = subject
            self.fingerprintSHA256 = fingerprintSHA256
            self.notBefore = notBefore
            self.notAfter = notAfter
        }

        package init(_ ca: LocalCA) {
            let root = ca.authority.root
            let subject = ServerCertificateReader.certificate(fromDER: ca.authority.rootCertificateDER[...], maxNameLength: 256)?.subject.text
            self.init(subject: subject ?? "", fingerprintSHA256: ca.fingerprintSHA256, notBefore: root.notBefore, notAfter: root.notAfter)
        }
    }

    package let status: CertificateStatus
    package let facts: Facts?
    package let certificatePath: String
    /// The tls-inspection setting; nil when the settings file cannot be read.
    package let inspection: Bool?

    package init(status: CertificateStatus, facts: Facts?, certificatePath: String, inspection: Bool?) {
        self.status = status
        self.facts = facts
        self.certificatePath = certificatePath
        self.inspection = inspection
    }

    package var statusWord: String {
        switch status.authority {
        case .notGenerated: "notCreated"
        case .generated: "created"
        case .unknown: "unreadable"
        }
    }

    /// The sentence of what stands in the way, if anything does.
    package var problem: String? {
        if case let .unavailable(reason) = CertificateSetupPolicy.stage(for: status, tradeOffAcknowledged: true) { return reason }
        return nil
    }

    package var json: String { json(lines: nil) }

    /// The report, and what the action that led to it did (`lines`), as the web API answers an action.
    package func json(lines: [String]?) -> String {
        var out = JSONWriter()
        out.beginObject()
        out.string("status", statusWord)
        if let problem { out.string("problem", problem) }
        if let facts {
            out.string("subject", facts.subject)
            out.string("fingerprintSHA256", facts.fingerprintSHA256)
            out.string("notBefore", facts.notBefore.formatted(.iso8601))
            out.string("notAfter", facts.notAfter.formatted(.iso8601))
        }
        if facts != nil || status.authority != .notGenerated { out.string("certificate", certificatePath) }
        if let inspection { out.bool("inspection", inspection) }
        out.bool("canCreate", CertificateStatusPolicy.canGenerate(status))
        out.bool("canRemake", CertificateSetupPolicy.canRegenerate(status))
        out.bool("canRemove", CertificateSetupPolicy.canRemove(status))
        CertificateSetupCard(self).write(into: &out)
        if let lines { out.strings("lines", lines) }
        out.endObject()
        return out.writer.string
    }

    /// The terminal's lines.
    package var lines: [String] {
        var lines: [String]
        switch status.authority {
        case .notGenerated:
            lines = ["no local CA yet", "'tunnelvision ca create' makes one: a root certificate and its key, kept in this data directory only. "
                     + "Nothing on this machine is asked to trust it; 'tunnelvision run --inspect -- CMD' gives CMD alone the trust."]
        case .generated:
            lines = ["local CA     created"]
        case let .unknown(reason):
            lines = ["local CA     cannot be read", reason]
        }
        if let facts {
            lines += ["subject      \(facts.subject)", "fingerprint  SHA-256 \(facts.fingerprintSHA256)",
                      "valid        \(facts.notBefore.formatted(.iso8601)) to \(facts.notAfter.formatted(.iso8601))",
                      "certificate  \(certificatePath)"]
        }
        if let problem, case .generated = status.authority { lines.append(problem) }
        lines.append("inspection   " + (inspection.map { $0 ? "on" : "off" } ?? "unknown (the settings file cannot be read)"))
        return lines
    }
}
