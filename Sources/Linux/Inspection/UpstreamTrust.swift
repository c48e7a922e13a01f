import Foundation

/// What the upstream leg trusts when it verifies the real server.
package enum UpstreamTrust: Sendable, Equatable {
    /// The system's trust store (`SSL_CTX_set_default_verify_paths`): the product's default, so
    /// the tunnel never vouches for a server the system would not trust.
    case system
    /// `--upstream-ca FILE`, for a lab whose servers carry a lab CA's leaves: this PEM file
    /// *instead of* the system store, not beside it.
    case file(URL)
}
