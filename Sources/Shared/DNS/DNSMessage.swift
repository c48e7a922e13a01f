/// A parsed DNS message: its header, questions and answer section. The authority and additional
/// sections are not walked (nothing in them names what the device asked for), so their counts in
/// the header are all that is known of them.
public struct DNSMessage: Sendable, Hashable {
    public var header: DNSHeader
    public var questions: [DNSQuestion]
    public var answers: [DNSResourceRecord]

    public init(header: DNSHeader, questions: [DNSQuestion], answers: [DNSResourceRecord]) {
        self.header = header
        self.questions = questions
        self.answers = answers
    }
}
