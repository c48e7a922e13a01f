import Foundation
import Testing
import TestSupport
@testable import Shared

/// The ZIP writer of the evidence bundle (APPNOTE 6.3.10), read back by Python's `zipfile` and by
/// Info-ZIP's `unzip -t`: folders and files, stored and deflated, CRC-32, sizes and the fixed DOS
/// time; the same entries give the same bytes; what needs ZIP64 is refused; a failure leaves no file.
@Suite struct ZipWriterTests {
    static let moment = Date(timeIntervalSince1970: 1_796_005_131)   // 2026-11-30 02:18:51 UTC

    /// What Python's zipfile makes of `archive`: `testzip()`'s answer and each entry.
    static func python(_ archive: URL) throws -> [String: Any] {
        try #require(try PythonOracle.json("""
            import hashlib, json, sys, zipfile
            with zipfile.ZipFile(sys.argv[1]) as archive:
                bad = archive.testzip()
                entries = [{"name": i.filename, "method": i.compress_type, "dateTime": list(i.date_time),
                            "mode": i.external_attr >> 16, "size": i.file_size, "isDir": i.is_dir(),
                            "sha256": hashlib.sha256(archive.read(i)).hexdigest()} for i in archive.infolist()]
            print(json.dumps({"bad": bad, "entries": entries}))
            """, [archive.path]) as? [String: Any])
    }

    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    static func sha256(_ bytes: [UInt8]) -> String { X509Digest.lowercaseHex(X509Digest.sha256(bytes)) }

    /// A folder, a deflated document, stored random bytes, an empty file each way.
    static func write(to url: URL, modified: Date = moment) throws -> [String: [UInt8]] {
        let document = Array(String(repeating: "{\"flow\":12,\"name\":\"api.lab.test\"}\n", count: 400).utf8)
        let random = bytes(70_000, seed: 7)
        let writer = try ZipWriter(url: url, modified: modified)
        try writer.addDirectory("bundle/")
        try writer.addFile("bundle/flows.json", bytes: document, method: .deflated(level: ZipWriter.defaultLevel))
        try writer.addFile("bundle/capture.pcapng", bytes: random, method: .stored)
        try writer.addFile("bundle/empty-stored", bytes: [], method: .stored)
        try writer.addFile("bundle/empty-deflated", bytes: [], method: .deflated(level: 1))
        try writer.finish()
        return ["bundle/flows.json": document, "bundle/capture.pcapng": random, "bundle/empty-stored": [], "bundle/empty-deflated": []]
    }

    @Test("Python's zipfile finds every entry whole: names in order, folder and files, bytes, methods, the DOS time, Unix modes")
    func pythonReadsItBack() throws {
        let directory = TemporaryDirectory("tv-zip")
        let archive = directory.url.appendingPathComponent("bundle.zip")
        let contents = try Self.write(to: archive)
        let read = try Self.python(archive)
        #expect(read["bad"] is NSNull)
        let entries = try #require(read["entries"] as? [[String: Any]])
        #expect(entries.map { $0["name"] as? String } == ["bundle/", "bundle/flows.json", "bundle/capture.pcapng", "bundle/empty-stored",
                                                          "bundle/empty-deflated"])
        #expect(entries.map { $0["method"] as? Int } == [0, 8, 0, 0, 8])
        #expect(entries.map { $0["isDir"] as? Bool } == [true, false, false, false, false])
        #expect(entries.map { $0["mode"] as? Int } == [0o040700, 0o100600, 0o100600, 0o100600, 0o100600])
        #expect(entries.allSatisfy { $0["dateTime"] as? [Int] == [2026, 11, 30, 2, 18, 50] })
        for entry in entries.dropFirst() {
            let name = try #require(entry["name"] as? String)
            #expect(entry["sha256"] as? String == Self.sha256(contents[name] ?? [1]), "\(name)")
            #expect(entry["size"] as? Int == contents[name]?.count)
        }
        // Deflate paid off on the document and was not asked for on the random bytes.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? NSNumber).intValue
        #expect(size < 70_000 + 16_000 && size > 70_000)
        #expect(PathStatus.of(archive.path)?.mode == 0o600)
    }

    @Test("Info-ZIP's unzip -t tests every entry without an error")
    func unzipTests() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip") else { return }
        let directory = TemporaryDirectory("tv-zip")
        let archive = directory.url.appendingPathComponent("bundle.zip")
        _ = try Self.write(to: archive)
        let result = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/unzip"), ["-t", archive.path])
        #expect(result.status == 0)
        #expect(result.out.contains("No errors detected"))
    }

    @Test("the same entries give the same bytes; another instant changes only the DOS time and date")
    func deterministic() throws {
        let directory = TemporaryDirectory("tv-zip")
        let one = directory.url.appendingPathComponent("one.zip"), two = directory.url.appendingPathComponent("two.zip")
        let three = directory.url.appendingPathComponent("three.zip")
        _ = try Self.write(to: one)
        _ = try Self.write(to: two)
        _ = try Self.write(to: three, modified: Self.moment.addingTimeInterval(86_400 + 3_600))
        let (first, second, third) = (try Data(contentsOf: one), try Data(contentsOf: two), try Data(contentsOf: three))
        #expect(first == second)
        #expect(first.count == third.count && first != third)
        #expect(try Self.python(three)["entries"].flatMap { ($0 as? [[String: Any]])?.first?["dateTime"] as? [Int] } == [2026, 12, 1, 3, 18, 50])
    }

    @Test("a DOS timestamp counts two seconds and UTC; before 1980 it is 1980-01-01, after 2107 its last second", arguments: [
        (1_796_005_131.0, UInt16(2 << 11 | 18 << 5 | 25), UInt16(46 << 9 | 11 << 5 | 30)),
        (0.0, UInt16(0), UInt16(1 << 5 | 1)),
        (4_500_000_000.0, UInt16(23 << 11 | 59 << 5 | 29), UInt16(127 << 9 | 12 << 5 | 31)),
    ])
    func dosTimestamp(seconds: Double, time: UInt16, date: UInt16) {
        let stamp = ZipWriter.dosTimestamp(Date(timeIntervalSince1970: seconds))
        #expect(stamp.time == time && stamp.date == date)
    }

    @Test("a file from disk is read a chunk at a time, stored or deflated, and comes back whole")
    func fileFromDisk() throws {
        let directory = TemporaryDirectory("tv-zip")
        let source = directory.url.appendingPathComponent("capture.pcapng")
        // Three chunks and a bit, half of it compressible.
        let contents = Self.bytes(1_700_000, seed: 3) + [UInt8](repeating: 0x5A, count: 1_700_000)
        try Data(contents).write(to: source)
        let archive = directory.url.appendingPathComponent("big.zip")
        let writer = try ZipWriter(url: archive, modified: Self.moment)
        try writer.addFile("b/stored", contentsOf: source, method: .stored)
        try writer.addFile("b/deflated", contentsOf: source, method: .deflated(level: ZipWriter.defaultLevel))
        try writer.finish()
        let entries = try #require(try Self.python(archive)["entries"] as? [[String: Any]])
        #expect(entries.map { $0["sha256"] as? String } == [Self.sha256(contents), Self.sha256(contents)])
        #expect(entries.map { $0["size"] as? Int } == [contents.count, contents.count])
    }

    @Test("an entry of 4 GiB or more is refused before its data is read: ZIP64 is not written")
    func refusesZip64() throws {
        let directory = TemporaryDirectory("tv-zip")
        let source = directory.url.appendingPathComponent("huge")
        #expect(FileManager.default.createFile(atPath: source.path, contents: nil))
        let handle = try FileHandle(forWritingTo: source)
        try handle.truncate(atOffset: 1 << 32)   // sparse: no disk used
        try handle.close()
        let archive = directory.url.appendingPathComponent("huge.zip")
        let writer = try ZipWriter(url: archive, modified: Self.moment)
        #expect(throws: ZipWriterError.entryTooLarge(name: "b/huge", byteCount: 1 << 32)) {
            try writer.addFile("b/huge", contentsOf: source, method: .stored)
        }
        #expect(ZipWriterError.entryTooLarge(name: "b/huge", byteCount: 1 << 32).description.contains("ZIP64"))
    }

    @Test("a failure leaves no archive behind, and an existing file at the name is left alone")
    func failureLeavesNothing() throws {
        let directory = TemporaryDirectory("tv-zip")
        let archive = directory.url.appendingPathComponent("bundle.zip")
        do {
            let writer = try ZipWriter(url: archive, modified: Self.moment)
            try writer.addDirectory("b/")
            #expect(throws: ZipWriterError.cannotRead(path: directory.url.appendingPathComponent("absent").path, errno: ENOENT)) {
                try writer.addFile("b/absent", contentsOf: directory.url.appendingPathComponent("absent"), method: .stored)
            }
            #expect(PathStatus.of(archive.path) != nil)
        }
        #expect(PathStatus.of(archive.path) == nil)
        try Data("mine".utf8).write(to: archive)
        #expect(throws: ZipWriterError.cannotWrite(path: archive.path, errno: EEXIST)) { _ = try ZipWriter(url: archive, modified: Self.moment) }
        #expect(try Data(contentsOf: archive) == Data("mine".utf8))
    }
}
