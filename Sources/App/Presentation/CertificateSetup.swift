/// Where the guided set-up of "Look inside secure traffic" stands (onboarding-and-consent, the CA
/// flow, in Linux terms), derived from the status on every turn — never a step counter. On Linux
/// "install and trust" is not a step: `run --inspect` gives the monitored command the trust, and
/// nothing else on the machine is asked to trust anything.
package enum CertificateSetupStage: Sendable, Equatable {
    /// Step 0: what inspection shows, what it costs, what stays private — before anything is made.
    case explainTradeOff
    /// Step 1: one action makes the CA.
    case generate
    /// A usable root: inspection can be turned on, `run --inspect` can be used.
    case ready
    /// Nothing can be offered but what the sentence says (an unreadable CA, an expired root).
    case unavailable(String)
}

package enum CertificateSetupPolicy {
    package static func stage(for status: CertificateStatus, tradeOffAcknowledged: Bool) -> CertificateSetupStage {
        switch status.authority {
        case .notGenerated:
            tradeOffAcknowledged ? .generate : .explainTradeOff
        case .generated(.usable):
            .ready
        case let .generated(.expired(notAfter)):
            .unavailable("The root certificate expired on \(notAfter.formatted(.iso8601)); remake it to inspect again.")
        case let .generated(.notYetValid(notBefore)):
            .unavailable("The root certificate is not valid before \(notBefore.formatted(.iso8601)); is this machine's clock right?")
        case let .unknown(reason):
            .unavailable(reason)
        }
    }

    /// Remake (remove, then create, with its own confirmation) is offered over a CA that was read —
    /// apart from Create, which is only for none.
    package static func canRegenerate(_ status: CertificateStatus) -> Bool {
        if case .generated = status.authority { return true }
        return false
    }

    /// Removal is offered whenever there may be a CA: over one that cannot be read it is the way
    /// out the error sentences name, and it makes nothing new.
    package static func canRemove(_ status: CertificateStatus) -> Bool {
        status.authority != .notGenerated
    }
}
