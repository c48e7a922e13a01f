import Shared

/// Builds ordinary DNS messages for tests: `DNSMessage` values from short descriptions, and their
/// wire form as a server writes it — each name compressed against the longest suffix already
/// written (so an answer owned by the name asked is a pointer to the question, and a chain's next
/// owner a pointer into the previous CNAME). Never the oracle for the parser's hostile cases,
/// which are written out byte by byte in the tests.
package enum DNSMessageFixture {
    /// A name from presentation text; the text is the test's own, so a bad one is a bug in it.
    package static func name(_ text: String) -> DNSName {
        guard let name = DNSName(text) else { preconditionFailure("not a DNS name: \(text)") }
        return name
    }

    /// A response to one IN question (RD and RA set), with `answers` in the answer section.
    package static func reply(id: UInt16 = 0x2026, to asked: String, type: DNSRecordType = .a,
                             responseCode: DNSResponseCode = .noError, answers: [DNSResourceRecord]) -> DNSMessage {
        DNSMessage(header: DNSHeader(id: id, isResponse: true, responseCode: responseCode, questionCount: 1,
                                     answerCount: UInt16(answers.count)),
                   questions: [DNSQuestion(name: name(asked), type: type)], answers: answers)
    }

    /// A query for one IN question, RD set.
    package static func query(id: UInt16 = 0x2026, for asked: String, type: DNSRecordType = .a) -> DNSMessage {
        DNSMessage(header: DNSHeader(id: id, isResponse: false, recursionAvailable: false, questionCount: 1, answerCount: 0),
                   questions: [DNSQuestion(name: name(asked), type: type)], answers: [])
    }

    package static func a(_ owner: String, _ address: String, ttl: UInt32 = 300) -> DNSResourceRecord {
        guard let parsed = IPAddress(parsing: address), parsed.version == .v4 else { preconditionFailure("not IPv4: \(address)") }
        return DNSResourceRecord(name: name(owner), type: .a, ttl: ttl, data: .a(parsed))
    }

    package static func aaaa(_ owner: String, _ address: String, ttl: UInt32 = 300) -> DNSResourceRecord {
        guard let parsed = IPAddress(parsing: address), parsed.version == .v6 else { preconditionFailure("not IPv6: \(address)") }
        return DNSResourceRecord(name: name(owner), type: .aaaa, ttl: ttl, data: .aaaa(parsed))
    }

    package static func cname(_ owner: String, _ target: String, ttl: UInt32 = 300) -> DNSResourceRecord {
        DNSResourceRecord(name: name(owner), type: .cname, ttl: ttl, data: .cname(name(target)))
    }

    /// The wire form of `message`: its id and flags, its questions and answers (the counts are the
    /// sections' own; no authority or additional records). An opaque record is written as
    /// `byteCount` zero bytes, so it parses back to itself when its type is one not decoded.
    package static func encode(_ message: DNSMessage) -> [UInt8] {
        var writer = Writer()
        writer.u16(message.header.id)
        writer.u16(message.header.flags)
        writer.u16(UInt16(message.questions.count))
        writer.u16(UInt16(message.answers.count))
        writer.u16(0)
        writer.u16(0)
        for question in message.questions {
            writer.name(question.name)
            writer.u16(question.type.rawValue)
            writer.u16(question.recordClass.rawValue)
        }
        for record in message.answers {
            writer.name(record.name)
            writer.u16(record.type.rawValue)
            writer.u16(record.recordClass.rawValue)
            writer.u32(record.ttl)
            writer.lengthPrefixed { data in
                switch record.data {
                case let .a(address), let .aaaa(address): data.bytes += address.bytes
                case let .cname(target): data.name(target)
                case let .opaque(byteCount): data.bytes += repeatElement(0, count: byteCount)
                }
            }
        }
        return writer.bytes
    }

    /// Append-only message writer; remembers where each name suffix was written for compression.
    private struct Writer {
        var bytes: [UInt8] = []
        /// Wire form of a suffix (its labels, no root byte) → offset where it was written.
        var suffixes: [[UInt8]: Int] = [:]

        mutating func u16(_ value: UInt16) {
            bytes += [UInt8(value >> 8), UInt8(truncatingIfNeeded: value)]
        }

        mutating func u32(_ value: UInt32) {
            u16(UInt16(value >> 16))
            u16(UInt16(truncatingIfNeeded: value))
        }

        /// A 16-bit length, then what `body` appends, the length fixed up afterwards.
        mutating func lengthPrefixed(_ body: (inout Writer) -> Void) {
            let lengthAt = bytes.count
            u16(0)
            body(&self)
            let length = bytes.count - lengthAt - 2
            bytes[lengthAt] = UInt8(length >> 8)
            bytes[lengthAt + 1] = UInt8(truncatingIfNeeded: length)
        }

        /// The name's labels up to the longest suffix already written, then a pointer to it (RFC
        /// 1035 §4.1.4), or the whole name and the root byte.
        mutating func name(_ name: DNSName) {
            let wire = name.wire
            var labelStart = 0
            while labelStart < wire.count {
                if let offset = suffixes[Array(wire[labelStart...])] {
                    bytes += wire[..<labelStart]
                    u16(0xC000 | UInt16(offset))
                    return
                }
                // Pointers reach only the first 16 KiB of a message.
                if bytes.count + labelStart <= 0x3FFF {
                    suffixes[Array(wire[labelStart...])] = bytes.count + labelStart
                }
                labelStart += 1 + Int(wire[labelStart])
            }
            bytes += wire
            bytes.append(0)
        }
    }
}
