import Foundation
import Shared

extension PacketBytesPresentation {
    /// The headers and DNS reading of the drawn bytes; nil when none are drawn.
    package var reading: (headers: Result<PacketHeaders, PacketParseError>, dns: DNSAnswerPresentation?)? {
        guard let record else { return nil }
        let headers = PacketHeaders.read(record)
        let dns = (try? headers.get()).flatMap { DNSAnswerPresentation.read(record, headers: $0) }
        return (headers, dns)
    }

    /// What `tunnelvision flow ID --packet N` prints.
    package func text(flowID: Int64) -> String {
        let packet = row.packet
        var lines = ["Connection \(flowID), packet \(row.number): \(row.title.text)", ""]
        var facts: [(String, String)] = [
            ("Time in connection", "\(row.time) (\(UTCTimestamp.iso8601(packet.date)))"),
            ("Direction", FlowInspector.directionWord(packet.direction)),
            ("Size", "\(FlowInspector.grouped(Int(packet.length))) bytes"),
        ]
        if flowKey.proto == .tcp { facts.append(("Flags", row.flags.isEmpty ? "none" : row.flags)) }
        facts.append(("Capture", packet.capture.map { "file \($0.fileSequence), record at offset \($0.recordOffset)" } ?? "none"))
        lines += Self.labelled(facts)
        if let note { lines += ["", "  " + note] }
        if let reading, let record {
            lines.append("")
            switch reading.headers {
            case let .success(headers):
                lines.append("  Headers")
                let layerWidth = headers.fields.map(\.layer.count).max() ?? 0
                lines += Self.labelled(headers.fields.map {
                    ($0.layer.padding(toLength: layerWidth, withPad: " ", startingAt: 0) + "  " + $0.name, $0.value)
                }, indent: "    ")
            case let .failure(error):
                lines.append("  Headers: the bytes do not read as an IP datagram (\(error))")
            }
            if let dns = reading.dns {
                lines.append("")
                lines += Self.labelled(dns.lines.map { ($0.label, $0.value) })
            }
            lines.append("")
            lines.append("  Bytes (\(record.capturedLength) captured)")
            lines += Self.dump(record.bytes.prefix(Self.screenByteLimit)).map { "    " + $0 }
            if record.bytes.count > Self.screenByteLimit {
                lines.append("    showing the first \(FlowInspector.grouped(Self.screenByteLimit)) of "
                             + "\(FlowInspector.grouped(record.bytes.count)) bytes (--json carries them all)")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func labelled(_ rows: [(String, String)], indent: String = "  ") -> [String] {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { indent + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }
    }
}
