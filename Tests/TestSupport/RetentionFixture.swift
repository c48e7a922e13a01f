#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// A data directory aged on purpose, for the retention tests: capture files written by the real
/// `PcapFileWriter` as if started days ago (their names) and last written when the next began
/// (their modification times), and history connections last seen days ago through a real `FlowStore`.
package enum RetentionFixture {
    package static let day: TimeInterval = 86_400

    /// Writes one capture per entry of `startedDaysAgo` (oldest first), `packets` records each,
    /// into `dataDirectory`'s captures; each file's last write is set to the next one's start (the
    /// last one's to now). Returns the files as the directory lists them.
    @discardableResult
    package static func captures(in dataDirectory: URL, startedDaysAgo: [Double], packets: Int = 20,
                                now: Date = Date()) throws -> [CaptureFileInfo] {
        let directory = DataDirectoryLayout.captures(in: dataDirectory)
        let clock = WallClock()
        let starts = startedDaysAgo.map { now.addingTimeInterval(-$0 * day) }
        clock.set(starts[0])
        let existing = try CaptureDirectory.files(in: directory).count
        let writer = try PcapFileWriter(config: .init(directory: directory), wallClock: { clock.nanoseconds })
        for (index, start) in starts.enumerated() {
            if index > 0 {
                clock.set(start)
                try writer.rotate()
            }
            for number in 0..<packets {
                let packet = Data(repeating: UInt8(truncatingIfNeeded: number), count: 200 + number)
                try writer.write(packet: packet, originalLength: packet.count, timestamp: clock.nanoseconds)
            }
        }
        try writer.close()
        let written = writer.captureFiles()
        for (index, url) in written.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1] : now
            try setModificationTime(of: url, to: end)
        }
        let files = try CaptureDirectory.fileInfos(in: directory)
        precondition(files.count == existing + starts.count)
        return files
    }

    package static func setModificationTime(of url: URL, to date: Date) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url.path)
    }

    /// Writes `count` connections last seen `daysAgo` into the history of `dataDirectory`, in a
    /// session of their own (ended when the store closes). Returns their ids.
    @discardableResult
    package static func connections(in dataDirectory: URL, count: Int, lastSeenDaysAgo daysAgo: Double,
                                   firstPort: UInt16 = 40_000) async throws -> [Int64] {
        let anchor = MonotonicAnchor(uptimeNanoseconds: 1_000_000_000,
                                     wallClockNanosecondsSince1970: Int64((Date().timeIntervalSince1970 - daysAgo * day) * 1e9))
        let store = try FlowStore(dataDirectory: dataDirectory, anchor: anchor, origin: "aged \(daysAgo) days")
        let records = (0..<count).map { index -> FlowRecord in
            let key = FlowKey(proto: .tcp,
                              source: IPEndpoint(address: IPAddress(ipv4: 0x0A07_0002), port: firstPort + UInt16(index)),
                              destination: IPEndpoint(address: IPAddress(ipv4: 0xC612_0001), port: 443))
            var record = FlowRecord(key: key, firstSeen: 1_000_000_000, tlsStatus: .encrypted)
            record.lastSeen = 2_000_000_000
            record.packetCount = 1
            return record
        }
        let ids = try await store.write(FlowStoreBatch(flows: records)).flowIDs
        await store.close()
        return ids
    }
}

extension RetentionFixture {
    /// Makes the history of `dataDirectory` hold audit evidence in capture files `files`: an audit
    /// project named `project`, a session of it (ended unless `open`) and, recorded during it, one
    /// connection last seen `daysAgo` per file with a packet captured in that file. Returns the
    /// session's id.
    @discardableResult
    package static func evidence(in dataDirectory: URL, files: [UInt32], lastSeenDaysAgo daysAgo: Double, project: String = "Therapy app",
                                open: Bool = false, firstPort: UInt16 = 45_000) async throws -> Int64 {
        let wall = Date().addingTimeInterval(-daysAgo * day)
        let anchor = MonotonicAnchor(uptimeNanoseconds: 1_000_000_000, wallClockNanosecondsSince1970: Int64(wall.timeIntervalSince1970 * 1e9))
        let store = try FlowStore(dataDirectory: dataDirectory, anchor: anchor, origin: "audit \(project)")
        let made = try await store.createAuditProject(AuditProjectDraft(name: project), at: wall.addingTimeInterval(-60))
        let session = try await store.startAuditSession(
            AuditSessionDraft(projectID: made.id, kind: .baseline,
                              environment: AuditEnvironment(deviceModel: "lab", osVersion: "Linux", toolVersion: "test"),
                              inspection: InspectionConditions(inspectionEnabled: false, caTrusted: false)),
            at: wall.addingTimeInterval(-60))
        let keys = files.indices.map { index in
            FlowKey(proto: .tcp, source: IPEndpoint(address: IPAddress(ipv4: 0x0A07_0002), port: firstPort + UInt16(index)),
                    destination: IPEndpoint(address: IPAddress(ipv4: 0xC612_0002), port: 443))
        }
        let records = keys.map { key -> FlowRecord in
            var record = FlowRecord(key: key, firstSeen: 1_000_000_000, tlsStatus: .encrypted)
            record.lastSeen = 2_000_000_000
            record.packetCount = 1
            return record
        }
        let packets = zip(keys, files).map { key, file in
            PacketMeta(timestamp: 1_500_000_000, flowKey: key, direction: .outbound, length: 60, tcpFlags: [.ack],
                       capture: CaptureLocation(fileSequence: file, recordOffset: 24))
        }
        _ = try await store.write(FlowStoreBatch(flows: records, packets: packets))
        if !open { _ = try await store.endAuditSession(id: session.id, at: wall.addingTimeInterval(10)) }
        await store.close()
        return session.id
    }
}

/// A settable wall clock for the writer's file names.
final class WallClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int64 = 0
    func set(_ date: Date) { lock.withLock { value = Int64(date.timeIntervalSince1970 * 1e9) } }
    var nanoseconds: Int64 { lock.withLock { value } }
}
