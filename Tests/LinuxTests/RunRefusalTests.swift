import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// What `tunnelvision run` refuses before CMD starts, and what it refuses to leave unsaid at the
/// end: a damaged history, settings it cannot read, a JSON summary it cannot write. Each is made
/// for real (a history cut short or overwritten after a real run, a real settings file, a missing
/// directory, a read-only mount, /dev/full) and checked byte for byte with sha256sum. Needs root;
/// every run is inside a lab's host namespace.
@Suite("run refuses what it cannot do honestly", .serialized)
struct RunRefusalTests {
    typealias Summary = RunHonestSummaryTests

    static func sha256(_ url: URL) throws -> String { try TunnelEndToEndTests.sha256(url) }

    /// A data directory holding the history of one real run of `true`.
    static func recordedHistory(_ lab: Lab, in work: TemporaryDirectory) throws -> URL {
        let data = work.url.appendingPathComponent("data")
        let first = try Summary.inHost(lab, [try BuiltProduct.url("tunnelvision").path, "run", "--data-dir", data.path,
                                             "--no-capture", "--", "sh", "-c", "curl -s -m 2 -o /dev/null http://\(Lab.serverIPv4):9/; true"])
        #expect(first.status == 0, "\(first.err)")
        // Folded into the main file by a real sqlite3 client, as a clean shutdown leaves it.
        _ = try ExternalCommand.run([LabScripts.python, "-c",
                                     "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('PRAGMA wal_checkpoint(TRUNCATE)'); c.close()",
                                     DataDirectoryLayout.database(in: data).path])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: DataDirectoryLayout.database(in: data).path)[.size] as? Int)
        #expect(size >= 8 * 4_096, "\(size) bytes")
        return data
    }

    /// Runs `run` over `data`, whose CMD would leave a marker file: the refusal must come first.
    static func expectRefused(_ lab: Lab, data: URL, work: TemporaryDirectory, extra: [String] = [],
                              saying expected: [String]) throws {
        let marker = work.url.appendingPathComponent("cmd-ran")
        let result = try Summary.inHost(lab, [try BuiltProduct.url("tunnelvision").path, "run", "--data-dir", data.path]
                                        + extra + ["--", "touch", marker.path])
        #expect(result.status == 1, "\(result.err)")
        for text in expected { #expect(result.err.contains(text), "\(text) not in: \(result.err)") }
        #expect(!FileManager.default.fileExists(atPath: marker.path), "CMD ran")
    }

    @Test("a history truncated after a real run is refused before the tunnel starts, its bytes unchanged")
    func truncatedHistory() throws {
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("run-truncated")
        let data = try Self.recordedHistory(lab, in: work)
        let database = DataDirectoryLayout.database(in: data)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: database.path)[.size] as? Int)
        #expect(truncate(database.path, off_t(size - 4_096)) == 0)
        let before = try Self.sha256(database)
        try Self.expectRefused(lab, data: data, work: work, saying: [
            "the history \(database.path) is damaged (truncated: its header counts",
            "move it aside (mv \(database.path) \(database.path).damaged-", "nothing was changed",
        ])
        #expect(try Self.sha256(database) == before)
    }

    @Test("pages of a real history overwritten with garbage: run and analyze refuse it, its bytes unchanged")
    func corruptPages() throws {
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("run-corrupt")
        let data = try Self.recordedHistory(lab, in: work)
        let database = DataDirectoryLayout.database(in: data)
        // Every page after the first (the header and schema) overwritten, in place, by dd.
        _ = try ExternalCommand.run(["sh", "-c", "size=$(stat -c %s '\(database.path)'); "
                                     + "dd if=/dev/urandom of='\(database.path)' bs=4096 seek=1 count=$((size / 4096 - 1)) "
                                     + "conv=notrunc status=none"])
        let before = try Self.sha256(database)
        try Self.expectRefused(lab, data: data, work: work, saying: [
            "the history \(database.path) is damaged (", "move it aside", "nothing was changed",
        ])
        #expect(try Self.sha256(database) == before)

        // analyze reads the capture, then refuses to add it to the damaged history, saying the same.
        let capture = work.url.appendingPathComponent("empty.pcap")
        try Data([0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 101, 0, 0, 0]).write(to: capture)
        let analyzed = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["analyze", capture.path, "--data-dir", data.path])
        #expect(analyzed.status == 1, "\(analyzed.err)")
        #expect(analyzed.err.contains("the history \(database.path) is damaged ("), "\(analyzed.err)")
        #expect(try Self.sha256(database) == before)
    }

    @Test("settings with a wrong type or an unknown key: run refuses the factory settings unless --no-capture, the file untouched")
    func unreadableSettings() throws {
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("run-settings")
        let data = work.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let file = DataDirectoryLayout.settings(in: data)
        for json in ["{\"captureEnabled\": \"yes\"}\n", "{\"captureEnabled\": false, \"futureKey\": 1}\n"] {
            try Data(json.utf8).write(to: file)
            let before = try Self.sha256(file)
            try Self.expectRefused(lab, data: data, work: work, saying: [
                "\(file.path) does not hold valid settings", "run refuses to start on the factory settings (full capture)",
                "--no-capture", "Nothing was started",
            ])
            #expect(try Self.sha256(file) == before)
        }
        // Told what to capture (nothing), the run goes ahead and still warns.
        let marker = work.url.appendingPathComponent("ran")
        let result = try Summary.inHost(lab, [try BuiltProduct.url("tunnelvision").path, "run", "--data-dir", data.path,
                                              "--no-capture", "--", "touch", marker.path])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.contains("does not hold valid settings") && result.err.contains("using the factory settings"))
        #expect(FileManager.default.fileExists(atPath: marker.path))
        #expect(try String(contentsOf: file, encoding: .utf8) == "{\"captureEnabled\": false, \"futureKey\": 1}\n")
    }

    @Test("a --json-summary that cannot be written is an error: a missing directory and a read-only mount before CMD, a full disk after")
    func unwritableJSONSummary() throws {
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("run-json")
        let data = work.url.appendingPathComponent("data")
        let missing = work.url.appendingPathComponent("no-such-dir/summary.json")
        try Self.expectRefused(lab, data: data, work: work, extra: ["--json-summary", missing.path], saying: [
            "cannot write the JSON summary to \(missing.path): \(missing.deletingLastPathComponent().path): No such file or directory",
        ])

        // A read-only mount, in a private mount namespace of the child only.
        let readOnly = work.url.appendingPathComponent("ro")
        try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: true)
        let marker = work.url.appendingPathComponent("cmd-ran")
        let script = "mount -t tmpfs -o ro,size=64k tv-ro \"$1\" && shift && exec \"$@\""
        let tunnelvision = try BuiltProduct.url("tunnelvision")
        let ip = ExternalCommand.locate("ip") ?? "/usr/sbin/ip"
        let ro = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/unshare"),
                                      ["--mount", "--propagation", "private", "sh", "-c", script, "sh", readOnly.path]
                                      + lab.host.command([tunnelvision.path, "run", "--data-dir", data.path, "--json-summary",
                                                          readOnly.appendingPathComponent("s.json").path, "--",
                                                          "touch", marker.path]).map { $0 == "ip" ? ip : $0 })
        #expect(ro.status == 1, "\(ro.err)")
        #expect(ro.err.contains("cannot write the JSON summary to \(readOnly.path)/s.json: \(readOnly.path): Read-only file system"),
                "\(ro.err)")
        #expect(!FileManager.default.fileExists(atPath: marker.path))

        // A full disk shows only at the write: CMD ran, its status is in the message, run exits 1.
        let full = try Summary.inHost(lab, [tunnelvision.path, "run", "--data-dir", data.path, "--json-summary", "/dev/full",
                                            "--", "sh", "-c", "exit 3"])
        #expect(full.status == 1, "\(full.err)")
        #expect(full.err.contains("cannot write the JSON summary to /dev/full: No space left on device "
                                  + "(sh -c exit 3 exited with status 3; the summary above is complete)"), "\(full.err)")
        #expect(full.err.contains("sh -c exit 3 exited with status 3\n"))
    }
}
