import Foundation

/// What is known of the local CA, as the inspection screens and `ca show` need it (app-services
/// "Certificate status", in Linux terms): there is none, there is one (and whether its root can
/// sign now), or it is not known — a key that cannot be read is not "no CA".
///
/// On Linux no trust store is ever written: `run --inspect` gives the monitored command the trust,
/// so what "trust" can say here is whether the root is within its validity.
package struct CertificateStatus: Sendable, Equatable {
    package enum Authority: Sendable, Equatable {
        /// Known absent: no `ca/` in the data directory, or neither of its files.
        case notGenerated
        case generated(RootValidity)
        /// The CA could not be read (the sentence says why and what to do).
        case unknown(String)
    }

    /// The root's validity against the clock.
    package enum RootValidity: Sendable, Equatable {
        /// Valid now: `run --inspect` can give it to a command.
        case usable
        case expired(notAfter: Date)
        case notYetValid(notBefore: Date)
    }

    package let authority: Authority

    package init(authority: Authority) {
        self.authority = authority
    }

    /// The status of a root valid from `notBefore` to `notAfter`, at `now`.
    package static func generated(notBefore: Date, notAfter: Date, now: Date) -> CertificateStatus {
        if now > notAfter { return CertificateStatus(authority: .generated(.expired(notAfter: notAfter))) }
        if now < notBefore { return CertificateStatus(authority: .generated(.notYetValid(notBefore: notBefore))) }
        return CertificateStatus(authority: .generated(.usable))
    }
}

/// The decisions over a `CertificateStatus`, each failing closed: doubt closes the door.
package enum CertificateStatusPolicy {
    /// Creating is offered only when it is known there is no CA: over one that cannot be read,
    /// a new key would replace a root that may be trusted somewhere.
    package static func canGenerate(_ status: CertificateStatus) -> Bool {
        status.authority == .notGenerated
    }

    /// Whether inspection can use the CA now: only a readable root within its validity.
    package static func canInspect(_ status: CertificateStatus) -> Bool {
        inspectionRefusal(status) == nil
    }

    /// Why TLS inspection cannot be turned on over `status`, with the command that fixes it, as
    /// a clause (no closing full stop: the caller ends the sentence); nil when it can.
    /// `settings set tls-inspection on`, the web app's switch and `canInspect` go by this one rule.
    package static func inspectionRefusal(_ status: CertificateStatus) -> String? {
        switch status.authority {
        case .generated(.usable):
            nil
        case .notGenerated:
            "there is no local CA to sign with; 'tunnelvision ca create' makes one"
        case let .generated(.expired(notAfter)):
            "the local CA's root certificate expired on \(notAfter.formatted(.iso8601)); "
                + "'tunnelvision ca create --remake' makes a new one"
        case let .generated(.notYetValid(notBefore)):
            "the local CA's root certificate is not valid before \(notBefore.formatted(.iso8601)): is this machine's clock "
                + "right? ('tunnelvision ca show' says what is known)"
        case let .unknown(reason):
            // The reader's reason is a sentence of its own, with its full stop.
            "the local CA cannot be read: " + (reason.hasSuffix(".") ? String(reason.dropLast()) : reason)
        }
    }
}
