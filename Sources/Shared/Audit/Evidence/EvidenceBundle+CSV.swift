import Foundation

/// `flows.csv`: the columns of `flows.json` a spreadsheet user sorts and filters by, one row a
/// flow in the same order, written through `EvidenceFlowsCSV`. Values are spelt as in
/// `flows.json`; an empty cell is a reading not made. Lists sit in one cell, separated by `;`.
extension EvidenceBundle {
    package static let csvHeader = [
        "id", "protocol", "firstSeen", "lastSeen", "durationSeconds", "bytesOut", "bytesIn", "packetCount",
        "peerA", "peerB", "communityID", "name", "nameOrigin", "tlsStatus", "clientTLSVersions", "serverTLSVersion", "quicVersion",
        "findingIDs",
    ]

    package var flowsCSV: [UInt8] {
        do {
            return try EvidenceFlowsCSV.document(header: Self.csvHeader, rows: flows.map(row))
        } catch {
            // `row(_:)` fills every column of the header: a refusal is a bug in this file.
            preconditionFailure("flows.csv: \(error)")
        }
    }

    private func row(_ flow: StoredFlow) -> [String] {
        [
            "\(flow.id)",
            Self.protocolIdentifier(flow.key.proto),
            EvidenceJSON.instantText(nanoseconds: flow.firstSeenNanoseconds),
            EvidenceJSON.instantText(nanoseconds: flow.lastSeenNanoseconds),
            String(format: "%.6f", flow.duration),
            "\(flow.bytesOut)",
            "\(flow.bytesIn)",
            "\(flow.packetCount)",
            flow.key.endpointA.description,
            flow.key.endpointB.description,
            (try? CommunityID(flow: flow.key))?.description ?? "",
            flow.name?.text ?? "",
            flow.name?.origin.rawValue ?? "",
            flow.tlsStatus.identifier,
            flow.clientTLS.map { Self.versionsCell($0.versions) } ?? "",
            flow.serverTLS.map(Self.answerCell) ?? "",
            flow.quic.map { EvidenceJSON.hex(UInt64($0.version.rawValue), digits: 8) } ?? "",
            (findingIDs[flow.id] ?? []).joined(separator: ";"),
        ]
    }

    /// `TLS 1.3;TLS 1.2` for a listed offer, `up to TLS 1.2` for a ceiling.
    static func versionsCell(_ versions: OfferedTLSVersions) -> String {
        switch versions {
        case let .listed(list): list.map(\.name).joined(separator: ";")
        case let .upTo(version): "up to \(version.name)"
        }
    }

    /// `TLS 1.2` negotiated, or `refused: alert 70 (protocol_version)`.
    static func answerCell(_ answer: ServerTLSAnswer) -> String {
        switch answer {
        case let .negotiated(negotiated): negotiated.version.name
        case let .refused(alert): "refused: \(TLSAlertDescription(alert).description)"
        }
    }
}
