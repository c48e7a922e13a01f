import Foundation
import FuzzSupport
import PacketTunnel
import Shared

/// One input: a chunking byte (`Chunking`), then turns of a conversation, each a side byte (even:
/// the client, odd: the server), a length byte and that many bytes (the last turn takes what is
/// left). The flow's scanners are fed the turns in order, each whole and each cut in chunks, and:
/// - they learn the same facts either way (the switch, where each hello starts, the hellos);
/// - the opening is said at most twice, and a second time only to raise `unrecognised` to an
///   upgrade;
/// - every follower grammar alone, fed the client's or the server's bytes, answers the same whole
///   and chunked, never switches past the bytes it was given, and settles once past its budget.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlaintextUpgrade(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let chunking = Chunking(selector: input.byte())
    var turns: [(client: Bool, bytes: [UInt8])] = []
    var rest = Array(input.rest)
    while rest.count >= 2 {
        let count = min(Int(rest[1]), rest.count - 2)
        turns.append((rest[0] % 2 == 0, Array(rest[2..<(2 + count)])))
        rest.removeFirst(2 + count)
    }

    var whole = TCPFlowScanners()
    var chunked = TCPFlowScanners()
    var expected: [FlowFact] = []
    var facts: [FlowFact] = []
    for turn in turns {
        turn.bytes.withUnsafeBytes { bytes in
            expected += turn.client ? whole.client(bytes) : whole.server(bytes)
            for range in chunking.ranges(count: bytes.count) {
                let chunk = UnsafeRawBufferPointer(rebasing: bytes[range])
                facts += turn.client ? chunked.client(chunk) : chunked.server(chunk)
            }
        }
    }
    let described = { (facts: [FlowFact]) in facts.map { String(describing: $0) }.sorted() }
    invariant(described(facts) == described(expected), "chunked \(chunking.selector): \(facts); whole: \(expected)")
    invariant(whole.upgradeAbandoned == chunked.upgradeAbandoned, "abandoned whole \(whole.upgradeAbandoned)")

    let openings = facts.compactMap { fact -> StreamOpening? in if case .streamOpening(let opening) = fact { opening } else { nil } }
    invariant(openings.count <= 2, "\(openings.count) openings")
    if openings.count == 2 { invariant(openings[0] == .unrecognised && openings[1].upgradesToTLS, "openings \(openings)") }

    let client = turns.filter(\.client).flatMap(\.bytes)
    let server = turns.filter { !$0.client }.flatMap(\.bytes)
    let grammars: [(UpgradeGrammar, [UInt8])] = [
        (.textCommands(TextCommandGrammar()), client), (.textReplies(TextReplyGrammar()), server),
        (.xmpp(XMPPTagGrammar(side: .client)), client), (.xmpp(XMPPTagGrammar(side: .server)), server),
        (.ldap(LDAPMessageGrammar(side: .client)), client), (.ldap(LDAPMessageGrammar(side: .server)), server),
        (.postgresRequest(PostgresRequestGrammar()), client), (.postgresAnswer(PostgresAnswerGrammar()), server),
    ]
    for (grammar, bytes) in grammars {
        var one = UpgradeFollower(grammar)
        let answer = bytes.withUnsafeBytes { one.scan($0) }
        var cut = UpgradeFollower(grammar)
        var last = UpgradeFollower.Outcome.needMoreBytes
        bytes.withUnsafeBytes { bytes in
            for range in chunking.ranges(count: bytes.count) { last = cut.scan(UnsafeRawBufferPointer(rebasing: bytes[range])) }
        }
        invariant(last == answer || bytes.isEmpty, "\(grammar): chunked \(last), whole \(answer)")
        if case .found(let switched) = answer { invariant(switched.end < bytes.count, "a switch at \(switched.end) of \(bytes.count)") }
        if bytes.count > 8193 { invariant(answer != .needMoreBytes, "unsettled after \(bytes.count) bytes") }
    }
    return 0
}
