import Foundation
import TestSupport
@testable import Shared

/// Keys, records and packets for the store's tests, on a fixed anchor so instants are known.
enum StoreFixtures {
    /// Monotonic 1 000 s ↔ 2026-11-30 02:18:50 UTC.
    static let anchor = MonotonicAnchor(uptimeNanoseconds: 1_000_000_000_000,
                                        wallClockNanosecondsSince1970: 1_796_005_130_000_000_000)
    static let second: UInt64 = 1_000_000_000

    /// SQL that drops every index, column and table the migrations after `version` added (the
    /// indexes first: SQLite refuses to drop a column an index reads), read from the
    /// migrations themselves: with the `user_version` set back, a file as `version` left it.
    static func droppingColumnsAdded(after version: Int) -> String {
        let later = FlowStore.Schema.migrations.filter { $0.version > version }
        let tables = later.flatMap { $0.sql.matches(of: #/CREATE TABLE (?:IF NOT EXISTS )?(\w+)/#).map { "DROP TABLE IF EXISTS \($0.1);" } }
        let indexes = later.flatMap { $0.sql.matches(of: #/CREATE INDEX (?:IF NOT EXISTS )?(\w+)/#).map { "DROP INDEX IF EXISTS \($0.1);" } }
        let columns = later.flatMap { $0.sql.matches(of: #/ALTER TABLE (\w+) ADD COLUMN (\w+)/#).map { "ALTER TABLE \($0.1) DROP COLUMN \($0.2);" } }
        return (indexes + columns + tables).joined(separator: " ")
    }

    /// The monotonic instant `seconds` after the anchor.
    static func uptime(_ seconds: Double) -> UInt64 {
        anchor.uptimeNanoseconds + UInt64(seconds * 1e9)
    }

    /// The date the store reports for the monotonic instant `uptime` (dated with `anchor`).
    static func date(_ uptime: UInt64) -> Date {
        EpochNanoseconds.date(anchor.nanosecondsSince1970(forUptime: uptime))
    }

    /// The device's `number`th conversation with a server: TCP to 443 over IPv4, or UDP over IPv6.
    static func key(_ number: Int, proto: IPProtocolNumber = .tcp) -> FlowKey {
        let device = proto == .udp ? IPAddress(parsing: "fd00:7::2")! : IPAddress(ipv4: 0x0A07_0002)
        let server = proto == .udp ? IPAddress(parsing: "fd00:18::\(String(number % 65_536, radix: 16))")!
            : IPAddress(ipv4: 0xC612_0000 | UInt32(number % 65_536))
        return FlowKey(proto: proto, source: IPEndpoint(address: device, port: UInt16(40_000 + number % 20_000)),
                       destination: IPEndpoint(address: server, port: 443))
    }

    static func record(_ key: FlowKey, firstSeen: UInt64 = uptime(1), lastSeen: UInt64? = nil,
                       bytesOut: UInt64 = 0, bytesIn: UInt64 = 0, packets: UInt64 = 0,
                       status: TLSInspectionStatus = .encrypted) -> FlowRecord {
        var record = FlowRecord(key: key, firstSeen: firstSeen, tlsStatus: status)
        record.lastSeen = lastSeen ?? firstSeen
        record.bytesOut = bytesOut
        record.bytesIn = bytesIn
        record.packetCount = packets
        return record
    }

    static func packet(_ key: FlowKey, at timestamp: UInt64, direction: Direction = .outbound, length: UInt32 = 60,
                       flags: TCPFlags = [.ack], capture: CaptureLocation? = nil) -> PacketMeta {
        PacketMeta(timestamp: timestamp, flowKey: key, direction: direction, length: length, tcpFlags: flags,
                   capture: capture)
    }

    /// A store on a fresh file in `directory`.
    static func store(in directory: TemporaryDirectory, anchor: MonotonicAnchor = anchor) throws -> FlowStore {
        try FlowStore(databaseURL: databaseURL(in: directory), anchor: anchor)
    }

    static func databaseURL(in directory: TemporaryDirectory) -> URL {
        DataDirectoryLayout.database(in: directory.url)
    }

    /// Every byte of the file, to show a refusal changed none.
    static func bytes(of url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    /// The files in `directory`, by name.
    static func files(in directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
    }
}
