/// PostgreSQL's server answers to an SSLRequest (and a GSSENCRequest before it) with one byte:
/// 'S' (TLS follows) or 'N' (no); see `PostgresRequestGrammar`.
package struct PostgresAnswerGrammar: Sendable {
    private var answers = 0
    private var saidYes = false

    package init() {}

    mutating func feed(_ byte: UInt8) -> UpgradeFollower.Step {
        if saidYes { return .malformed }            // 'S', then no handshake
        answers += 1
        switch byte {
        case UInt8(ascii: "S"):
            saidYes = true
            return .marker(.postgres)
        case UInt8(ascii: "N") where answers == 1:
            return .more                            // no to a GSSENCRequest; the SSLRequest follows
        default:
            return answers == 1 && byte != UInt8(ascii: "N") && byte != UInt8(ascii: "E") ? .notMine : .refused
        }
    }
}
