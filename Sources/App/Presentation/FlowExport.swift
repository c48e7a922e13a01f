import Foundation
import Shared

/// The JSON file "export all connections" writes (seeds/000 § Flow export), framed in three pieces
/// so the exporter can stream it: `header`, one `entry` per connection, `trailer`. Metadata only —
/// the file says so in `contents` — and every name in it is a stable identifier, not screen copy:
///
///     {"format":"tunnelvision-connections","version":1,"exportedAt":"2026-12-01T15:00:00.000000Z",
///      "contents":"…","scope":"…","limit":20000,"connections":[
///     {"id":7,"session":2,"protocol":"tcp","host":"example.com","name":"example.com",
///      "nameSource":"sni","otherNames":[],"proxy":{"protocol","host","port"}|null,"peers":[{"address","port"},{…}],"local":{…}|null,
///      "remote":{…}|null,"communityID":"1:…"|null,
///      "fingerprints":{"ja4","ja3","ja3Full","ja3s","ja3sFull"}|null,"firstSeen","lastSeen","durationSeconds","bytesOut","bytesIn","packets",
///      "tlsStatus":"encrypted"},
///     …
///     ],"connectionCount":1,"packetCount":12,"bytesOut":517,"bytesIn":4096,"truncated":false}
package enum FlowExport {
    /// At most this many connections, the most recent: the tunnel writes without a ceiling.
    package static let defaultLimit = 20_000
    /// The file's first bytes, by which an earlier export is told from a stranger's file.
    package static let signature = #"{"format":"tunnelvision-connections""#
    package static let formatVersion = 1
    /// What the file holds, said by the file itself.
    package static let contents = "metadata only: endpoints, names, times, byte and packet counts and encryption status"
        + " of each connection; no payload (the packets themselves are in the captures)"
    package static let scope = "the whole history, most recent connections first"
    /// The name of an export in a directory of exports.
    package static let fileName = "connections.json"

    /// Whether `prefix` — the first bytes of a file — begin an export of ours.
    package static func isExport(prefix: some Collection<UInt8>) -> Bool {
        prefix.starts(with: signature.utf8)
    }

    /// Everything up to the opening of the `connections` array.
    package static func header(_ out: inout JSONWriter, exportedAt: Date, limit: Int, scope: String = FlowExport.scope) {
        out.beginObject()
        out.string("format", "tunnelvision-connections")
        out.number("version", formatVersion)
        out.string("exportedAt", unescaped: { writer in
            var stamp = UTCTimestamp()
            stamp.write(nanosecondsSince1970: nanoseconds(exportedAt), to: &writer)
        })
        out.string("contents", contents)
        out.string("scope", scope)
        out.number("limit", limit)
        out.beginArray("connections")
    }

    /// One connection, on a line of its own.
    package static func entry(_ flow: HistoryFlow, _ out: inout JSONWriter, stamps: inout UTCTimestamp) {
        let stored = flow.stored
        out.newline()
        out.beginObject()
        out.number("id", Int(stored.id))
        out.number("session", Int(stored.session))
        out.string("protocol", HistoryFlowWording.protocolIdentifier(stored.key.proto))
        out.string("host", flow.displayHost)
        out.string("name", flow.name?.text)
        out.string("nameSource", flow.nameSource?.rawValue)
        out.strings("otherNames", flow.name?.otherCandidates ?? [])
        ProxyTargetWording.write(stored.proxyTarget, to: &out)
        out.beginArray("peers")
        endpoint(stored.key.endpointA, &out)
        endpoint(stored.key.endpointB, &out)
        out.endArray()
        out.key("local")
        if let local = flow.endpoints?.local { endpoint(local, &out) } else { out.null() }
        out.key("remote")
        if let remote = flow.endpoints?.remote { endpoint(remote, &out) } else { out.null() }
        HistoryFlowWording.writeCommunityID(stored.key, to: &out)
        TLSFingerprintWording.write(stored, to: &out)
        DNSExchangeWording.write(stored.dnsExchange, encrypted: DNSExchangeWording.encryptedDNS(stored), to: &out)
        out.string("firstSeen", unescaped: { stamps.write(nanosecondsSince1970: nanoseconds(stored.firstSeen), to: &$0) })
        out.string("lastSeen", unescaped: { stamps.write(nanosecondsSince1970: nanoseconds(stored.lastSeen), to: &$0) })
        out.number("durationSeconds", stored.duration, decimals: 6)
        out.number("bytesOut", stored.bytesOut)
        out.number("bytesIn", stored.bytesIn)
        out.number("packets", stored.packetCount)
        out.string("tlsStatus", HistoryFlowWording.statusIdentifier(stored.tlsStatus))
        HistoryFlowWording.writeInspection(stored, to: &out)
        out.endObject()
    }

    /// The counts, after the last entry, and the end of the document.
    package static func trailer(_ out: inout JSONWriter, totals: Totals, truncated: Bool) {
        if totals.connections > 0 { out.lineBreak() }
        out.endArray()
        out.number("connectionCount", totals.connections)
        out.number("packetCount", totals.packets)
        out.number("bytesOut", totals.bytesOut)
        out.number("bytesIn", totals.bytesIn)
        out.bool("truncated", truncated)
        out.endObject()
        out.lineBreak()
    }

    /// What the trailer counts, added up entry by entry.
    package struct Totals: Sendable, Equatable {
        package var connections = 0
        package var packets: UInt64 = 0
        package var bytesOut: UInt64 = 0
        package var bytesIn: UInt64 = 0

        package init() {}

        package mutating func add(_ flow: HistoryFlow) {
            connections += 1
            packets &+= flow.stored.packetCount
            bytesOut &+= flow.stored.bytesOut
            bytesIn &+= flow.stored.bytesIn
        }
    }

    /// The whole document in memory: for the tests and small exports; the exporter streams.
    package static func document(_ flows: [HistoryFlow], exportedAt: Date, limit: Int = defaultLimit,
                                truncated: Bool = false) -> Data {
        var out = JSONWriter()
        var stamps = UTCTimestamp()
        var totals = Totals()
        header(&out, exportedAt: exportedAt, limit: limit)
        for flow in flows {
            entry(flow, &out, stamps: &stamps)
            totals.add(flow)
        }
        trailer(&out, totals: totals, truncated: truncated)
        return Data(out.writer.bytes)
    }

    /// A date as nanoseconds since 1970, to the microsecond the stamps show (a `Date` holds no finer).
    private static func nanoseconds(_ date: Date) -> Int64 {
        let microseconds = (date.timeIntervalSince1970 * 1e6).rounded()
        return Int64(exactly: microseconds).map { $0 * 1_000 } ?? 0
    }

    private static func endpoint(_ endpoint: IPEndpoint, _ out: inout JSONWriter) {
        out.beginObject()
        out.string("address", "\(endpoint.address)")
        out.number("port", Int(endpoint.port))
        out.endObject()
    }
}
