/// What naming flows from the DNS answers that crossed the tunnel did, and why a reply taught
/// nothing: one counter per `DNSNameIngestion.Reason`, so each is a different thing to tell the
/// person ("the network answered with an error" is not "the question was of another kind"). All
/// zero while traffic flows means the machine's DNS is encrypted, or not asked through here.
package struct DNSNameStats: Codable, Sendable, Equatable {
    /// DNS responses whose addresses were recorded.
    package var repliesRecorded: UInt64
    /// Address-to-name pairs learned from A and AAAA answers.
    package var addressesLearned: UInt64
    /// Datagrams from the DNS port that did not parse as a DNS message.
    package var unreadableDatagrams: UInt64
    /// Flows that took their name from a DNS answer when they began.
    package var flowsNamed: UInt64
    /// Messages that were queries, not responses.
    package var notAResponse: UInt64
    /// Responses to an opcode other than a standard query.
    package var unsupportedOpcode: UInt64
    /// Responses carrying an error (NXDOMAIN, SERVFAIL, REFUSED…).
    package var errorResponse: UInt64
    /// Responses without exactly one question of class IN.
    package var unsupportedQuestion: UInt64
    /// Responses whose question name cannot name a flow (the root, an escaped or wildcard name).
    package var unusableName: UInt64
    /// Responses without an A or AAAA record reachable from the question.
    package var noAddresses: UInt64

    package init(repliesRecorded: UInt64 = 0, addressesLearned: UInt64 = 0, unreadableDatagrams: UInt64 = 0,
                flowsNamed: UInt64 = 0, notAResponse: UInt64 = 0, unsupportedOpcode: UInt64 = 0,
                errorResponse: UInt64 = 0, unsupportedQuestion: UInt64 = 0, unusableName: UInt64 = 0,
                noAddresses: UInt64 = 0) {
        self.repliesRecorded = repliesRecorded
        self.addressesLearned = addressesLearned
        self.unreadableDatagrams = unreadableDatagrams
        self.flowsNamed = flowsNamed
        self.notAResponse = notAResponse
        self.unsupportedOpcode = unsupportedOpcode
        self.errorResponse = errorResponse
        self.unsupportedQuestion = unsupportedQuestion
        self.unusableName = unusableName
        self.noAddresses = noAddresses
    }

    /// Counts what the name map made of one reply.
    package mutating func count(_ ingestion: DNSNameIngestion) {
        switch ingestion {
        case .recorded(let addresses):
            repliesRecorded &+= 1
            addressesLearned &+= UInt64(addresses)
        case .ignored(.notAResponse): notAResponse &+= 1
        case .ignored(.unsupportedOpcode): unsupportedOpcode &+= 1
        case .ignored(.errorResponse): errorResponse &+= 1
        case .ignored(.unsupportedQuestion): unsupportedQuestion &+= 1
        case .ignored(.unusableName): unusableName &+= 1
        case .ignored(.noAddresses): noAddresses &+= 1
        }
    }

    /// Nothing seen yet.
    package static let zero = DNSNameStats()
}
