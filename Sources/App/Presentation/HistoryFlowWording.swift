import Foundation
import Shared

/// How a history flow's facts are named: stable identifiers for scripts, plain words for people.
package enum HistoryFlowWording {
    /// `tcp`, `udp`, `icmp`, `icmpv6`, `proto-47`: stable, read by scripts.
    package static func protocolIdentifier(_ proto: IPProtocolNumber) -> String { proto.displayName.lowercased() }

    /// `plaintext`, `encrypted`, `inspected`, `notInspectable`, `inspectionFailed`: stable, read by scripts.
    package static func statusIdentifier(_ status: TLSInspectionStatus) -> String { status.identifier }

    /// The status by its identifier; nil for an unknown one.
    package static func status(identifier: String) -> TLSInspectionStatus? {
        TLSInspectionStatus.allCases.first { statusIdentifier($0).lowercased() == identifier.lowercased() }
    }

    /// The encryption column: the badge's words (`statusLabel`), with what two of them mean.
    package static func encryption(_ status: TLSInspectionStatus) -> String {
        let label = statusLabel(status).lowercased()
        switch status {
        case .inspected: return "decrypted (\(label))"
        case .notInspectable: return "encrypted (\(label): not inspectable)"
        case .plaintext, .encrypted, .inspectionFailed: return label
        }
    }

    /// The encryption column, with the reason when there is one worth saying: "encrypted — not
    /// inspected: QUIC, passed through", "broken by inspection — server's side failed".
    package static func encryption(_ status: TLSInspectionStatus, reason: InspectionReason?) -> String {
        guard let reason, InspectionReasonWording.isWorthSaying(reason) else { return encryption(status) }
        return encryption(status) + " — " + InspectionReasonWording.label(reason.kind)
    }

    /// The status as a screen's badge and filter name it: "Not encrypted", …, "Broken by inspection".
    package static func statusLabel(_ status: TLSInspectionStatus) -> String {
        switch status {
        case .plaintext: "Not encrypted"
        case .encrypted: "Encrypted"
        case .inspected: "Inspected"
        case .notInspectable: "Kept private"
        case .inspectionFailed: "Broken by inspection"
        }
    }

    /// Whether a list's row writes its status out: only departures from "encrypted", the ordinary case.
    package static func statusIsWritten(_ status: TLSInspectionStatus) -> Bool { status != .encrypted }

    /// What a list's row says under its status, nil when nothing: the reason's sentence when it is
    /// worth saying (`InspectionReasonWording.isWorthSaying`).
    package static func statusNote(_ stored: StoredFlow) -> String? {
        guard let reason = stored.inspectionReason, InspectionReasonWording.isWorthSaying(reason) else { return nil }
        return InspectionReasonWording.text(reason, status: stored.tlsStatus)
    }

    /// The host column: the name with where it came from, else the remote address, else both ends.
    package static func host(_ flow: HistoryFlow) -> String {
        if let name = flow.name, let source = flow.nameSource { return "\(name.text) (\(source.rawValue))" }
        if let remote = flow.remoteAddress { return remote }
        return "\(flow.stored.key.endpointA) ↔ \(flow.stored.key.endpointB)"
    }

    /// Zeek's Community ID of the flow, from its key on every read (`CommunityID(flow:)`), so any
    /// other monitor's record of the same flow is found by it; nil where the key lacks what the
    /// spec hashes (ICMP's type and code, SCTP's ports).
    package static func communityID(_ key: FlowKey) -> String? { try? CommunityID(flow: key).description }

    /// `communityID` as a person reads it: the ID, or none and why.
    static func communityIDText(_ key: FlowKey) -> String {
        do {
            return try CommunityID(flow: key).description
        } catch {
            switch error {
            case .icmpTypeNotKept: return "none: the history keeps no ICMP type or code, which it hashes"
            case .sctpPortsNotKept: return "none: SCTP's ports, which it hashes, are not read"
            case .protocolNotKept: return "none: the protocol number was not kept"
            }
        }
    }

    /// `"communityID"` in every document that shows a flow: `communityID`, or null.
    static func writeCommunityID(_ key: FlowKey, to out: inout JSONWriter) {
        out.string("communityID", communityID(key))
    }

    /// 0.0123 → "12 ms", 2.5 → "2.5 s", 3 720 → "1 h 2 min".
    package static func duration(_ seconds: TimeInterval) -> String {
        if seconds < 1 { return "\(Int((seconds * 1_000).rounded())) ms" }
        if seconds < 60 { return String(format: "%.1f s", seconds) }
        if seconds < 3_600 { return "\(Int(seconds) / 60) min \(Int(seconds) % 60) s" }
        return "\(Int(seconds) / 3_600) h \(Int(seconds) % 3_600 / 60) min"
    }

    /// `2026-12-01 15:02:03` (UTC, whole seconds): the listing's time column.
    package static func time(_ date: Date) -> String {
        UTCTimestamp.iso8601(date).replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: "")
    }

    /// `2026-12-01T15:02:03.250000Z`: a UTC instant with microseconds (`UTCTimestamp`).
    package static func utc(_ date: Date) -> String {
        var writer = ASCIIWriter(capacity: 32)
        var stamp = UTCTimestamp(fractionDigits: 6)
        stamp.write(nanosecondsSince1970: Int64((date.timeIntervalSince1970 * 1e6).rounded()) * 1_000, to: &writer)
        return writer.string
    }

    /// Writes `date` as `utc(_:)` does, or null.
    static func write(_ name: StaticString, _ date: Date?, to out: inout JSONWriter) {
        out.string(name, date.map(utc))
    }

    static func write(_ name: StaticString, _ endpoint: IPEndpoint?, to out: inout JSONWriter) {
        guard let endpoint else {
            out.key(name)
            out.null()
            return
        }
        out.beginObject(name)
        out.string("address", "\(endpoint.address)")
        out.number("port", Int(endpoint.port))
        out.endObject()
    }

    /// One flow as `flows --json` (and any other history document) writes it; `after` is the
    /// cursor its listing goes on with just past it (null outside a listing).
    package static func write(_ flow: HistoryFlow, after cursor: String?, to out: inout JSONWriter) {
        out.beginObject()
        out.number("id", Int(flow.id))
        out.string("after", cursor)
        out.string("protocol", protocolIdentifier(flow.stored.key.proto))
        write("local", flow.endpoints?.local, to: &out)
        write("remote", flow.endpoints?.remote, to: &out)
        out.beginArray("peers")
        for endpoint in [flow.stored.key.endpointA, flow.stored.key.endpointB] {
            out.beginObject()
            out.string("address", "\(endpoint.address)")
            out.number("port", Int(endpoint.port))
            out.endObject()
        }
        out.endArray()
        writeCommunityID(flow.stored.key, to: &out)
        TLSFingerprintWording.write(flow.stored, to: &out)
        out.string("name", flow.name?.text)
        out.string("nameSource", flow.nameSource?.rawValue)
        out.string("nameSourceText", flow.nameSourceText)
        out.strings("otherNames", flow.name?.otherCandidates ?? [])
        DNSExchangeWording.write(flow.stored.dnsExchange, encrypted: DNSExchangeWording.encryptedDNS(flow.stored), to: &out)
        ProxyTargetWording.write(flow.stored.proxyTarget, to: &out)
        write("firstSeen", flow.stored.firstSeen, to: &out)
        write("lastSeen", flow.stored.lastSeen, to: &out)
        out.size("bytesIn", flow.stored.bytesIn)
        out.size("bytesOut", flow.stored.bytesOut)
        out.number("packets", flow.stored.packetCount)
        out.number("durationSeconds", flow.stored.duration, decimals: 6)
        out.string("tlsStatus", statusIdentifier(flow.stored.tlsStatus))
        writeInspection(flow.stored, to: &out)
        out.string("statusNote", statusNote(flow.stored))
        out.string("inspectionSentence", flow.stored.inspectionReason.map { InspectionReasonWording.text($0, status: flow.stored.tlsStatus) })
        ConversationEnds(flow).write(to: &out)
        out.endObject()
    }

    /// Why the flow was not inspected, or how inspection broke it, beside `tlsStatus` in every
    /// document that lists flows: `inspectionReason` (a stable `InspectionReasonKind`
    /// identifier) and `inspectionDetail` (the words of whoever said it), each null when none.
    /// What inspection made of a flow, beside `tlsStatus` in every document that lists flows:
    /// its reason (`writeInspectionReason`), `leafTLS` — what the app and the tunnel's certificate
    /// negotiated, as `serverAnswer` is written — and `serverEnding`, how the real server ended an
    /// inspected flow (`closeNotify`, `withoutCloseNotify`, `reset`, `fatalAlert`); each null when none.
    /// Then `program` (`ProgramWording.write`), the program behind the flow.
    static func writeInspection(_ stored: StoredFlow, to out: inout JSONWriter) {
        writeInspectionReason(stored.inspectionReason, to: &out)
        out.key("leafTLS")
        if let leaf = stored.leafTLS { AnalysisReport.write(.negotiated(leaf), to: &out) } else { out.null() }
        out.string("serverEnding", stored.serverEnding.map(FlowInspector.endingIdentifier))
        ProgramWording.write(stored.program, to: &out)
    }

    static func writeInspectionReason(_ reason: InspectionReason?, to out: inout JSONWriter) {
        out.string("inspectionReason", reason.map { InspectionReasonWording.identifier($0.kind) })
        out.string("inspectionDetail", reason?.detail)
    }
}
