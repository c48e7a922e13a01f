import Shared

/// What the packet screen says of a DNS message on port 53 (screens.md, Packet detail): query or
/// response, what was looked up and for which record type, and the answers or why there are none
/// — *no such name* (NXDOMAIN) never conflated with *no records of that type* (NOERROR, none).
/// Read by `DNSMessageParser`; a message that does not read says whether the capture kept too
/// little of it or it is not DNS at all.
package enum DNSAnswerPresentation: Sendable, Equatable {
    case query(lookedUp: String?, recordType: String?)
    case response(lookedUp: String?, recordType: String?, answers: Answers)
    /// The capture cut the packet before the message ended (the snaplen; Settings can change it).
    case keptTooLittle
    /// A whole datagram on port 53 that is not a DNS message (the parser's reason).
    case notDNS(String)

    package struct Answers: Sendable, Equatable {
        package let addresses: [String]
        /// CNAME targets, in answer order.
        package let names: [String]
        /// Records of types not decoded (MX, TXT, …): counted, not shown.
        package let undecoded: Int
        /// Why there is no answer, when there is none (or the code says the name does not exist).
        package let none: NoAnswer?
    }

    package enum NoAnswer: Sendable, Equatable {
        /// NXDOMAIN: the name does not exist.
        case noSuchName
        /// NOERROR and no answer: the name exists, without records of the type asked for.
        case noRecordsOfThatType
        /// Another response code (SERVFAIL, REFUSED…): the server did not answer the question.
        case failed(String)

        /// Why `reply` has no answer; nil when it answered.
        package init?(_ reply: DNSReply) {
            switch reply.outcome {
            case .answered: return nil
            case .noSuchName: self = .noSuchName
            case .noRecordsOfThatType: self = .noRecordsOfThatType
            case .failed: self = .failed("\(DNSResponseCode(rawValue: reply.responseCode))")
            }
        }
    }

    /// The DNS reading of `headers`' UDP payload, nil when the packet is not UDP on port 53.
    package static func read(_ record: CaptureRecord, headers: PacketHeaders) -> DNSAnswerPresentation? {
        guard let udp = headers.parsed.udp,
              udp.sourcePort == WellKnownPort.dns || udp.destinationPort == WellKnownPort.dns else { return nil }
        let range = udp.payloadRange
        let payload = record.bytes[max(0, range.lowerBound)..<min(record.bytes.count, range.upperBound)]
        let whole = !record.isTruncated && Int(udp.length) - 8 <= payload.count
        let parsed = payload.withUnsafeBytes { raw in
            Result { () throws(DNSParseError) in try DNSMessageParser.parse(raw) }
        }
        switch parsed {
        case let .failure(error): return whole ? .notDNS(error.description) : .keptTooLittle
        case let .success(message): return presentation(of: message)
        }
    }

    package static func presentation(of message: DNSMessage) -> DNSAnswerPresentation {
        let question = message.questions.first
        let lookedUp = question.map { "\($0.name)" }
        let type = question.map { "\($0.type)" }
        guard message.header.isResponse else { return .query(lookedUp: lookedUp, recordType: type) }
        var addresses: [String] = []
        var names: [String] = []
        var undecoded = 0
        for answer in message.answers {
            switch answer.data {
            case let .a(address), let .aaaa(address): addresses.append("\(address)")
            case let .cname(target): names.append("\(target)")
            case .opaque: undecoded += 1
            }
        }
        let none = NoAnswer(DNSReply(message))
        return .response(lookedUp: lookedUp, recordType: type,
                         answers: Answers(addresses: addresses, names: names, undecoded: undecoded, none: none))
    }

    /// The lines the screen shows, label and value.
    package var lines: [(label: String, value: String)] {
        switch self {
        case let .query(name, type):
            return [("DNS", "query"), ("Looked up", (name ?? "(no question)") + (type.map { "  record type \($0)" } ?? ""))]
        case let .response(name, type, answers):
            var lines: [(String, String)] = [("DNS", "response"),
                                             ("Looked up", (name ?? "(no question)") + (type.map { "  record type \($0)" } ?? ""))]
            if !answers.addresses.isEmpty { lines.append(("Addresses", answers.addresses.joined(separator: ", "))) }
            if !answers.names.isEmpty { lines.append(("Names", answers.names.joined(separator: ", "))) }
            if answers.undecoded > 0 { lines.append(("Other records", "\(answers.undecoded) not decoded")) }
            if let none = answers.none { lines.append(("No answer", Self.text(none))) }
            return lines
        case .keptTooLittle:
            return [("DNS", "unreadable: the capture kept too little of this message (full capture detail keeps it whole)")]
        case let .notDNS(reason):
            return [("DNS", "unreadable: not a DNS message (\(reason))")]
        }
    }

    package static func text(_ none: NoAnswer) -> String {
        switch none {
        case .noSuchName: "no such name (NXDOMAIN)"
        case .noRecordsOfThatType: "no records of that type (the name exists)"
        case let .failed(code): "the server did not answer (\(code))"
        }
    }

    /// The stable identifier of a reason in JSON.
    package static func name(_ none: NoAnswer) -> String {
        switch none {
        case .noSuchName: "noSuchName"
        case .noRecordsOfThatType: "noRecordsOfThatType"
        case .failed: "failed"
        }
    }
}
