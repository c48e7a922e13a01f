#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// `tvlab bench tunnel` and `tvlab net` as a person types them: the built tvlab, run as a child.
@Suite("tvlab bench tunnel and net, on the command line")
struct TunnelBenchCommandLineTests {
    func tvlab(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(try BuiltProduct.url("tvlab"), arguments)
    }

    @Test("options out of range or unknown are refused with status 2 and a sentence naming them")
    func refused() throws {
        let cases: [([String], String)] = [
            (["bench", "tunnel", "--paths", "direct,bogus"], "unknown path bogus"),
            (["bench", "tunnel", "--paths", "tunnel,tunnel"], "tunnel is named twice"),
            (["bench", "tunnel", "--repeat", "0"], "--repeat wants a whole number, 1…100"),
            (["bench", "tunnel", "--mtu", "70000"], "--mtu wants a whole number, 1280…65520"),
            (["bench", "tunnel", "--mtu", "1500,1500"], "each once; got '1500,1500'"),
            (["bench", "tunnel", "--mtu", "1500,"], "--mtu wants a whole number"),
            (["bench", "tunnel", "--seconds"], "--seconds needs a value"),
            (["bench", "tunnel", "--count", "3"], "unknown option --count"),
            (["net", "rr", "--host", "198.19.0.2"], "which port?"),
            (["net", "crr", "--host", "example.org", "--port", "7"], "--host wants an IPv4 or IPv6 address"),
            (["net", "hold", "--host", "127.0.0.1", "--port", "7", "--ready-file", "/tmp/x"], "how many connections?"),
            (["net", "echo-server", "--port", "65536"], "--port wants a whole number, 1…65535"),
            (["net", "ping"], "unknown tool ping"),
        ]
        for (arguments, message) in cases {
            let result = try tvlab(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.err.contains(message), "\(arguments): \(result.err)")
        }
    }

    @Test("the help for tunnel names every option with its default")
    func help() throws {
        let result = try tvlab(["help", "tunnel"])
        #expect(result.status == 0)
        for option in ["--mtu M[,M…]", "default 1500,65520", "--seconds S", "default 4", "--repeat K", "default 3",
                       "--paths LIST", "direct,tunnel,routed,passive,pasta,slirp4netns,haproxy", "--json"] {
            #expect(result.out.contains(option), "\(option)")
        }
    }

    /// The tools against each other in a namespace of their own (so no port of the machine's is
    /// taken), the server bounded by `timeout` whatever happens to the test.
    @Test("the echo server answers rr, crr and hold in a private namespace", .enabled(if: geteuid() == 0))
    func toolsTogether() throws {
        let tvlab = try BuiltProduct.url("tvlab").path
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tvlab-net-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = """
        set -e
        ip link set lo up
        ulimit -Sn 1024
        timeout 60 "$1" net echo-server --port 7007 2>/dev/null &
        server=$!
        trap 'kill $server' EXIT
        for i in $(seq 100); do ss -Hltn 'sport = :7007' | grep -q . && break; sleep 0.05; done
        "$1" net rr --host 127.0.0.1 --port 7007 --count 200 --json
        "$1" net crr --host 127.0.0.1 --port 7007 --seconds 1 --json
        "$1" net hold --host 127.0.0.1 --port 7007 --count 1100 --ready-file "$2/ready" 2>/dev/null &
        hold=$!
        for i in $(seq 200); do [ -e "$2/ready" ] && break; sleep 0.05; done
        ss -Htn state established 'dport = :7007' | wc -l
        rm "$2/ready"
        wait $hold
        """
        let result = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/unshare"),
                                          ["--net", "sh", "-c", script, "sh", tvlab, directory])
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(result.out)")
        let roundTrips = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
        #expect(roundTrips?["roundTrips"] as? Int == 200)
        #expect((roundTrips?["medianMicroseconds"] as? Double ?? 0) > 0)
        #expect((roundTrips?["p99Microseconds"] as? Double ?? 0) >= (roundTrips?["medianMicroseconds"] as? Double ?? .infinity))
        let rate = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any]
        #expect((rate?["connections"] as? Int ?? 0) > 0)
        #expect((rate?["connectionsPerSecond"] as? Double ?? 0) > 0)
        // 1 100 held: past the usual soft limit of 1 024 descriptors, on both ends.
        #expect(lines[2].trimmingCharacters(in: .whitespaces) == "1100")
    }
}
