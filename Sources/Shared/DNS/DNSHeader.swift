/// The fixed 12-byte header of a DNS message (RFC 1035 §4.1.1), every bit as it was sent.
///
///     0 id · 2 QR|Opcode(4)|AA|TC|RD · 3 RA|Z|AD|CD|RCODE(4) ·
///     4 QDCOUNT · 6 ANCOUNT · 8 NSCOUNT · 10 ARCOUNT
///
/// The flags are kept whole (the Z, AD and CD bits too, RFC 4035 §3.2) and read through getters.
package struct DNSHeader: Sendable, Hashable {
    package static let byteCount = 12

    package var id: UInt16
    /// Bytes 2–3: QR, opcode, AA, TC, RD, RA, Z, AD, CD, RCODE, high bit first.
    package var flags: UInt16
    package var questionCount: UInt16
    package var answerCount: UInt16
    var authorityCount: UInt16
    package var additionalCount: UInt16

    package init(id: UInt16, flags: UInt16, questionCount: UInt16, answerCount: UInt16,
                authorityCount: UInt16 = 0, additionalCount: UInt16 = 0) {
        self.id = id
        self.flags = flags
        self.questionCount = questionCount
        self.answerCount = answerCount
        self.authorityCount = authorityCount
        self.additionalCount = additionalCount
    }

    /// A header from its named bits (Z, AD and CD clear).
    package init(id: UInt16, isResponse: Bool, opcode: DNSOpcode = .query, isAuthoritative: Bool = false,
                isTruncated: Bool = false, recursionDesired: Bool = true, recursionAvailable: Bool = true,
                responseCode: DNSResponseCode = .noError, questionCount: UInt16, answerCount: UInt16,
                authorityCount: UInt16 = 0, additionalCount: UInt16 = 0) {
        var flags = UInt16(opcode.rawValue) << 11 | UInt16(responseCode.rawValue)
        if isResponse { flags |= 0x8000 }
        if isAuthoritative { flags |= 0x0400 }
        if isTruncated { flags |= 0x0200 }
        if recursionDesired { flags |= 0x0100 }
        if recursionAvailable { flags |= 0x0080 }
        self.init(id: id, flags: flags, questionCount: questionCount, answerCount: answerCount,
                  authorityCount: authorityCount, additionalCount: additionalCount)
    }

    /// QR: a response rather than a query.
    package var isResponse: Bool { flags & 0x8000 != 0 }
    package var opcode: DNSOpcode { DNSOpcode(rawValue: UInt8(truncatingIfNeeded: flags >> 11)) }
    /// AA: the answering server is an authority for the name asked.
    package var isAuthoritative: Bool { flags & 0x0400 != 0 }
    /// TC: the message was cut to fit the transport; the whole answer is only over TCP.
    package var isTruncated: Bool { flags & 0x0200 != 0 }
    /// RD: the query asked for recursion.
    package var recursionDesired: Bool { flags & 0x0100 != 0 }
    /// RA: the server offers recursion.
    package var recursionAvailable: Bool { flags & 0x0080 != 0 }
    package var responseCode: DNSResponseCode { DNSResponseCode(rawValue: UInt8(truncatingIfNeeded: flags)) }
}
