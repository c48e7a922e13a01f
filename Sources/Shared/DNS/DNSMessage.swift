/// A parsed DNS message: its header, questions and answer section. The authority and additional
/// sections are not walked (nothing in them names what the device asked for), so their counts in
/// the header are all that is known of them.
package struct DNSMessage: Sendable, Hashable {
    package var header: DNSHeader
    package var questions: [DNSQuestion]
    package var answers: [DNSResourceRecord]

    package init(header: DNSHeader, questions: [DNSQuestion], answers: [DNSResourceRecord]) {
        self.header = header
        self.questions = questions
        self.answers = answers
    }
}
