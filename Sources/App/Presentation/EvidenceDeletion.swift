import Shared

/// What the storage and captures doors say of audit evidence (audit.md § Retention): kept from
/// every limit until its session is deleted — for the commands and the web app alike.
public enum EvidenceDeletion {
    // MARK: Kept by the limits

    /// "3 captures (192.0 MiB) hold audit evidence; delete their audit session to release them".
    public static func keptClause(_ evidence: KeptEvidence) -> String {
        let words = Words(evidence)
        return "\(words.captures) \(words.hold) audit evidence; delete \(words.their) audit session to release \(words.them)"
    }

    /// "3 captures (192.0 MiB) hold audit evidence: neither limit deletes them until their audit session is deleted".
    public static func keptByLimits(_ evidence: KeptEvidence) -> String {
        let words = Words(evidence)
        return "\(words.captures) \(words.hold) audit evidence: neither limit deletes \(words.them) until \(words.their) "
            + "audit session is deleted"
    }

    /// The words that agree with how many captures evidence keeps.
    private struct Words {
        let captures: String, hold: String, them: String, their: String

        init(_ evidence: KeptEvidence) {
            let one = evidence.files.count == 1
            captures = "\(one ? "1 capture" : "\(evidence.files.count) captures") (\(RunSummary.bytes(evidence.bytes)))"
            hold = one ? "holds" : "hold"
            them = one ? "it" : "them"
            their = one ? "its" : "their"
        }
    }

    /// Said beside the limits (and with what applying them would do) when evidence holds the size limit out of reach.
    public static func sizeLimitHeld(_ evidence: KeptEvidence) -> String {
        "the size limit cannot be met: \(keptClause(evidence))"
    }

    /// Said after a pass that could not meet the size limit because of evidence.
    public static func sizeLimitStillHeld(_ evidence: KeptEvidence) -> String {
        "the size limit is still exceeded: \(keptClause(evidence))"
    }
}
