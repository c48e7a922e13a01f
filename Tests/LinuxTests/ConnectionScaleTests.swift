import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// Every connection through `tunnelvision run` is its own and none is cut by the tunnel's
/// bookkeeping: 10 000 held at once all keep working, and a port reused by a second connection is
/// a second flow in the history. Real programs (python3 asyncio and sockets, bash's ulimit) in
/// the lab's namespaces. Needs root.
@Suite("Connections through run: many, and one port reused", .serialized)
struct ConnectionScaleTests {
    static let echoPort = 9000
    /// Each side holds 10 000 sockets: the soft limit goes up to the hard one (20 000 here; raising
    /// the hard limit needs CAP_SYS_RESOURCE, which a container may not grant).
    static let raiseFileLimit = "ulimit -n \"$(ulimit -Hn)\" && "
    static let reusePort = 9100

    /// An echo server for many connections at once: each reads and writes back until EOF. A
    /// connection reset on its side is counted, and the count printed when it is stopped.
    static let echoServer = """
        import asyncio, sys
        async def handle(reader, writer):
            try:
                while data := await reader.read(65536):
                    writer.write(data)
                    await writer.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                writer.close()
        async def main():
            server = await asyncio.start_server(handle, sys.argv[1], int(sys.argv[2]), backlog=4096)
            async with server:
                await server.serve_forever()
        asyncio.run(main())
        """

    /// Opens N connections, holds them all, then uses every one twice, a pause longer than the
    /// tunnel's tick before each round; writes what happened as JSON. (The tunnel's memory is read
    /// from outside: the command lives in a PID namespace of its own.)
    static let manyClient = """
        import asyncio, collections, json, os, sys, time
        host, port, count, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
        async def main():
            result = {}
            gate = asyncio.Semaphore(256)
            async def open_one():
                async with gate:
                    try:
                        return await asyncio.wait_for(asyncio.open_connection(host, port), 30)
                    except Exception as error:
                        return type(error).__name__
            started = time.monotonic()
            opened = await asyncio.gather(*(open_one() for _ in range(count)))
            connections = [c for c in opened if isinstance(c, tuple)]
            result["opened"] = len(connections)
            result["openFailures"] = collections.Counter(c for c in opened if not isinstance(c, tuple))
            result["openSeconds"] = time.monotonic() - started
            result["rounds"] = []
            for round in range(2):
                await asyncio.sleep(1.5)
                async def echo(index, connection):
                    reader, writer = connection
                    message = f"{round}:{index:05d}\\n".encode()
                    try:
                        writer.write(message)
                        await writer.drain()
                        answer = await asyncio.wait_for(reader.readexactly(len(message)), 30)
                        return "ok" if answer == message else "mismatch"
                    except Exception as error:
                        return type(error).__name__
                outcomes = await asyncio.gather(*(echo(i, c) for i, c in enumerate(connections)))
                result["rounds"].append(collections.Counter(outcomes))
            for _, writer in connections:
                writer.close()
            with open(out, "w") as f:
                json.dump(result, f)
        asyncio.run(main())
        """

