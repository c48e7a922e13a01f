import Shared

/// What a DNS flow asked and how it was answered, and whether a flow carries encrypted DNS, as
/// every document that shows a flow says it (flows, flow, export, analyze, the Inspector).
package enum DNSExchangeWording {
    /// `"dns": {"question", "type", "reply": {"code", "codeName", "outcome", "answerCount",
    /// "answers"} | null} | null` and `"encryptedDNS": "dot"|"doq"|"doh"|null`.
    static func write(_ exchange: DNSExchange?, encrypted: EncryptedDNS?, to out: inout JSONWriter) {
        if let exchange {
            out.beginObject("dns")
            out.string("question", exchange.question)
            out.string("type", "\(DNSRecordType(rawValue: exchange.questionType))")
            if let reply = exchange.reply {
                out.beginObject("reply")
                out.number("code", Int(reply.responseCode))
                out.string("codeName", "\(DNSResponseCode(rawValue: reply.responseCode))")
                out.string("outcome", reply.outcome.rawValue)
                out.number("answerCount", reply.answerCount)
                out.strings("answers", reply.answers)
                out.endObject()
            } else {
                out.key("reply")
                out.null()
            }
            out.endObject()
        } else {
            out.key("dns")
            out.null()
        }
        out.string("encryptedDNS", encrypted?.rawValue)
    }

    /// "www.example.test (A): 2 answers — edge.example.test, 198.19.0.2", "… (A): no such name
    /// (NXDOMAIN)", "… (AAAA): no reply seen".
    package static func text(_ exchange: DNSExchange) -> String {
        let asked = "\(exchange.question) (\(DNSRecordType(rawValue: exchange.questionType)))"
        guard let reply = exchange.reply else { return asked + ": no reply seen" }
        if let none = DNSAnswerPresentation.NoAnswer(reply) { return asked + ": " + DNSAnswerPresentation.text(none) }
        let count = reply.answerCount == 1 ? "1 answer" : "\(reply.answerCount) answers"
        return asked + ": " + count + (reply.answers.isEmpty ? "" : " — " + reply.answers.joined(separator: ", "))
    }

    /// The flow's encrypted DNS, by its key and announced name.
    package static func encryptedDNS(_ flow: StoredFlow) -> EncryptedDNS? {
        EncryptedDNS(key: flow.key, announcedName: flow.sni)
    }
}
