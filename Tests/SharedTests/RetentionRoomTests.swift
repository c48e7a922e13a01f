import Foundation
import Synchronization
import TestSupport
import Testing
@testable import Shared

/// Room made before each capture file opens (`PcapFileWriter.Config.beforeOpening` and
/// `RetentionPass.makeRoom`), over real files in a real directory: the size limit is a ceiling.
@Suite struct RetentionRoomTests {
    static let mib: UInt64 = 1 << 20
    static let cap = RetentionSettings(maxAge: .unlimited, maxCaptureSize: .megabytes256)

    /// What the captures hold on disk now, by `stat`.
    static func bytes(in directory: URL) throws -> UInt64 {
        try CaptureDirectory.fileInfos(in: directory).reduce(0) { $0 + $1.byteCount }
    }

    @Test("the writer asks for room before each file it creates, the first included, once the previous one is written out and closed")
    func theWriterAsksBeforeEachFile() throws {
        let directory = TemporaryDirectory("room-hook")
        let asked = Mutex<[(sequence: UInt32, existed: Bool, listed: [UInt32: UInt64])]>([])
        let writer = try PcapFileWriter(config: .init(directory: directory.url, maxFileBytes: 4_096, beforeOpening: { sequence in
            let infos = (try? CaptureDirectory.fileInfos(in: directory.url)) ?? []
            asked.withLock {
                $0.append((sequence, infos.contains { $0.sequence == sequence },
                           Dictionary(uniqueKeysWithValues: infos.map { ($0.sequence, $0.byteCount) })))
            }
        }))
        let packet = Data(repeating: 0xAB, count: 1_000)
        for index in 0..<6 { try writer.write(packet: packet, originalLength: packet.count, timestamp: Int64(index)) }
        try writer.close()
        let calls = asked.withLock { $0 }
        #expect(calls.map(\.sequence) == [1, 2])
        #expect(calls.allSatisfy { !$0.existed })
        // File 1 was whole on disk when file 2 was asked for: its header and four records.
        let first = try #require(try CaptureDirectory.fileInfos(in: directory.url).first { $0.sequence == 1 })
        #expect(calls[1].listed[1] == first.byteCount && first.byteCount == 24 + 4 * 1_016)
    }

    @Test("with real files, room made before each new file keeps the captures within a 256 MiB limit while 400 MiB are written")
    func roomKeepsTheDirectoryWithinTheLimit() throws {
        let directory = TemporaryDirectory("room-real")
        // The most the directory held: sampled when a file is about to open (the previous one full)
        // and every 4 MiB written.
        let peak = Mutex<UInt64>(0)
        let reclaimed = Mutex<Int>(0)
        let writer = try PcapFileWriter(config: .init(directory: directory.url, beforeOpening: { sequence in
            let before = (try? Self.bytes(in: directory.url)) ?? .max
            peak.withLock { $0 = max($0, before) }
            let listing = RetentionPass.Listing.files((try? CaptureDirectory.fileInfos(in: directory.url)) ?? [])
            if case let .done(outcome, _) = RetentionPass.makeRoom(listing: listing, evidence: .files([]), settings: Self.cap, now: Date(),
                                                                   opening: sequence) {
                reclaimed.withLock { $0 += outcome.deletedFiles.count }
            }
        }))
        let packet = Data(repeating: 0x5A, count: 65_000)
        var written: UInt64 = 0
        var index: Int64 = 0
        while written < 400 * Self.mib {
            try writer.write(packet: packet, originalLength: packet.count, timestamp: index)
            written += UInt64(packet.count)
            index += 1
            if index % 64 == 0 {
                try writer.writeOut()
                let now = try Self.bytes(in: directory.url)
                peak.withLock { $0 = max($0, now) }
            }
        }
        try writer.close()
        let limit = try #require(Self.cap.maxCaptureSize.maxBytes)
        #expect(peak.withLock { $0 } <= limit)
        #expect(try Self.bytes(in: directory.url) <= limit)
        // The limit was reached: files went, and what is left is near it, not far below.
        #expect(reclaimed.withLock { $0 } >= 2)
        #expect(try Self.bytes(in: directory.url) > limit - 2 * PcapFileWriter.defaultMaxFileBytes)
    }
}
