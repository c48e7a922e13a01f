import Shared

/// The words of offers and answers already written into one piece of a JSON report, so that the
/// thousands of conversations a capture's one client made with the same offer each reuse one
/// text instead of building it again. Bounded: a capture of all-different handshakes starts over
/// rather than keep every text.
struct HandshakeTextMemo {
    private var offers: [ClientTLSOffer: String] = [:]
    private var answers: [ServerTLSAnswer: String] = [:]

    /// Texts kept of each kind before the memo starts over.
    static let limit = 256

    mutating func text(_ offer: ClientTLSOffer) -> String {
        Self.text(of: offer, in: &offers, AnalysisReport.text)
    }

    mutating func text(_ answer: ServerTLSAnswer) -> String {
        Self.text(of: answer, in: &answers, AnalysisReport.text)
    }

    private static func text<Handshake: Hashable>(of handshake: Handshake, in known: inout [Handshake: String],
                                                  _ words: (Handshake) -> String) -> String {
        if let text = known[handshake] { return text }
        if known.count >= limit { known.removeAll(keepingCapacity: true) }
        let text = words(handshake)
        known[handshake] = text
        return text
    }
}
