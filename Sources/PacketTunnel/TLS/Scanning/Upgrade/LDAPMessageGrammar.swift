/// Either side of LDAP up to the StartTLS operation, read message by message (RFC 4511 §4.2,
/// §4.12, §4.14; BER as restricted by §5.1: definite lengths):
///
///   LDAPMessage ::= SEQUENCE { messageID INTEGER, protocolOp CHOICE {…}, controls [0] OPTIONAL }
///   client:  extendedReq  [APPLICATION 23] SEQUENCE { requestName [0] "1.3.6.1.4.1.1466.20037", … }
///            — 30 LL 02 LL id… 77 LL 80 16 "1.3.6.1.4.1.1466.20037"
///   server:  extendedResp [APPLICATION 24] SEQUENCE { resultCode ENUMERATED, … }, success (0)
///            — 30 LL 02 LL id… 78 LL 0A 01 00 …
///
/// Any other message (a bind, a search of the root DSE for its supportedExtension) is stepped
/// over whole; only a message's first `UpgradeLimits.keptMessageBytes` are kept. A server's
/// non-zero result, or its notice of disconnection (messageID 0), is no yes.
package struct LDAPMessageGrammar: Sendable {
    package enum Side: Sendable { case client, server }

    private static let startTLSName = Array("1.3.6.1.4.1.1466.20037".utf8)
    private static let sequence: UInt8 = 0x30, integer: UInt8 = 0x02, enumerated: UInt8 = 0x0A
    private static let extendedRequest: UInt8 = 0x77, extendedResponse: UInt8 = 0x78, requestName: UInt8 = 0x80

    private enum State: Sendable {
        case tag
        case length
        case longLength(left: Int, value: Int)
        case content(left: Int)
    }

    let side: Side
    private var state = State.tag
    private var kept: [UInt8] = []
    private var messages = 0

    package init(side: Side) { self.side = side }

    mutating func feed(_ byte: UInt8) -> UpgradeFollower.Step {
        switch state {
        case .tag:
            guard byte == Self.sequence else { return messages == 0 ? .notMine : .malformed }
            state = .length
        case .length:
            switch byte {
            case 0x01..<0x80: state = .content(left: Int(byte))
            case 0x81...0x83: state = .longLength(left: Int(byte & 0x7F), value: 0)
            default: return messages == 0 ? .notMine : .malformed
            }
        case .longLength(let left, let value):
            let length = value << 8 | Int(byte)
            guard left == 1 else {
                state = .longLength(left: left - 1, value: length)
                return .more
            }
            guard length > 0, length <= UpgradeLimits.maxPlaintextBytes else { return messages == 0 ? .notMine : .malformed }
            state = .content(left: length)
        case .content(let left):
            if kept.count < UpgradeLimits.keptMessageBytes { kept.append(byte) }
            // A message opens with its INTEGER messageID: a stream whose first does not is no LDAP.
            if kept.count == 1, byte != Self.integer { return messages == 0 ? .notMine : .malformed }
            guard left == 1 else {
                state = .content(left: left - 1)
                return .more
            }
            messages += 1
            state = .tag
            defer { kept.removeAll(keepingCapacity: true) }
            return switchesToTLS(kept) ? .marker(.ldap) : .more
        }
        return .more
    }

    /// The message (its content, as far as kept) is this side's StartTLS: the request, or its success.
    private func switchesToTLS(_ message: [UInt8]) -> Bool {
        guard let id = BERElement(in: message, at: 0), id.tag == Self.integer,
              let operation = BERElement(in: message, at: id.end) else { return false }
        let first = BERElement(in: message, at: operation.start)
        switch side {
        case .client:
            guard operation.tag == Self.extendedRequest, let name = first, name.tag == Self.requestName,
                  name.end <= message.count else { return false }
            return message[name.start..<name.end].elementsEqual(Self.startTLSName)
        case .server:
            let messageID = message[id.start..<min(id.end, message.count)]
            guard operation.tag == Self.extendedResponse, messageID.contains(where: { $0 != 0 }),
                  let result = first, result.tag == Self.enumerated, result.end <= message.count else { return false }
            return message[result.start..<result.end].allSatisfy { $0 == 0 }
        }
    }
}
