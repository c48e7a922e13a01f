/// What a DNS flow asked and how it was answered: the first question of the first query the
/// client sent on it, and the server's reply to that question. A DNS flow is named by what it
/// asked (`FlowName`), not by the resolver it asked.
package struct DNSExchange: Sendable, Hashable, Codable {
    /// The name asked for, normalised (lowercase, no trailing dot; `DNSName.normalizedDomain`).
    package var question: String
    /// The record type asked for (`DNSRecordType`'s raw value).
    package var questionType: UInt16
    /// The reply to that question; nil while none was seen.
    package var reply: DNSReply?

    package init(question: String, questionType: UInt16, reply: DNSReply? = nil) {
        self.question = question
        self.questionType = questionType
        self.reply = reply
    }

    /// The exchange `message` begins, when it is a query whose first question has a usable name.
    package init?(query message: DNSMessage) {
        guard !message.header.isResponse, let question = message.questions.first,
              let name = question.name.normalizedDomain else { return nil }
        self.init(question: name, questionType: question.type.rawValue)
    }
}

/// How a DNS server answered: its response code and what the answer section held.
package struct DNSReply: Sendable, Hashable, Codable {
    /// RCODE (RFC 1035 §4.1.1): 0 no error, 3 no such name (NXDOMAIN), …
    package var responseCode: UInt8
    /// Records in the answer section, of every type.
    package var answerCount: Int
    /// The addresses and CNAME targets answered, in answer order, at most `keptAnswers`.
    package var answers: [String]

    /// The most answers kept per flow: enough for any real reply's addresses.
    static let keptAnswers = 16

    package init(responseCode: UInt8, answerCount: Int, answers: [String]) {
        self.responseCode = responseCode
        self.answerCount = answerCount
        self.answers = answers
    }

    /// The reply `message` gives.
    package init(_ message: DNSMessage) {
        // A plain loop: every reply of a capture comes here, and a lazy chain cost more than the texts.
        var answers: [String] = []
        answers.reserveCapacity(min(message.answers.count, Self.keptAnswers))
        for record in message.answers where answers.count < Self.keptAnswers {
            switch record.data {
            case let .a(address), let .aaaa(address): answers.append(address.description)
            case let .cname(name): if let target = name.normalizedDomain { answers.append(target) }
            case .opaque: break
            }
        }
        self.init(responseCode: message.header.responseCode.rawValue, answerCount: Int(message.header.answerCount),
                  answers: answers)
    }

    /// How it went, in the words the packet screen uses (`DNSAnswerPresentation`).
    package var outcome: Outcome {
        switch responseCode {
        case DNSResponseCode.noError.rawValue: answerCount > 0 ? .answered : .noRecordsOfThatType
        case DNSResponseCode.nameError.rawValue: .noSuchName
        default: .failed
        }
    }

    /// What a reply amounts to; raw values are the stable identifiers the JSON outputs use.
    package enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// NOERROR with answers.
        case answered
        /// NOERROR and no answer: the name exists, without records of the type asked for.
        case noRecordsOfThatType
        /// NXDOMAIN: the name does not exist.
        case noSuchName
        /// Any other code: the server failed, refused, or did not understand.
        case failed
    }
}
