import AppLinux
import Foundation
import Linux
import PacketTunnel
import Posix
import Shared
import TestSupport
import Testing

/// The whole tunnel in a lab of namespaces, with real programs on both sides: curl and Python in
/// the monitored namespace, Python servers in the server namespace, the tunnel's relay sockets in
/// the host namespace. Needs root.
@Suite("The tunnel end to end, in a lab", .serialized)
struct TunnelEndToEndTests {
    /// A tunnel over real sinks in a temporary data directory, relaying from the lab's host.
    final class Tunnel {
        let lab: Lab
        let data = TemporaryDirectory("tunnel-e2e")
        let device: TUNDevice
        let session: TunnelSession
        var store: FlowStore { session.store }
        var runtime: TunnelRuntime<TUNDevice> { session.runtime }
        var capture: PcapFileWriter { session.capture! }
        var controlPath: String { DataDirectoryLayout.controlSocket(in: data.url).path }

        init(lab: Lab, mtu: Int = TunnelAddressing.mtu) async throws {
            self.lab = lab
            device = try TUNDevice()
            try TunnelNamespacePlan.apply(device: device.name, namespace: lab.monitored.name, mtu: mtu)
            var options = TunnelSession.Options()
            options.mtu = mtu
            options.captureDetail = .metadataOnly
            session = try await TunnelSession(dataDirectory: data.url, device: device, options: options,
                                              relayNamespace: lab.host.name)
        }

        func stop() async {
            await session.stop()
            device.close()
        }
    }

    /// SHA-256 of a file, by coreutils (an outside reader, as tshark is for captures).
    static func sha256(_ url: URL) throws -> String {
        String(try ExternalCommand.run(["sha256sum", url.path]).standardOutput.prefix(64))
    }

    /// A file of `size` random bytes served at http://SERVER:8080/file.bin from the lab's server
    /// namespace, listening before this returns; the caller stops the server.
    static func serveRandomFile(_ size: Int, in lab: Lab) throws -> (file: URL, server: Process, directory: TemporaryDirectory) {
        let www = TemporaryDirectory("www")
        let file = www.url.appendingPathComponent("file.bin")
        try ExternalCommand.run(["sh", "-c", "head -c \(size) /dev/urandom > '\(file.path)'"])
        let server = try LabScripts.start([LabScripts.python, "-m", "http.server", "8080", "--bind", Lab.serverIPv4,
                                           "--directory", www.url.path], in: lab.server)
        try LabScripts.waitForListener(Lab.serverIPv4, 8080, from: lab.host)
        return (file, server, www)
    }

    /// The length of every frame the tunnel's capture holds that matches `filter`, read by tshark.
    static func frameLengths(_ tunnel: Tunnel, matching filter: String) throws -> [Int] {
        try tunnel.capture.captureFiles().flatMap { capture in
            try Tshark.fields(["frame.len"], of: capture, options: ["-Y", filter]).compactMap { $0["frame.len"]?.first.flatMap { Int($0) } }
        }
    }

    @Test("a 100 MB download through the tunnel arrives intact (SHA-256 equal) and the history holds its flow with the bytes")
    func download() async throws {
        let lab = try Lab()
        defer { lab.remove() }
        let size = 100_000_000
        let served = try Self.serveRandomFile(size, in: lab)
        defer { withExtendedLifetime(served.directory) { LabScripts.stop(served.server) } }

        let tunnel = try await Tunnel(lab: lab)
        let output = tunnel.data.url.appendingPathComponent("download.bin")
        let curl = try lab.monitored.run(["curl", "-sS", "--max-time", "300", "-o", output.path,
                                          "http://\(Lab.serverIPv4):8080/file.bin"])
        #expect(curl.status == 0)
        await tunnel.stop()
        #expect(try Self.sha256(output) == Self.sha256(served.file))

        let flows = try await tunnel.store.recentFlows(limit: 50, before: nil)
        let web = try #require(flows.first { $0.key.proto == .tcp && ($0.key.endpointA.port == 8080 || $0.key.endpointB.port == 8080) })
        #expect(web.bytesIn >= UInt64(size))
        #expect(web.bytesIn < UInt64(size) * 11 / 10)   // the payload plus header overhead
        #expect(web.bytesOut > 0)
        #expect(tunnel.runtime.relayStats.tcpFlowsOpened >= 1)
    }

