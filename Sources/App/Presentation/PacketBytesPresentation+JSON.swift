import Foundation
import Shared

extension PacketBytesPresentation {
    /// One JSON object (`tunnelvision help flow` describes each field); "bytes" is the hex of the
    /// captured datagram, all of it.
    package func json(flowID: Int64) -> String {
        let packet = row.packet
        var out = JSONWriter()
        out.beginObject()
        out.number("flow", Int(flowID))
        out.number("number", row.number)
        out.string("title", row.title.text)
        out.number("seconds", row.offset, decimals: 3)
        out.string("at", UTCTimestamp.iso8601(packet.date))
        out.string("direction", FlowInspector.directionWord(packet.direction))
        out.size("length", UInt64(packet.length))
        out.strings("flags", TCPFlags.named.filter { packet.tcpFlags.contains($0.flag) }.map { "\($0.name)" })
        out.key("capture")
        if let capture = packet.capture {
            out.beginObject()
            out.number("file", Int(capture.fileSequence))
            out.number("offset", capture.recordOffset)
            out.endObject()
        } else {
            out.null()
        }
        if case let .notDrawn(absence) = content { out.string("reason", Self.name(absence)) } else { out.string("reason", nil) }
        out.string("note", note)
        out.bool("retry", offersRetry)
        if let record, let reading {
            out.number("capturedLength", Int(record.capturedLength))
            out.number("originalLength", Int(record.originalLength))
            out.bool("truncated", record.isTruncated)
            out.string("bytes", Self.hex(record.bytes))
            // What a screen draws, as the terminal draws it, and how much of it a screen leaves out.
            out.strings("dump", Self.dump(record.bytes.prefix(Self.screenByteLimit)))
            out.size("bytesNotDrawn", UInt64(max(0, record.bytes.count - Self.screenByteLimit)))
            switch reading.headers {
            case let .success(headers):
                out.beginArray("headers")
                for field in headers.fields {
                    out.beginObject()
                    out.string("layer", field.layer)
                    out.string("name", field.name)
                    out.string("value", field.value)
                    out.endObject()
                }
                out.endArray()
                out.string("headersError", nil)
            case let .failure(error):
                out.beginArray("headers")
                out.endArray()
                out.string("headersError", "\(error)")
            }
            out.key("dns")
            if let dns = reading.dns { Self.write(dns, to: &out) } else { out.null() }
        } else {
            out.string("bytes", nil)
            out.strings("dump", [])
            out.size("bytesNotDrawn", 0)
            out.beginArray("headers")
            out.endArray()
            out.key("dns")
            out.null()
        }
        out.endObject()
        return String(decoding: out.writer.bytes, as: UTF8.self)
    }

    static func write(_ dns: DNSAnswerPresentation, to out: inout JSONWriter) {
        out.beginObject()
        switch dns {
        case let .query(name, type):
            out.string("kind", "query")
            out.string("lookedUp", name)
            out.string("recordType", type)
        case let .response(name, type, answers):
            out.string("kind", "response")
            out.string("lookedUp", name)
            out.string("recordType", type)
            out.strings("addresses", answers.addresses)
            out.strings("names", answers.names)
            out.number("undecodedRecords", answers.undecoded)
            out.string("noAnswer", answers.none.map(DNSAnswerPresentation.name))
        case .keptTooLittle:
            out.string("kind", "unreadable")
            out.string("unreadable", "keptTooLittle")
        case let .notDNS(reason):
            out.string("kind", "unreadable")
            out.string("unreadable", "notDNS")
            out.string("reason", reason)
        }
        out.endObject()
    }

    /// Lowercase hex, two digits a byte, nothing between.
    package static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
