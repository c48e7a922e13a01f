import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// `settings set capture …` and `capture-detail …` reach a running tunnel at once, as inspection's
/// switches do: off stops capturing there and then, on resumes, a new detail starts a new file
/// with its snap length — read back by tshark. A session that started with capture off says it
/// cannot start capturing before its next start. Needs root.
@Suite("Capture settings reach a running tunnel at once", .serialized)
struct SettingsReachTheTunnelTests {
    typealias Tunnel = TunnelEndToEndTests.Tunnel

    /// A discard server on the lab's server (UDP port 9): it reads and never answers, so the
    /// datagrams `send` makes have no reply at all, not even the "port unreachable" a closed port
    /// gets (which the tunnel carries back, and which would land in the captures counted here).
    static func discard(_ lab: Lab) throws -> Process {
        let scratch = TemporaryDirectory("discard")
        let ready = scratch.url.appendingPathComponent("bound")
        let server = try LabScripts.start([LabScripts.python, "-c", """
            import socket
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(('\(Lab.serverIPv4)', 9))
            open('\(ready.path)', 'w').close()
            while True: s.recv(65536)
            """], in: lab.server)
        guard eventually(within: 10, { FileManager.default.fileExists(atPath: ready.path) }) else {
            LabScripts.stop(server)
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the discard server did not bind within 10 s"])
        }
        return server
    }

    /// `count` UDP datagrams of `size` bytes from the monitored namespace to the lab's server.
    static func send(_ lab: Lab, count: Int = 20, size: Int = 1_000) throws {
        _ = try lab.monitored.run([LabScripts.python, "-c", """
            import socket
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.connect(('\(Lab.serverIPv4)', 9))
            for _ in range(\(count)):
                s.send(b'x' * \(size))
            """])
    }

    static func tunnelvision(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let result = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), arguments)
        return (result.status, result.out, result.err)
    }

    /// Every frame's captured length in every capture file, oldest file first, as tshark reads them;
    /// the current file is closed first (rotated) so it is whole.
    static func capturedLengths(_ data: URL) throws -> [[Int]] {
        #expect(try tunnelvision(["captures", "rotate", "--data-dir", data.path]).status == 0)
        let files = try FileManager.default.contentsOfDirectory(at: DataDirectoryLayout.captures(in: data), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "pcap" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
        return try files.map { file in try Tshark.fields(["frame.cap_len"], of: file).compactMap { $0["frame.cap_len"]?.first.flatMap { Int($0) } } }
    }

    @Test("capture off stops capturing at once and on resumes; a new detail opens a file with its snap length")
    func captureSettingsApplyAtOnce() async throws {
        let lab = try Lab()
        defer { lab.remove() }
        let discard = try Self.discard(lab)
        defer { LabScripts.stop(discard) }
        let tunnel = try await Tunnel(lab: lab)   // started with detail metadata
        let data = tunnel.data.url.path
        try Self.send(lab)
        let first = try Self.capturedLengths(tunnel.data.url).flatMap { $0 }
        #expect(first.filter { $0 >= 1_000 }.isEmpty && first.count >= 20, "metadata keeps headers only: \(first)")

        let off = try Self.tunnelvision(["settings", "set", "capture", "off", "--data-dir", data])
        #expect(off.status == 0 && off.err.contains("the running tunnel applied it at once"), "\(off.err)")
        try Self.send(lab)
        let afterOff = try Self.capturedLengths(tunnel.data.url).flatMap { $0 }
        #expect(afterOff.count == first.count, "nothing is captured while capture is off")

        let full = try Self.tunnelvision(["settings", "set", "capture-detail", "full", "--data-dir", data])
        #expect(full.status == 0 && full.err.contains("the running tunnel applied it at once"), "\(full.err)")
        let on = try Self.tunnelvision(["settings", "set", "capture", "on", "--data-dir", data])
        #expect(on.status == 0 && on.err.contains("the running tunnel applied it at once"), "\(on.err)")
        try Self.send(lab)
        let files = try Self.capturedLengths(tunnel.data.url)
        let resumed = try #require(files.last(where: { !$0.isEmpty }))
        #expect(resumed.filter { $0 >= 1_000 }.count >= 20, "full payload after the change: \(resumed)")
        await tunnel.stop()
    }
}
