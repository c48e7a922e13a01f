/// What naming flows from the DNS answers that crossed the tunnel did, and why a reply taught
/// nothing. The reasons are a small closed set on purpose: each one is a different thing to tell
/// the person ("the network gave no answers" is not "we stopped reading").
public struct DNSNameStats: Codable, Sendable, Equatable {
    /// DNS responses whose answers were read.
    public var repliesRecorded: UInt64
    /// Address-to-name pairs learned from A and AAAA answers.
    public var addressesLearned: UInt64
    /// Datagrams on the DNS port that did not parse as a DNS message.
    public var unreadableDatagrams: UInt64
    /// Flows that took their name from a DNS answer.
    public var flowsNamed: UInt64
    /// Messages that were queries, not responses: nothing in them names an address.
    public var notAResponse: UInt64
    /// Responses flagged truncated (TC): the full answer went over TCP, where it is not read.
    public var truncatedMessage: UInt64
    /// Responses without a single A or AAAA record (NXDOMAIN, NODATA, other types only).
    public var noAnswers: UInt64
    /// Responses with more address records than the per-reply cap; those past it were skipped.
    public var answerLimitReached: UInt64

    public init(repliesRecorded: UInt64 = 0, addressesLearned: UInt64 = 0, unreadableDatagrams: UInt64 = 0,
                flowsNamed: UInt64 = 0, notAResponse: UInt64 = 0, truncatedMessage: UInt64 = 0,
                noAnswers: UInt64 = 0, answerLimitReached: UInt64 = 0) {
        self.repliesRecorded = repliesRecorded
        self.addressesLearned = addressesLearned
        self.unreadableDatagrams = unreadableDatagrams
        self.flowsNamed = flowsNamed
        self.notAResponse = notAResponse
        self.truncatedMessage = truncatedMessage
        self.noAnswers = noAnswers
        self.answerLimitReached = answerLimitReached
    }

    /// Nothing seen yet.
    public static let zero = DNSNameStats()
}
