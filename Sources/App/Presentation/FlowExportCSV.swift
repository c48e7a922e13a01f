import Foundation
import Shared

/// The connections as CSV (RFC 4180): a header line, then a line per connection with the JSON
/// export's facts under the same names, times in UTC (ISO 8601), fields quoted when they hold a
/// comma, a quote or a line break. Metadata only, as the JSON export.
package enum FlowExportCSV {
    package static let columns = ["id", "session", "protocol", "host", "nameSource", "localAddress", "localPort", "remoteAddress",
                                 "remotePort", "communityID", "firstSeen", "lastSeen", "durationSeconds", "bytesOut", "bytesIn", "packets",
                                 "tlsStatus", "inspectionReason", "program"]
    /// The first line, CRLF-ended (§2).
    package static let header = columns.joined(separator: ",") + "\r\n"

    /// One connection's line.
    package static func line(_ flow: HistoryFlow) -> String {
        let stored = flow.stored
        // Both ends as stored when this machine's side cannot be told: "local" is then the first.
        let local = flow.endpoints?.local ?? stored.key.endpointA, remote = flow.endpoints?.remote ?? stored.key.endpointB
        let program: String? = if case .program(let facts)? = stored.program { facts.command } else { nil }
        let fields: [String] = [
            "\(stored.id)", "\(stored.session)", HistoryFlowWording.protocolIdentifier(stored.key.proto), flow.displayHost ?? "",
            flow.nameSource?.rawValue ?? "", "\(local.address)", "\(local.port)", "\(remote.address)", "\(remote.port)",
            HistoryFlowWording.communityID(stored.key) ?? "",
            UTCTimestamp.iso8601(stored.firstSeen), UTCTimestamp.iso8601(stored.lastSeen), String(format: "%.6f", stored.duration),
            "\(stored.bytesOut)", "\(stored.bytesIn)", "\(stored.packetCount)", HistoryFlowWording.statusIdentifier(stored.tlsStatus),
            stored.inspectionReason.map { InspectionReasonWording.identifier($0.kind) } ?? "", program ?? "",
        ]
        return fields.map(quoted).joined(separator: ",") + "\r\n"
    }

    /// §2.6–2.7: a field with a comma, a quote or a line break is quoted, its quotes doubled.
    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
