import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// `tunnelvision run` with its data directory on a small tmpfs, as a person whose disk fills:
/// recording stops with a message and counters, the network never does. The tmpfs is mounted in
/// a private mount namespace of a child shell (`unshare --mount`), so nobody outside it sees the
/// mount, and it disappears with the child; `run` itself runs inside the lab's host namespace.
/// Needs root.
@Suite("tunnelvision run on a full disk", .serialized)
struct RunDiskFullTests {
    /// 8 MiB: the ring's 4 MiB, the history, and a few MiB of capture before the disk is full.
    static let tmpfsSize = "8m"

    /// Runs `script` in a private mount namespace with a fresh tmpfs mounted at "$1"; the rest of
    /// the arguments follow as "$2"…. The mount point is an empty folder the caller removes.
    static func inPrivateTmpfs(_ script: String, _ arguments: [String]) throws -> (mountPoint: String, status: Int32, err: String) {
        let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("tv-disk-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let body = "mount -t tmpfs -o size=\(tmpfsSize),mode=0700 tunnelvision-disk \"$1\" || exit 90\n" + script
        let result = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/unshare"),
                                          ["--mount", "--propagation", "private", "sh", "-c", body, "sh", mountPoint]
                                              + arguments)
        return (mountPoint, result.status, result.err)
    }

