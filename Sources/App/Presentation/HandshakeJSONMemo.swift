import Shared

/// The JSON objects of offers, answers and certificate chains already written into one piece of
/// a JSON report, so that the thousands of conversations a capture's one client made with the same
/// offer (or its server with the same answer and chain) each reuse one object instead of writing
/// it again: the chain's object alone (names, dates, the sentence of who issued each) was a third
/// of the report's time. Bounded: a capture of all-different handshakes starts over rather than
/// keep every object.
struct HandshakeJSONMemo {
    private var offers: [ClientTLSOffer: [UInt8]] = [:]
    private var answers: [ServerTLSAnswer: [UInt8]] = [:]
    private var certificates: [ServerCertificateVisibility: [UInt8]] = [:]

    /// Objects kept of each kind before the memo starts over.
    static let limit = 256

    /// Each writes as the `AnalysisReport.write(_:to:)` of its kind does.
    mutating func write(_ offer: ClientTLSOffer, to out: inout JSONWriter) {
        out.element(json: Self.object(of: offer, in: &offers, AnalysisReport.write))
    }

    mutating func write(_ answer: ServerTLSAnswer, to out: inout JSONWriter) {
        out.element(json: Self.object(of: answer, in: &answers, AnalysisReport.write))
    }

    mutating func write(_ visibility: ServerCertificateVisibility, to out: inout JSONWriter) {
        out.element(json: Self.object(of: visibility, in: &certificates, AnalysisReport.write))
    }

    private static func object<Handshake: Hashable>(of handshake: Handshake, in known: inout [Handshake: [UInt8]],
                                                    _ write: (Handshake, inout JSONWriter) -> Void) -> [UInt8] {
        if let object = known[handshake] { return object }
        if known.count >= limit { known.removeAll(keepingCapacity: true) }
        var writer = JSONWriter(capacity: 512)
        write(handshake, &writer)
        let object = Array(writer.writer.bytes)
        known[handshake] = object
        return object
    }
}