    @Test("at MTU 1500 an upload is read in TCP segments larger than the MTU (the kernel's segmentation offload) and arrives intact")
    func uploadBeyondTheMTU() async throws {
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("tunnel-upload")
        let file = work.url.appendingPathComponent("upload.bin")
        let received = work.url.appendingPathComponent("received.sha256")
        try ExternalCommand.run(["sh", "-c", "head -c 20000000 /dev/urandom > '\(file.path)'"])
        let sink = """
            import hashlib, socket
            s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("\(Lab.serverIPv4)", 9100)); s.listen(1)
            while True:   # the listener probe connects first, and sends nothing
                c, _ = s.accept(); digest = hashlib.sha256(); size = 0
                while chunk := c.recv(1 << 20): digest.update(chunk); size += len(chunk)
                if size: break
            open("\(received.path)", "w").write(digest.hexdigest())
            """
        let server = try LabScripts.start([LabScripts.python, "-c", sink], in: lab.server)
        defer { LabScripts.stop(server) }
        try LabScripts.waitForListener(Lab.serverIPv4, 9100, from: lab.host)

        let tunnel = try await Tunnel(lab: lab, mtu: 1500)
        #expect(tunnel.device.segmentationOffload, "the kernel refused the offloads")
        let upload = try lab.monitored.run([LabScripts.python, "-c", """
            import socket, sys
            s = socket.create_connection(("\(Lab.serverIPv4)", 9100), timeout=60)
            s.sendfile(open("\(file.path)", "rb")); s.close()
            """])
        #expect(upload.status == 0, "\(upload.standardError)")
        #expect(await eventually(within: .seconds(30)) { FileManager.default.fileExists(atPath: received.path) },
                "the server never finished reading")
        await tunnel.stop()
        #expect(try String(contentsOf: received, encoding: .utf8) == Self.sha256(file))
        let lengths = try Self.frameLengths(tunnel, matching: "tcp.dstport == 9100")
        #expect((lengths.max() ?? 0) > 1500, "the largest segment read was \(lengths.max() ?? 0) bytes")
    }

    @Test("at MTU 1500 a download is written in TCP segments larger than the MTU for the kernel to cut, and arrives intact")
    func downloadBeyondTheMTU() async throws {
        let lab = try Lab()
        defer { lab.remove() }
        let served = try Self.serveRandomFile(20_000_000, in: lab)
        defer { withExtendedLifetime(served.directory) { LabScripts.stop(served.server) } }

        let tunnel = try await Tunnel(lab: lab, mtu: 1500)
        let output = tunnel.data.url.appendingPathComponent("download.bin")
        let curl = try lab.monitored.run(["curl", "-sS", "--max-time", "120", "-o", output.path, "http://\(Lab.serverIPv4):8080/file.bin"])
        #expect(curl.status == 0, "\(curl.standardError)")
        await tunnel.stop()
        #expect(try Self.sha256(output) == Self.sha256(served.file))
        let lengths = try Self.frameLengths(tunnel, matching: "tcp.srcport == 8080")
        #expect((lengths.max() ?? 0) > 1500, "the largest segment written was \(lengths.max() ?? 0) bytes")
    }

    @Test("a UDP request and its answer cross the tunnel both ways")
    func udpExchange() async throws {
        let lab = try Lab()
        defer { lab.remove() }
        let echo = LabScripts.udpEcho(bind: Lab.serverIPv4, port: 7000)
        let server = try LabScripts.start(echo, in: lab.server)
        defer { LabScripts.stop(server) }
        let tunnel = try await Tunnel(lab: lab)
        let ask = LabScripts.udpAsk(Lab.serverIPv4, port: 7000, message: "hello")
        let answer = try lab.monitored.run(ask)
        // The control channel, asked while the tunnel runs: counters, and a rotation on demand.
        guard case .stats(let stats) = try ControlClient.send(.stats, to: tunnel.controlPath) else {
            Issue.record("no stats from the running tunnel")
            return
        }
        #expect(stats.relay?.udpFlowsOpened == 1)
        #expect(stats.pipeline.packetsHandled >= 1)
        #expect(try ControlClient.send(.rotateCapture, to: tunnel.controlPath) == .ok)
        #expect(try ControlClient.send(.setCaptureDetail(.fullPayload), to: tunnel.controlPath) == .ok)
        #expect(tunnel.capture.captureFiles().count == 3)
        #expect(tunnel.capture.snaplen == CaptureDetail.fullPayload.snaplen)
        await tunnel.stop()
        #expect(answer.standardOutput == "HELLO\n")
        let flows = try await tunnel.store.recentFlows(limit: 10, before: nil)
        // Bytes are whole datagrams: 20 (IPv4) + 8 (UDP) + 5 each way; the request may have been repeated.
        #expect(flows.contains { $0.key.proto == .udp && $0.bytesIn == 33 && $0.bytesOut >= 33 })
    }
}
