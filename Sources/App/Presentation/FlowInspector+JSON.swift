import Foundation
import Shared

extension FlowInspector {
    /// One JSON object (`tunnelvision help flow` describes each field).
    package func json() -> String {
        var out = JSONWriter()
        writeJSON(to: &out)
        return String(decoding: out.writer.bytes, as: UTF8.self)
    }

    /// Facts in reading order as `[{"label", "text"}, …]` under `name`.
    static func write(_ name: StaticString, _ facts: [(label: String, value: String)], to out: inout JSONWriter) {
        out.beginArray(name)
        for fact in facts {
            out.beginObject()
            out.string("label", fact.label)
            out.string("text", fact.value)
            out.endObject()
        }
        out.endArray()
    }

    package func writeJSON(to out: inout JSONWriter) {
        let stored = flow.stored
        out.beginObject()
        out.number("id", Int(flow.id))
        out.string("name", flow.name?.text)
        out.string("nameSource", flow.nameSource?.rawValue)
        out.string("nameSourceText", flow.nameSourceText)
        out.strings("otherNames", flow.name?.otherCandidates ?? [])
        ProxyTargetWording.write(stored.proxyTarget, withText: true, to: &out)
        out.string("protocol", stored.key.proto.displayName.lowercased())
        out.string("ipVersion", stored.key.endpointA.address.version == .v4 ? "IPv4" : "IPv6")
        out.string("local", flow.endpoints?.local.description)
        out.string("remote", flow.endpoints?.remote.description)
        out.strings("ends", [stored.key.endpointA.description, stored.key.endpointB.description])
        HistoryFlowWording.writeCommunityID(stored.key, to: &out)
        TLSFingerprintWording.write(stored, to: &out)
        DNSExchangeWording.write(stored.dnsExchange, encrypted: DNSExchangeWording.encryptedDNS(stored), to: &out)
        out.string("dnsText", stored.dnsExchange.map(DNSExchangeWording.text))
        out.string("encryptedDNSText", DNSExchangeWording.encryptedDNS(stored)?.phrase)
        ConversationEnds(flow).write(to: &out)
        out.string("firstPacket", UTCTimestamp.iso8601(stored.firstSeen))
        out.string("lastPacket", UTCTimestamp.iso8601(stored.lastSeen))
        out.number("durationSeconds", stored.duration, decimals: 3)
        out.size("bytesReceived", stored.bytesIn)
        out.size("bytesSent", stored.bytesOut)
        out.string("encryption", HistoryFlowWording.statusIdentifier(stored.tlsStatus))
        out.string("streamOpening", stored.streamOpening?.rawValue)
        out.number("quicVersion", stored.quic.map { Int($0.version.rawValue) })
        out.key("clientOffer")
        if let offer = stored.clientTLS { AnalysisReport.write(offer, to: &out) } else { out.null() }
        out.key("serverAnswer")
        if let answer = stored.serverTLS { AnalysisReport.write(answer, to: &out) } else { out.null() }
        HistoryFlowWording.writeInspection(stored, to: &out)
        out.string("encryptionLabel", HistoryFlowWording.statusLabel(stored.tlsStatus))
        out.key("certificates")
        if let certificates { AnalysisReport.write(certificates, to: &out) } else { out.null() }
        Self.write("handshake", handshakeFacts, to: &out)
        writeDecryptedJSON(to: &out)
        out.number("storedPackets", storedPacketCount)
        out.number("shownPackets", rows.count)
        out.string("footer", footer)
        out.beginArray("packets")
        for row in rows {
            out.beginObject()
            out.number("number", row.number)
            out.number("seconds", row.offset, decimals: 3)
            out.string("at", UTCTimestamp.iso8601(row.packet.date))
            out.string("direction", Self.directionWord(row.packet.direction))
            out.size("length", UInt64(row.packet.length))
            out.string("title", row.title.text)
            out.strings("flags", TCPFlags.named.filter { row.packet.tcpFlags.contains($0.flag) }.map { "\($0.name)" })
            out.key("capture")
            if let capture = row.packet.capture {
                out.beginObject()
                out.number("file", Int(capture.fileSequence))
                out.number("offset", capture.recordOffset)
                out.endObject()
            } else {
                out.null()
            }
            out.endObject()
        }
        out.endArray()
        out.endObject()
    }
}