    @Test("10 000 concurrent TCP connections through run are all held, all echo, and all work again after a pause")
    func tenThousandConnectionsAllKeepWorking() throws {
        let count = 10_000
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("scale")
        let serverScript = work.url.appendingPathComponent("echo_server.py")
        let clientScript = work.url.appendingPathComponent("many_client.py")
        try Data(Self.echoServer.utf8).write(to: serverScript)
        try Data(Self.manyClient.utf8).write(to: clientScript)
        let server = try LabScripts.start(["bash", "-c", Self.raiseFileLimit + "exec \(LabScripts.python) \(serverScript.path) "
                                              + "\(Lab.serverIPv4) \(Self.echoPort)"], in: lab.server)
        defer { LabScripts.stop(server) }
        try LabScripts.waitForListener(Lab.serverIPv4, Self.echoPort, from: lab.host)

        let report = work.url.appendingPathComponent("report.json")
        let data = work.url.appendingPathComponent("data")
        let memory = TunnelMemoryWatcher(marker: data.path)
        let result = try Self.run(in: lab, data: data, command: [
            "bash", "-c", Self.raiseFileLimit + "exec \(LabScripts.python) \(clientScript.path) "
                + "\(Lab.serverIPv4) \(Self.echoPort) \(count) \(report.path)",
        ])
        #expect(result.status == 0, "\(result.err.suffix(2_000))")
        let outcome = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        #expect(outcome["opened"] as? Int == count, "open failures: \(outcome["openFailures"] ?? "?")")
        let rounds = try #require(outcome["rounds"] as? [[String: Int]])
        #expect(rounds.count == 2)
        for round in rounds { #expect(round == ["ok": count], "\(round)") }

        // The tunnel's memory with every connection held: the figure the flow cap is chosen from.
        let (before, peak) = try #require(memory.finish(), "the tunnel's memory was never read")
        let perConnection = (peak - before) * 1024 / count
        print("connection scale: \(count) held; tunnelvision VmRSS before \(before) KiB, VmHWM \(peak) KiB, "
              + "about \(perConnection) bytes per connection; opened in \(outcome["openSeconds"] ?? "?") s")
        #expect(peak < 512 * 1024, "the tunnel's peak RSS was \(peak) KiB")
    }

    /// Two connections from one source port, one after the other, each completing: the server
    /// answers and closes first (so the client, closing second, keeps no TIME_WAIT and may bind
    /// the port again). Prints each connection's start and end.
    static let reuseClient = """
        import json, socket, sys, time
        host, port, local, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
        spans = []
        for size in (1000, 5000):
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("", local))
            started = time.time()
            s.connect((host, port))
            s.sendall(size.to_bytes(4, "big") + b"q" * size)
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
            s.close()
            assert answer == b"a" * size, len(answer)
            spans.append([started, time.time()])
            time.sleep(2.5)
        with open(out, "w") as f:
            json.dump(spans, f)
        """

    /// Reads a 4-byte length and as many bytes, answers as many, and closes first.
    static let reuseServer = """
        import socket, sys
        listener = socket.create_server((sys.argv[1], int(sys.argv[2])))
        while True:
            connection, _ = listener.accept()
            with connection:
                header = b""
                while len(header) < 4 and (piece := connection.recv(4 - len(header))):
                    header += piece
                if len(header) < 4:
                    continue                    # a probe that connected and left
                size, got = int.from_bytes(header, "big"), 0
                while got < size and (piece := connection.recv(65536)):
                    got += len(piece)
                connection.sendall(b"a" * size)
        """

    @Test("a client reusing its source port for a second connection makes a second flow in the history, each with its own bytes")
    func aReusedSourcePortIsASecondFlow() throws {
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("reuse")
        let serverScript = work.url.appendingPathComponent("reuse_server.py")
        let clientScript = work.url.appendingPathComponent("reuse_client.py")
        try Data(Self.reuseServer.utf8).write(to: serverScript)
        try Data(Self.reuseClient.utf8).write(to: clientScript)
        let server = try LabScripts.start([LabScripts.python, serverScript.path, Lab.serverIPv4, "\(Self.reusePort)"],
                                          in: lab.server)
        defer { LabScripts.stop(server) }
        try LabScripts.waitForListener(Lab.serverIPv4, Self.reusePort, from: lab.host)

        let spansFile = work.url.appendingPathComponent("spans.json")
        let summaryFile = work.url.appendingPathComponent("summary.json")
        let result = try Self.run(in: lab, data: work.url.appendingPathComponent("data"), summary: summaryFile, command: [
            LabScripts.python, clientScript.path, Lab.serverIPv4, "\(Self.reusePort)", "45678", spansFile.path,
        ])
        #expect(result.status == 0, "\(result.err)")
        let spans = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: spansFile)) as? [[Double]])
        #expect(spans.count == 2)

        let summary = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: summaryFile)) as? [String: Any])
        let connections = try #require(summary["connections"] as? [[String: Any]])
            .filter { ($0["remote"] as? [String: Any])?["port"] as? Int == Self.reusePort }
        try #require(connections.count == 2, "the history's connections to the port: \(connections)")
        let bytesOut = connections.compactMap { $0["bytesOut"] as? Int }.sorted()
        let bytesIn = connections.compactMap { $0["bytesIn"] as? Int }.sorted()
        // Each connection's own payload plus its headers (a few dozen segments of 52 bytes at most).
        #expect(bytesOut.count == 2 && (1_004..<3_000).contains(bytesOut[0]) && (5_004..<7_000).contains(bytesOut[1]),
                "\(bytesOut)")
        #expect(bytesIn.count == 2 && (1_000..<3_000).contains(bytesIn[0]) && (5_000..<7_000).contains(bytesIn[1]),
                "\(bytesIn)")
        // Neither row spans the pause between the two: each is one connection's lifetime.
        for connection in connections {
            let duration = try #require(connection["durationSeconds"] as? Double)
            #expect(duration < 2, "a row lasting \(duration) s spans both connections")
        }
    }

    /// `tunnelvision run -- COMMAND` inside the lab's host namespace, bounded by `timeout`.
    static func run(in lab: Lab, data: URL, summary: URL? = nil,
                    command: [String]) throws -> (status: Int32, out: String, err: String) {
        let tunnelvision = try BuiltProduct.url("tunnelvision")
        let ip = URL(fileURLWithPath: ExternalCommand.locate("ip") ?? "/usr/sbin/ip")
        let summaryArguments = summary.map { ["--json-summary", $0.path] } ?? []
        return try BuiltProduct.run(ip, lab.host.command(["timeout", "150", tunnelvision.path, "run",
                                                          "--data-dir", data.path] + summaryArguments + ["--"] + command)
            .dropFirst().map { $0 })
    }
}
