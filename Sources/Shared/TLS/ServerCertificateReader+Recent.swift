extension ServerCertificateReader {
    /// `certificate(fromDER:maxNameLength:)`, read once per distinct certificate met lately
    /// (`RecentResults`): a server presents the same chain on every connection.
    package static func recentCertificate(fromDER der: ArraySlice<UInt8>, maxNameLength: Int) -> ServerCertificate? {
        recent.output(for: CertificateBytes(der: Array(der), maxNameLength: maxNameLength)) {
            certificate(fromDER: $0.der[...], maxNameLength: $0.maxNameLength)
        }
    }

    /// A certificate's bytes with the reading's one setting: its own copy, so that what is kept
    /// never holds on to the message it came in.
    struct CertificateBytes: Hashable, Sendable {
        let der: [UInt8]
        let maxNameLength: Int

        /// The bytes in one call: an array hashes element by element otherwise, several times slower.
        func hash(into hasher: inout Hasher) {
            hasher.combine(maxNameLength)
            der.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// 64 certificates of up to a few kilobytes each.
    static let recent = RecentResults<CertificateBytes, ServerCertificate?>(limit: 64)
}
