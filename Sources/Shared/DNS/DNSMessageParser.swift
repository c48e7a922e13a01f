import Foundation

/// A UDP payload from port 53 → `DNSMessage`: header, questions, answer section.
///
/// Grammar read (RFC 1035 §4.1; offsets from the start of the message, which compression
/// pointers count from):
///   message:   header (12) · question × QDCOUNT · answer RR × ANCOUNT · (authority, additional:
///              not walked)
///   question:  name · type (2) · class (2)                                   (§4.1.2)
///   RR:        name · type (2) · class (2) · TTL (4) · rdlength (2) · rdata  (§4.1.3)
///   name:      label* (0x00 | pointer)      label: 00LLLLLL · L bytes        (§3.1)
///              pointer: 11PPPPPP PPPPPPPP — offset of where the name goes on (§4.1.4)
///
/// Stateless and bounded: every read is checked against the payload, a pointer must land strictly
/// before the previous jump (so no loop can be built), at most `pointerLimit` jumps per name, names
/// at most 255 bytes. Arrays are reserved from what the bytes can hold, never from a header count.
package enum DNSMessageParser {
    /// Compression jumps followed in one name before it is refused. Honest encoders need one.
    static let pointerLimit = 32
    /// Smallest question: root name (1) · type · class.
    static let minimumQuestionLength = 5
    /// Smallest record: root name (1) · type · class · TTL · rdlength.
    static let minimumRecordLength = 11

    /// Parses a payload; a slice may start at any index (pointers count from its first byte).
    package static func parse(_ payload: Data) throws(DNSParseError) -> DNSMessage {
        let result: Result<DNSMessage, DNSParseError> = payload.withUnsafeBytes { bytes in
            do throws(DNSParseError) {
                return .success(try parse(bytes))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses the bytes of one UDP payload, as the pipeline holds them.
    package static func parse(_ bytes: UnsafeRawBufferPointer) throws(DNSParseError) -> DNSMessage {
        guard let start = bytes.baseAddress, bytes.count >= DNSHeader.byteCount else { throw .truncated }
        let message = Reader(start: start, count: bytes.count)
        let header = DNSHeader(id: message.u16(0), flags: message.u16(2),
                               questionCount: message.u16(4), answerCount: message.u16(6),
                               authorityCount: message.u16(8), additionalCount: message.u16(10))
        var offset = DNSHeader.byteCount
        var seen = SeenNames()

        var questions: [DNSQuestion] = []
        questions.reserveCapacity(min(Int(header.questionCount), (message.count - offset) / minimumQuestionLength))
        for _ in 0..<header.questionCount {
            let (name, end) = try readName(message, at: offset, seen: &seen)
            guard end + 4 <= message.count else { throw .truncated }
            questions.append(DNSQuestion(name: name, type: DNSRecordType(rawValue: message.u16(end)),
                                         recordClass: DNSRecordClass(rawValue: message.u16(end + 2))))
            offset = end + 4
        }

        var answers: [DNSResourceRecord] = []
        answers.reserveCapacity(min(Int(header.answerCount), (message.count - offset) / minimumRecordLength))
        for _ in 0..<header.answerCount {
            let (name, end) = try readName(message, at: offset, seen: &seen)
            guard end + 10 <= message.count else { throw .truncated }
            let type = DNSRecordType(rawValue: message.u16(end))
            let recordClass = DNSRecordClass(rawValue: message.u16(end + 2))
            let dataStart = end + 10
            let dataEnd = dataStart + Int(message.u16(end + 8))
            guard dataEnd <= message.count else { throw .truncated }
            answers.append(DNSResourceRecord(
                name: name, type: type, recordClass: recordClass, ttl: message.u32(end + 4),
                data: readData(message, type: type, recordClass: recordClass, from: dataStart, to: dataEnd, seen: &seen)))
            offset = dataEnd
        }
        return DNSMessage(header: header, questions: questions, answers: answers)
    }

    struct Reader {
        let start: UnsafeRawPointer
        let count: Int

        @inline(__always) func u8(_ offset: Int) -> UInt8 { start.load(fromByteOffset: offset, as: UInt8.self) }
        @inline(__always) func u16(_ offset: Int) -> UInt16 {
            UInt16(bigEndian: start.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
        }
        @inline(__always) func u32(_ offset: Int) -> UInt32 {
            UInt32(bigEndian: start.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }
    }

    /// The RDATA of the types read; anything else, or a read type that does not fit its RDATA
    /// exactly, keeps only its length. A and AAAA mean addresses only in class IN (RFC 1035 §3.4.1);
    /// CNAME is class-independent (§3.3.1).
    static func readData(_ message: Reader, type: DNSRecordType, recordClass: DNSRecordClass,
                         from start: Int, to end: Int, seen: inout SeenNames) -> DNSRecordData {
        let length = end - start
        switch type {
        case .a where recordClass == .internet && length == 4:
            return .a(IPAddress.load(.v4, from: message.start + start))
        case .aaaa where recordClass == .internet && length == 16:
            return .aaaa(IPAddress.load(.v6, from: message.start + start))
        case .cname:
            let read = Result { () throws(DNSParseError) in try readName(message, at: start, seen: &seen) }
            // The record's own framing is sound (rdlength fits), so a bad name inside it spoils only
            // this record, not the message.
            if case let .success((name, nameEnd)) = read, nameEnd == end { return .cname(name) }
            return .opaque(byteCount: length)
        default:
            return .opaque(byteCount: length)
        }
    }

    /// Two names already read and where they began: the first question's, which most answers
    /// point to, and the latest, which the next record of a CNAME chain points to. A name that is
    /// only a pointer to one of them shares its storage instead of allocating again.
    struct SeenNames {
        var first: (offset: Int, name: DNSName)?
        var latest: (offset: Int, name: DNSName)?

        func name(at offset: Int) -> DNSName? {
            if let first, first.offset == offset { return first.name }
            if let latest, latest.offset == offset { return latest.name }
            return nil
        }

        mutating func add(_ name: DNSName, at offset: Int) {
            if first == nil { first = (offset, name) } else { latest = (offset, name) }
        }
    }

    /// Reads the name at `offset`, following pointers; returns it and the offset just past it where
    /// it was written (past its first pointer, if any).
    static func readName(_ message: Reader, at offset: Int, seen: inout SeenNames) throws(DNSParseError) -> (DNSName, end: Int) {
        // A lone pointer to a name read before (which began before `offset`: backward, and known
        // to be well formed).
        if offset + 2 <= message.count, message.u8(offset) & 0xC0 == 0xC0,
           let name = seen.name(at: Int(message.u16(offset) & 0x3FFF)) {
            return (name, offset + 2)
        }
        let (name, end, jumps) = try readName(message, at: offset)
        // Reached through it, the name takes one jump more: kept only while that stays in bounds.
        if jumps < pointerLimit { seen.add(name, at: offset) }
        return (name, end)
    }

    /// Reads the name at `offset`, following pointers; also returns how many jumps it took.
    static func readName(_ message: Reader, at offset: Int) throws(DNSParseError) -> (DNSName, end: Int, jumps: Int) {
        var wire: [UInt8] = []
        var position = offset
        // A pointer must land strictly below this: the start of the run of labels it continues.
        var floor = offset
        var end = -1
        var jumps = 0
        while true {
            guard position < message.count else { throw .truncated }
            let byte = message.u8(position)
            switch byte & 0xC0 {
            case 0x00:
                if byte == 0 {
                    return (DNSName(uncheckedWire: wire), end < 0 ? position + 1 : end, jumps)
                }
                let length = Int(byte)
                // + 1 for the root byte still to come.
                guard wire.count + 1 + length + 1 <= DNSName.wireLimit else { throw .nameTooLong }
                guard position + 1 + length <= message.count else { throw .truncated }
                if wire.isEmpty { wire.reserveCapacity(64) }
                wire.append(contentsOf: UnsafeRawBufferPointer(start: message.start + position, count: 1 + length))
                position += 1 + length
            case 0xC0:
                guard position + 2 <= message.count else { throw .truncated }
                let target = Int(message.u16(position) & 0x3FFF)
                guard target < floor else { throw .pointerNotBackward }
                jumps += 1
                guard jumps <= pointerLimit else { throw .tooManyPointers }
                if end < 0 { end = position + 2 }
                floor = target
                position = target
            default:
                throw .reservedLabelType(byte)
            }
        }
    }
}
