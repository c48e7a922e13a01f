import Shared

/// What the storage and captures doors say of audit evidence (audit.md § Retention): kept from
/// every limit until its session is deleted, and deleted by hand only once the person was told —
/// for the commands and the web app alike. The switch that agrees is spelled here once.
enum EvidenceDeletion {
    /// The switch by which a person agrees to delete evidence: the web API's query parameter, and
    /// after two dashes the commands' option (`option`).
    static let switchName = "including-evidence"
    static let option = "--" + switchName

    // MARK: Kept by the limits

    /// "3 captures (192.0 MiB) hold audit evidence; delete their audit session to release them".
    static func keptClause(_ evidence: KeptEvidence) -> String {
        let words = Words(evidence)
        return "\(words.captures) \(words.hold) audit evidence; delete \(words.their) audit session to release \(words.them)"
    }

    /// "3 captures (192.0 MiB) hold audit evidence: neither limit deletes them until their audit session is deleted".
    static func keptByLimits(_ evidence: KeptEvidence) -> String {
        let words = Words(evidence)
        return "\(words.captures) \(words.hold) audit evidence: neither limit deletes \(words.them) until \(words.their) "
            + "audit session is deleted"
    }

    /// The words that agree with how many captures evidence keeps.
    private struct Words {
        let captures: String, hold: String, them: String, their: String

        init(_ evidence: KeptEvidence) {
            let one = evidence.files.count == 1
            captures = "\(one ? "1 capture" : "\(evidence.files.count) captures") (\(ByteCountText.binary(evidence.bytes)))"
            hold = one ? "holds" : "hold"
            them = one ? "it" : "them"
            their = one ? "its" : "their"
        }
    }

    /// Said beside the limits (and with what applying them would do) when evidence holds the size limit out of reach.
    static func sizeLimitHeld(_ evidence: KeptEvidence) -> String {
        "the size limit cannot be met: \(keptClause(evidence))"
    }

    /// Said after a pass that could not meet the size limit because of evidence.
    static func sizeLimitStillHeld(_ evidence: KeptEvidence) -> String {
        "the size limit is still exceeded: \(keptClause(evidence))"
    }

    // MARK: Deleted by hand

    /// Why `captures rm` deleted nothing when some of the captures asked for hold evidence (or
    /// could not be checked), or nil when none does: `problem` names them and their sessions (what
    /// a screen asks about), `message` adds how the command agrees.
    static func captureRefusal(_ standings: [(sequence: UInt32, standing: CaptureEvidenceStanding)])
    -> (message: String, problem: String)? {
        let said = standings.compactMap { sequence, standing -> String? in
            switch standing {
            case .none: nil
            case .held(let holders): "capture \(sequence) holds evidence of \(holders.map(\.name).joined(separator: " and "))"
            case .unknown(let reason): "whether capture \(sequence) holds audit evidence cannot be read (\(reason))"
            }
        }
        guard !said.isEmpty else { return nil }
        let problem = said.joined(separator: "; ")
        return ("\(problem); nothing was deleted: \(option) deletes \(said.count == 1 ? "it" : "them") anyway "
                + "(the connections stay in the history and in their audit session; their packets' bytes in "
                + "\(said.count == 1 ? "that file" : "those files") are gone)", problem)
    }

    /// Why `storage clear` deleted nothing (`StorageError.clearingWouldDeleteEvidence` or
    /// `.clearingEvidenceUnknown`), with how the command agrees.
    static func clearRefusal(_ error: StorageError) -> String {
        let what = switch error {
        case .clearingWouldDeleteEvidence(let connections): connections == 1 ? "it" : "them"
        case .clearingEvidenceUnknown, .capturesUnavailable: "any there is"
        }
        return "\(error); \(option) with --yes deletes \(what) with everything else \(sessionsStay)"
    }

    /// What a screen asks about before clearing again: what `clearRefusal` says, without the command's switch.
    static func clearProblem(_ error: StorageError) -> String {
        switch error {
        case .clearingWouldDeleteEvidence(let connections):
            "Delete everything would delete \(connections == 1 ? "1 connection" : "\(connections) connections") of audit evidence "
                + sessionsStay
        case .clearingEvidenceUnknown(let reason):
            "whether Delete everything would delete audit evidence cannot be read (\(reason))"
        case .capturesUnavailable: error.description
        }
    }

    /// The question before a clear, with its audit evidence: "42 connections (5 of them audit evidence)".
    static func connections(_ count: Int, evidence: Int?) -> String {
        let all = count == 1 ? "1 connection" : "\(count) connections"
        guard let evidence else { return "\(all) (whether any is audit evidence cannot be read)" }
        guard evidence > 0 else { return all }
        return "\(all) (\(evidence == count ? (count == 1 ? "it" : "all of them") : "\(evidence) of them") audit evidence)"
    }

    private static let sessionsStay = "(the audit projects and sessions stay, without that evidence)"
}
