import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// `tunnelvision run`'s summary never turns a failure into a fact: a history whose writes failed
/// during the run, or capture writes that failed, are said so in the text and the JSON — checked
/// with real failures (another process holding the history's lock, a file-size limit) through a
/// real curl to a real server in a lab. Needs root.
@Suite("run's summary says what it could not record", .serialized)
struct RunHonestSummaryTests {
    struct Served {
        let lab: Lab
        let server: Process
        let work: TemporaryDirectory

        func remove() {
            LabScripts.stop(server)
            lab.remove()
        }
    }

    /// A lab whose server serves `files` (name → size in bytes of pseudo-random content).
    static func serve(_ files: [String: Int], name: String) throws -> Served {
        let lab = try Lab()
        let work = TemporaryDirectory(name)
        let www = work.url.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        for (file, size) in files {
            try ExternalCommand.run(["sh", "-c", "head -c \(size) /dev/urandom > '\(www.appendingPathComponent(file).path)'"])
        }
        let server: Process
        do {
            server = try LabScripts.start([LabScripts.python, "-m", "http.server", "8080", "--bind", Lab.serverIPv4,
                                           "--directory", www.path], in: lab.server)
            try LabScripts.waitForListener(Lab.serverIPv4, 8080, from: lab.host)
        } catch {
            lab.remove()
            throw error
        }
        return Served(lab: lab, server: server, work: work)
    }

    /// `arguments` run in the lab's host namespace (never the root one).
    static func inHost(_ lab: Lab, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let ip = URL(fileURLWithPath: ExternalCommand.locate("ip") ?? "/usr/sbin/ip")
        return try BuiltProduct.run(ip, lab.host.command(arguments).dropFirst().map { $0 })
    }

    static func json(_ file: URL) throws -> [String: Any] {
        // python3's json module is the oracle that the file is one valid JSON object.
        _ = try ExternalCommand.run([LabScripts.python, "-c",
                                     "import json,sys; d=json.load(open(sys.argv[1])); assert isinstance(d, dict)", file.path])
        return try #require(JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    }

    @Test("history batches lost while another process holds the history's lock: the summary says the history is incomplete")
    func lockedHistoryIsIncomplete() throws {
        let served = try Self.serve(["a.bin": 200_000, "b.bin": 2_000_000], name: "run-locked")
        defer { served.remove() }
        let data = served.work.url.appendingPathComponent("data")
        let ready = served.work.url.appendingPathComponent("locked")
        let summaryFile = served.work.url.appendingPathComponent("summary.json")
        // A real sqlite3 client takes the history's write lock for longer than the store's busy
        // timeout (5 s), while curl downloads: the batches of that download cannot be written.
        let locker = served.work.url.appendingPathComponent("lock.py")
        try Data("""
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
            c.execute("BEGIN IMMEDIATE")
            open(sys.argv[2], "w").close()
            time.sleep(7)
            c.execute("ROLLBACK")

            """.utf8).write(to: locker)
        let url = "http://\(Lab.serverIPv4):8080"
        let script = """
            curl -sS -o /dev/null \(url)/a.bin || exit 10
            "\(LabScripts.python)" "\(locker.path)" "\(DataDirectoryLayout.database(in: data).path)" "\(ready.path)" &
            while [ ! -e "\(ready.path)" ]; do sleep 0.05; done
            curl -sS -o /dev/null --limit-rate 1M \(url)/b.bin || exit 11
            wait
            """
        let tunnelvision = try BuiltProduct.url("tunnelvision")
        let result = try Self.inHost(served.lab, [tunnelvision.path, "run", "--data-dir", data.path, "--no-capture",
                                                  "--json-summary", summaryFile.path, "--", "sh", "-c", script])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.contains("history incomplete: "), "\(result.err)")
        #expect(result.err.contains("of history ("), "\(result.err)")
        // The last loss is the lock's, or the queue's behind it (16 batches wait at most).
        #expect(result.err.contains("could not be written — the last because another process holds the history")
                || result.err.contains("could not be written — the last because the history writer fell behind"), "\(result.err)")
        #expect(result.err.contains("recorded (some may be missing or counted short)"), "\(result.err)")
        #expect(!result.err.contains(" connections:\n") && !result.err.contains("1 connection:\n"), "\(result.err)")

        let summary = try Self.json(summaryFile)
        #expect(summary["historyComplete"] as? Bool == false)
        let problem = try #require(summary["historyProblem"] as? String)
        #expect(problem.contains("could not be written") && (problem.contains("locked") || problem.contains("fell behind")),
                "\(problem)")
        #expect(summary["connections"] is [Any])
        #expect(summary["captureComplete"] as? Bool == true)
    }

    @Test("capture writes cut off by a file-size limit: the summary says the captures are incomplete")
    func failedCaptureWritesAreSaid() throws {
        let served = try Self.serve(["big.bin": 16_000_000], name: "run-fsize")
        defer { served.remove() }
        let data = served.work.url.appendingPathComponent("data")
        let summaryFile = served.work.url.appendingPathComponent("summary.json")
        let tunnelvision = try BuiltProduct.url("tunnelvision")
        // RLIMIT_FSIZE of 8 MiB: room for the live-feed ring, not for 16 MB of capture.
        // SIGXFSZ ignored, so a write past the limit fails with EFBIG instead of killing the tunnel.
        let wrapped = "trap '' XFSZ; ulimit -f 8192; exec \"$@\""
        // bash, whose ulimit -f counts KiB (dash's counts 512-byte blocks).
        let result = try Self.inHost(served.lab, ["bash", "-c", wrapped, "bash", tunnelvision.path, "run", "--data-dir", data.path,
                                                  "--json-summary", summaryFile.path, "--",
                                                  "curl", "-sS", "-o", "/dev/null", "-w", "%{size_download}",
                                                  "http://\(Lab.serverIPv4):8080/big.bin"])
        // curl inherits the limit too, so it counts the bytes instead of keeping them: all arrived.
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "16000000")
        #expect(result.err.contains("captures incomplete: "), "\(result.err)")
        #expect(result.err.contains("File too large"), "\(result.err)")
        let summary = try Self.json(summaryFile)
        #expect(summary["captureComplete"] as? Bool == false)
        let problem = try #require(summary["captureProblem"] as? String)
        #expect(problem.contains("capture write") && problem.contains("File too large"), "\(problem)")
    }
}
