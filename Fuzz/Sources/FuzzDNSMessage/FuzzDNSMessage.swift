import Fixtures
import Foundation
import FuzzSupport
import Shared

/// One input: a UDP payload from port 53. The parser answers a message or a typed error, never
/// traps; and then:
/// - the `Data` entry point, on a slice whose indices do not start at 0, answers the same;
/// - a message holds exactly the questions and answers its header counts, every name within
///   RFC 1035's limits (labels 1…63 bytes, 255 in wire form), and its presentation text reads
///   back as the same name;
/// - the message re-encoded (`DNSMessageFixture.encode`, compressed) parses back to itself, but
///   for RDATA the parser kept only as a length.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDNSMessage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let payload = input.rest
    let raw = Result { () throws(DNSParseError) in try DNSMessageParser.parse(payload) }
    let sliced = Result { () throws(DNSParseError) in try DNSMessageParser.parse(sliceAtOffset(payload)) }
    invariant(raw == sliced, "a Data slice parses as \(sliced), the raw bytes as \(raw)")
    guard case let .success(message) = raw else { return 0 }

    invariant(message.questions.count == Int(message.header.questionCount), "questions \(message.questions.count) ≠ QDCOUNT")
    invariant(message.answers.count == Int(message.header.answerCount), "answers \(message.answers.count) ≠ ANCOUNT")
    for name in message.questions.map(\.name) + message.answers.map(\.name) { checkName(name) }
    for record in message.answers {
        switch record.data {
        case let .cname(target): checkName(target)
        case let .a(address): invariant(record.recordClass == .internet && address.version == .v4, "A outside IN or not v4")
        case let .aaaa(address): invariant(record.recordClass == .internet && address.version == .v6, "AAAA outside IN or not v6")
        case let .opaque(byteCount): invariant(byteCount <= payload.count, "RDLENGTH \(byteCount) beyond the payload")
        }
    }

    let again = Result { () throws(DNSParseError) in try DNSMessageParser.parse(Data(DNSMessageFixture.encode(message))) }
    // The fixture compresses each name against the last one written, so names that each add a
    // label to the one before chain one pointer more each: past the parser's limit, legitimately.
    if case .failure(.tooManyPointers) = again { return 0 }
    guard case let .success(reparsed) = again else { fatalError("re-encoded message does not parse: \(again)") }
    invariant(reparsed.header.id == message.header.id && reparsed.header.flags == message.header.flags, "header changed")
    invariant(reparsed.questions == message.questions, "questions changed through re-encoding")
    invariant(reparsed.answers.count == message.answers.count, "answer count changed through re-encoding")
    for (before, after) in zip(message.answers, reparsed.answers) {
        invariant(before.name == after.name && before.type == after.type && before.recordClass == after.recordClass
                  && before.ttl == after.ttl, "answer \(before) became \(after)")
        // Opaque RDATA is re-encoded as zeros, which may read as a name or an address.
        if case .opaque = before.data { continue }
        invariant(before.data == after.data, "RDATA \(before.data) became \(after.data)")
    }
    return 0
}

private func checkName(_ name: DNSName) {
    invariant(name.wireLength <= DNSName.wireLimit, "name of \(name.wireLength) bytes")
    var labelsLength = 0
    for label in name.labels {
        invariant((1...DNSName.labelLimit).contains(label.count), "label of \(label.count) bytes")
        labelsLength += 1 + label.count
    }
    invariant(labelsLength == name.wire.count, "labels do not cover the wire form")
    invariant(DNSName(name.description) == name, "\"\(name)\" does not read back as itself")
}
