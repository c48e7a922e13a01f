/// Why the certificate authority could not do what was asked. Nothing was cached or counted.
package enum CertificateAuthorityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host (or an extra name) cannot be named in a certificate: the caller passes the flow
    /// through uninspected, or tells the person which name it refused.
    case invalidHost(String, String)
    /// OpenSSL could not make a key, sign or encode: the caller passes the flow through and
    /// reports it; trying again may work.
    case openSSL(X509Failure)
    /// A stored root certificate cannot be read as one (the reason).
    case rootUnreadable(String)
    /// A stored key is not the key of the stored root certificate.
    case keyDoesNotMatchRoot

    package var description: String {
        switch self {
        case let .invalidHost(host, reason): "cannot make a certificate for \"\(host.debugDescription.dropFirst().dropLast())\": \(reason)"
        case let .openSSL(failure): "\(failure)"
        case let .rootUnreadable(reason): "the root certificate cannot be read: \(reason)"
        case .keyDoesNotMatchRoot: "the root key is not the key of the root certificate beside it"
        }
    }
}
