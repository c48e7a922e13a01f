/// What reading one DNS message taught a `ResolvedNameMap`. Not recording anything always has a
/// reason, so a tunnel whose device sends only encrypted DNS shows up as counts, not silence.
package enum DNSNameIngestion: Sendable, Hashable {
    /// Pairs for this many distinct addresses were recorded or renewed.
    case recorded(addresses: Int)
    case ignored(Reason)

    /// Why a message named nothing. Checked in this order; the first that applies is reported.
    package enum Reason: String, Sendable, Hashable, CaseIterable {
        /// A query (QR = 0): it carries no answers.
        case notAResponse
        /// An opcode other than QUERY (NOTIFY, UPDATE, …).
        case unsupportedOpcode
        /// RCODE other than NOERROR (NXDOMAIN, SERVFAIL, REFUSED, …).
        case errorResponse
        /// Not exactly one question, or a question whose class is not IN.
        case unsupportedQuestion
        /// The name asked is not an exact domain pattern (root, `*`, or needs escaping).
        case unusableName
        /// No A or AAAA record reachable from the name asked through the reply's CNAMEs.
        case noAddresses
    }
}
