/// Every way a UDP payload on the DNS port can fail to be a DNS message. Structural: the caller
/// counts the datagram as unreadable and lets it pass (nothing here can stop a packet). A record
/// the parser merely does not decode is not an error: it parses as `DNSRecordData.opaque`.
package enum DNSParseError: Error, Sendable, Hashable {
    /// A read would go past the end of the payload: shorter than the 12-byte header, a label or
    /// record running past the end, a lying rdlength, or a header promising more questions or
    /// answers than are present (a snaplen cut looks like this too).
    case truncated
    /// A compression pointer that does not point strictly before the previous jump (or, for the
    /// first jump, before the name it belongs to): a self-pointer, a forward pointer, a loop.
    case pointerNotBackward
    /// More than `DNSMessageParser.pointerLimit` compression jumps in one name.
    case tooManyPointers
    /// A name longer than 255 bytes in wire form, counting each length byte and the root
    /// (RFC 1035 §3.1).
    case nameTooLong
    /// A label whose top two bits are `01` or `10` (RFC 6891 §5 retired the extended label types);
    /// the associated value is the label byte as read.
    case reservedLabelType(UInt8)
}

extension DNSParseError: CustomStringConvertible {
    /// A short, stable identifier of the case (for counters, JSON and tests).
    package var kind: String {
        switch self {
        case .truncated: "truncated"
        case .pointerNotBackward: "pointerNotBackward"
        case .tooManyPointers: "tooManyPointers"
        case .nameTooLong: "nameTooLong"
        case .reservedLabelType: "reservedLabelType"
        }
    }

    package var description: String {
        switch self {
        case .truncated: "the message ends before what its header and lengths promise"
        case .pointerNotBackward: "a compression pointer does not point backwards"
        case .tooManyPointers: "a name follows more than \(DNSMessageParser.pointerLimit) compression pointers"
        case .nameTooLong: "a name is longer than \(DNSName.wireLimit) bytes"
        case let .reservedLabelType(byte): "label type 0x\(String(byte, radix: 16)) is reserved"
        }
    }
}
