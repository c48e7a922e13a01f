import Shared

/// The JSON objects of offers, answers and certificate chains already written into one piece of
/// a JSON report, so that the thousands of conversations a capture's one client made with the same
/// offer (or its server with the same answer and chain) each reuse one object instead of writing
/// it again: the chain's object alone (names, dates, the sentence of who issued each) was a third
/// of the report's time. Bounded: a capture of all-different handshakes starts over rather than
/// keep every object.
struct HandshakeJSONMemo {
    /// Objects kept of each kind before the memo starts over.
    static let limit = 256

    private var offers = BoundedMemo<ClientTLSOffer, [UInt8]>(limit: limit)
    private var answers = BoundedMemo<ServerTLSAnswer, [UInt8]>(limit: limit)
    private var certificates = BoundedMemo<ServerCertificateVisibility, [UInt8]>(limit: limit)

    /// Each writes as the `AnalysisReport.write(_:to:)` of its kind does.
    mutating func write(_ offer: ClientTLSOffer, to out: inout JSONWriter) {
        out.element(json: offers.output(for: offer) { Self.object($0, AnalysisReport.write) })
    }

    mutating func write(_ answer: ServerTLSAnswer, to out: inout JSONWriter) {
        out.element(json: answers.output(for: answer) { Self.object($0, AnalysisReport.write) })
    }

    mutating func write(_ visibility: ServerCertificateVisibility, to out: inout JSONWriter) {
        out.element(json: certificates.output(for: visibility) { Self.object($0, AnalysisReport.write) })
    }

    private static func object<Handshake>(_ handshake: Handshake, _ write: (Handshake, inout JSONWriter) -> Void) -> [UInt8] {
        var writer = JSONWriter(capacity: 512)
        write(handshake, &writer)
        return Array(writer.writer.bytes)
    }
}
