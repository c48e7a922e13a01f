/// The one threshold the findings read, chosen by the requirement catalogue (its `tls` source),
/// never by the classifier: the oldest TLS version that is not a finding.
package struct FindingsPolicy: Sendable, Hashable {
    package let minimumTLSVersion: TLSProtocolVersion

    /// Nil unless `minimumTLSVersion` is published: only published versions have an order.
    package init?(minimumTLSVersion: TLSProtocolVersion) {
        guard minimumTLSVersion.isPublished else { return nil }
        self.minimumTLSVersion = minimumTLSVersion
    }
}
