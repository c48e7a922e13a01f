import Foundation
import Shared

/// What the flow inspector shows of one connection (screens.md, Flow Inspector): six facts, the
/// name and where it came from, what TLS negotiated, and its first packets titled by meaning.
/// Pure: given the flow, its first packets and how many the history holds.
package struct FlowInspector: Sendable {
    package let flow: HistoryFlow
    package let rows: [FlowInspectorRow]
    /// Packets of this flow the history holds (the list shows at most `rows.count` of them).
    package let storedPacketCount: Int
    /// What the history gave of its decrypted content; nil when it was not read.
    package let decrypted: DecryptedContentReading?

    /// `packets` in time order, as `FlowStore.packets(forFlow:limit:)` returns them; only the first
    /// `limit` are listed.
    package init(flow: HistoryFlow, packets: [StoredPacket], storedPacketCount: Int,
                limit: Int = HistoryPolicy.default.packetsPerFlow, decrypted: DecryptedContentReading? = nil) {
        self.flow = flow
        self.decrypted = decrypted
        let first = packets.first?.date
        let version = flow.stored.key.endpointA.address.version
        rows = packets.prefix(max(0, limit)).enumerated().map { offset, packet in
            FlowInspectorRow(packet: packet, number: offset + 1, since: first ?? packet.date,
                             proto: flow.stored.key.proto, version: version)
        }
        self.storedPacketCount = max(storedPacketCount, rows.count)
    }

    /// Whether the list stops before the history's end.
    package var isCapped: Bool { storedPacketCount > rows.count }

    /// Under a capped list, both numbers ("showing the first 500 of 10 000 packets"); nil otherwise.
    package var footer: String? {
        guard isCapped else { return nil }
        return "showing the first \(Self.grouped(rows.count)) of \(Self.grouped(storedPacketCount)) packets"
    }

    /// The header's six facts in reading order, Zeek's Community ID beside the protocol, the
    /// program behind the flow when it was asked, and what a DNS flow asked (or that the flow is
    /// encrypted DNS).
    package var facts: [(label: String, value: String)] {
        let stored = flow.stored
        return [
            ("Between", ends),
            ("Protocol", "\(stored.key.proto.displayName) over \(stored.key.endpointA.address.version == .v4 ? "IPv4" : "IPv6")"),
            ("Community ID", HistoryFlowWording.communityIDText(stored.key)),
            ("First to last packet", "\(UTCTimestamp.iso8601(stored.firstSeen)) to \(UTCTimestamp.iso8601(stored.lastSeen))"
                + " (\(Self.seconds(stored.duration)))"),
            ("Received", "\(ByteCountText.binary(stored.bytesIn)) (\(stored.bytesIn) bytes)"),
            ("Sent", "\(ByteCountText.binary(stored.bytesOut)) (\(stored.bytesOut) bytes)"),
            ("Encryption", Self.encryption(stored.tlsStatus)),
        ] + (stored.program.map { [("Program", ProgramWording.text($0))] } ?? [])
            + (stored.dnsExchange.map { [("Asked DNS", DNSExchangeWording.text($0))] } ?? [])
            + (DNSExchangeWording.encryptedDNS(stored).map { [("Encrypted DNS", $0.phrase)] } ?? [])
    }

    /// The two ends in plain words: this device's first when the split is known.
    package var ends: String {
        if let endpoints = flow.endpoints {
            return "this device \(Self.words(endpoints.local)) and \(Self.words(endpoints.remote))"
        }
        return "\(Self.words(flow.stored.key.endpointA)) and \(Self.words(flow.stored.key.endpointB)) (neither is this device's address)"
    }

    /// What the handshake said, in the analyze report's words and in reading order: how the
    /// stream opened, the QUIC version, the client's offer, the server's answer, what could be
    /// seen of its certificates (the chain itself is `certificates`). Empty when nothing was read.
    package var handshakeFacts: [(label: String, value: String)] {
        let stored = flow.stored
        var said: [(label: String, value: String)] = []
        if let opening = stored.streamOpening { said.append(("opened with", AnalysisReport.text(opening))) }
        if let quic = stored.quic { said.append(("QUIC version", AnalysisReport.hex(quic.version.rawValue, digits: 8))) }
        if let offer = stored.clientTLS { said.append(("client offered", AnalysisReport.text(offer))) }
        // An inspected flow had two handshakes: each is said with whose it was.
        if let leaf = stored.leafTLS {
            said.append((Self.leafLabel, AnalysisReport.text(.negotiated(leaf))))
        }
        if let answer = stored.serverTLS {
            let upstream = if case .negotiated(let negotiated) = answer, negotiated.source == .upstreamConnection { true } else { false }
            said.append((upstream ? Self.upstreamLabel : "server answered", AnalysisReport.text(answer)))
        }
        if let certificates { said.append(("certificates", AnalysisReport.summary(certificates))) }
        if let ending = stored.serverEnding { said.append(("server ended", Self.ending(ending))) }
        if let reason = stored.inspectionReason {
            said.append(("inspection", InspectionReasonWording.text(reason, status: stored.tlsStatus)))
        }
        return said
    }

    /// The hellos' fingerprints (`TLSFingerprintWording`), after what the handshake said; the JSON
    /// has them as `fingerprints`.
    var fingerprintFacts: [(label: String, value: String)] {
        TLSFingerprintWording.facts(client: flow.stored.clientFingerprints, server: flow.stored.serverFingerprints)
    }

    /// The two legs of an inspected flow, labelled by whose handshake each was.
    package static let leafLabel = "the app and TunnelVision's certificate negotiated"
    package static let upstreamLabel = "the server answered TunnelVision"

    /// How the real server ended an inspected flow, and what that means for its content.
    package static func ending(_ ending: TLSStreamEnding) -> String {
        switch ending {
        case .closeNotify: "with close_notify: everything it meant to send arrived"
        case .withoutCloseNotify: "without close_notify: what it sent last may be cut short, and the app was told the same way"
        case .reset: "by resetting the connection; the app's connection was reset in turn"
        case .fatalAlert: "with a fatal alert; the app's connection was reset"
        }
    }

    /// `serverEnding`'s stable identifiers in JSON.
    package static func endingIdentifier(_ ending: TLSStreamEnding) -> String { "\(ending)" }

    /// What the server showed of its certificates, when there was a TLS answer or a reading.
    package var certificates: ServerCertificateVisibility? {
        let stored = flow.stored
        guard stored.serverTLS != nil || stored.serverCertificates != nil else { return nil }
        return ServerCertificateVisibility(answer: stored.serverTLS, reading: stored.serverCertificates)
    }

    static func words(_ endpoint: IPEndpoint) -> String {
        endpoint.port == 0 ? "\(endpoint.address)" : "\(endpoint.address) port \(endpoint.port)"
    }

    /// The status as a person reads it (the timeline's badges, in full).
    package static func encryption(_ status: TLSInspectionStatus) -> String {
        switch status {
        case .plaintext: "not encrypted: its content travelled in the clear"
        case .encrypted: "encrypted, not inspected"
        case .inspected: "inspected: decrypted on this device through your own certificate authority"
        case .notInspectable: "kept private: " + DecryptedSection.pinnedGuarantee
        case .inspectionFailed: "broken by inspection: the attempt to inspect it failed the connection"
        }
    }

    /// Seconds with millisecond resolution: "0.004 s".
    package static func seconds(_ interval: TimeInterval) -> String {
        String(format: "%.3f s", max(0, interval))
    }

    /// Thousands apart by a space, as the footer writes them: "10 000".
    package static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(" ") }
            out.append(digit)
        }
        return (number < 0 ? "-" : "") + out
    }
}

/// One row of the inspector's packet list.
package struct FlowInspectorRow: Sendable, Hashable, Identifiable {
    package let packet: StoredPacket
    /// 1-based, in time order: what `flow ID --packet N` takes.
    package let number: Int
    package let title: PacketTitle
    /// Since the flow's first packet.
    package let offset: TimeInterval

    package var id: Int64 { packet.id }
    /// "SYN ACK"; empty for a packet that is not TCP.
    package var flags: String { PacketTitle.acronyms(packet.tcpFlags) }
    package var time: String { FlowInspector.seconds(offset) }

    package init(packet: StoredPacket, number: Int, since first: Date, proto: IPProtocolNumber, version: IPVersion) {
        self.packet = packet
        self.number = number
        title = PacketTitle(flags: packet.tcpFlags, length: packet.length, proto: proto, version: version)
        offset = packet.date.timeIntervalSince(first)
    }
}