    @Test("a 50 MB download through an 8 MiB data directory completes intact; capture stops once, said; a second run does not crash")
    func downloadThroughAFullDisk() throws {
        #expect(geteuid() == 0, "mounting a tmpfs needs root: run scripts/test as root")
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("run-disk-full")
        let www = work.url.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        let file = www.appendingPathComponent("file.bin")
        try ExternalCommand.run(["sh", "-c", "head -c 50000000 /dev/urandom > '\(file.path)'"])
        let server = try LabScripts.start([LabScripts.python, "-m", "http.server", "8080", "--bind", Lab.serverIPv4,
                                           "--directory", www.path], in: lab.server)
        defer { LabScripts.stop(server) }
        try LabScripts.waitForListener(Lab.serverIPv4, 8080, from: lab.host)

        let w = work.url.path
        let script = """
            ip netns exec "$3" "$2" run --data-dir "$1/data" --json-summary "$4/first.json" -- \
                curl -sS --max-time 120 -o "$4/out.bin" "$5" 2>"$4/first.err"
            echo $? >"$4/first.status"
            for f in "$1"/data/captures/*.pcap; do
                tshark -r "$f" -T fields -e frame.number >"$4/frames" 2>>"$4/tshark.err" || echo "$f" >>"$4/tshark.bad"
                wc -l <"$4/frames" >>"$4/records"
                stat -c %s "$f" >>"$4/sizes"
            done
            ip netns exec "$3" "$2" run --data-dir "$1/data" --json-summary "$4/second.json" -- true 2>"$4/second.err"
            echo $? >"$4/second.status"
            ls -A "$1/data" >"$4/listing"
            """
        let child = try Self.inPrivateTmpfs(script, [try BuiltProduct.url("tunnelvision").path, lab.host.name, w,
                                                      "http://\(Lab.serverIPv4):8080/file.bin"])
        defer { try? FileManager.default.removeItem(atPath: child.mountPoint) }
        #expect(child.status == 0, "\(child.err)")
        func read(_ name: String) -> String {
            (try? String(contentsOfFile: "\(w)/\(name)", encoding: .utf8)) ?? "(\(name) missing)"
        }
        let firstErr = read("first.err")
        let data = "\(child.mountPoint)/data"

        // The network never stopped: CMD's status is run's, and every byte arrived.
        #expect(read("first.status") == "0\n", "\(firstErr)")
        #expect(try TunnelEndToEndTests.sha256(work.url.appendingPathComponent("out.bin")) == TunnelEndToEndTests.sha256(file))
        // Told once, at the moment, with the count.
        let notice = "tunnelvision: the disk holding \(data) is full: capture stopped after "
        #expect(firstErr.components(separatedBy: notice).count == 2, "\(firstErr)")
        #expect(firstErr.contains("packets; the tunnel keeps forwarding"), "\(firstErr)")
        #expect(firstErr.contains("recording: capture stopped after"), "\(firstErr)")
        // The summary for scripts says so too, and the counters agree with the notice.
        let summary = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: work.url.appendingPathComponent("first.json")))
                                   as? [String: Any])
        let stops = try #require(summary["recordingStopped"] as? [[String: Any]])
        let capture = try #require(stops.first { $0["part"] as? String == "capture" })
        #expect(capture["diskFull"] as? Bool == true)
        let captured = try #require(capture["packetsRecorded"] as? Int)
        #expect(firstErr.contains(notice + "\(captured) packets"), "\(firstErr)")

        // The capture the disk cut off ends at its last whole record: tshark reads every file, and
        // finds in them exactly the packets the notice counted — none lost unsaid, none claimed.
        #expect(!FileManager.default.fileExists(atPath: "\(w)/tshark.bad"), "\(read("tshark.bad"))\(read("tshark.err"))")
        func total(_ name: String) -> Int {
            read(name).split(separator: "\n").reduce(0) { $0 + (Int($1.trimmingCharacters(in: .whitespaces)) ?? -1_000_000) }
        }
        #expect(total("records") == captured, "records per file: \(read("records"))")
        // Capture filled what the ring, the history and the reserve left: over a MiB of packets.
        // (A count of packets would say less: the relay writes up to 64 KiB segments, so the same
        // room holds a hundred packets or thousands, as the socket reads fall.)
        #expect(total("sizes") > 1 << 20, "capture file sizes: \(read("sizes"))")

        // A second run on the same full directory starts, or refuses with the reason — no crash.
        let second = read("second.status").trimmingCharacters(in: .whitespacesAndNewlines)
        let secondErr = read("second.err")
        #expect(second == "0" || second == "1", "status \(second): \(secondErr)")
        if second == "1" {
            #expect(secondErr.contains("cannot reserve the live-feed ring's 4.0 MiB in \(data): No space left on device"),
                    "\(secondErr)")
        }
        #expect(!read("listing").contains("live-feed.ring.new-"), "\(read("listing"))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: child.mountPoint).isEmpty)
    }

    @Test("a disk already full at start: the ring cannot be reserved, run refuses with the reason and leaves nothing behind")
    func fullBeforeStart() throws {
        #expect(geteuid() == 0, "mounting a tmpfs needs root: run scripts/test as root")
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("run-disk-full-start")
        let w = work.url.path
        // 7 MiB of filler leaves room for the history but not for the ring's 4 MiB.
        let script = """
            mkdir -m 0700 "$1/data" && head -c 7340032 /dev/zero >"$1/data/filler" || exit 91
            ip netns exec "$3" "$2" run --data-dir "$1/data" -- true 2>"$4/err"
            echo $? >"$4/status"
            ls -A "$1/data" >"$4/listing"
            """
        let child = try Self.inPrivateTmpfs(script, [try BuiltProduct.url("tunnelvision").path, lab.host.name, w])
        defer { try? FileManager.default.removeItem(atPath: child.mountPoint) }
        #expect(child.status == 0, "\(child.err)")
        let err = (try? String(contentsOfFile: "\(w)/err", encoding: .utf8)) ?? ""
        #expect((try? String(contentsOfFile: "\(w)/status", encoding: .utf8)) == "1\n", "\(err)")
        #expect(err.contains("tunnelvision: cannot reserve the live-feed ring's 4.0 MiB in \(child.mountPoint)/data: "
                             + "No space left on device (free some space or choose another --data-dir)"), "\(err)")
        // Only the filler and the ring's empty lock: no ring, no half-made temporary, no history.
        let listing = (try? String(contentsOfFile: "\(w)/listing", encoding: .utf8)) ?? ""
        #expect(Set(listing.split(separator: "\n").map(String.init)) == ["filler", "live-feed.ring.lock"], "\(listing)")
    }
}
