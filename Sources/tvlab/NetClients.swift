#if canImport(Glibc)
import Glibc
#endif
import Bench
import Foundation
import Linux
import Shared

/// The clients of `tvlab net`: request/response latency (`rr`), connections per second (`crr`)
/// and many connections held open (`hold`), all against `tvlab net echo-server`.
enum NetClients {
    /// Round trips before the measured ones: the path's caches, the relays' flow state and the
    /// CPU's frequency settle first.
    static let warmUpRoundTrips = 1_000
    /// How long `hold` waits for its ready file to be removed before it closes anyway.
    static let holdLimitSeconds = 120.0

    static func run(_ request: NetRequest) throws(Failure) {
        switch request {
        case .echoServer(let port): try EchoServer.run(port: port)
        case let .roundTrips(remote, count, json): try roundTrips(to: remote, count: count, json: json)
        case let .connectionRate(remote, seconds, perSecond, json):
            try connectionRate(to: remote, seconds: seconds, perSecond: perSecond, json: json)
        case let .hold(remote, count, readyFile, verify): try hold(to: remote, count: count, readyFile: readyFile, verify: verify)
        case let .garbage(count, seed): try GarbageDatagrams.send(count: count, seed: seed)
        case let .mix(host, echoPort, httpPort, httpPath, udpPort, seconds):
            try MixedTraffic.run(host: host, echoPort: echoPort, httpPort: httpPort, httpPath: httpPath, udpPort: udpPort, seconds: seconds)
        }
    }

    /// What `rr --json` prints (and `bench tunnel` reads).
    struct RoundTripReport: Codable, Equatable {
        let roundTrips: Int
        let medianMicroseconds: Double
        let p99Microseconds: Double
    }

    /// What `crr --json` prints (and `bench tunnel` reads).
    struct ConnectionRateReport: Codable, Equatable {
        let connections: Int
        let seconds: Double
        let connectionsPerSecond: Double
    }

    /// One connection, `count` timed 1-byte round trips after the warm-up.
    static func roundTrips(to remote: IPEndpoint, count: Int, json: Bool) throws(Failure) {
        let client = try BlockingTCPClient.connect(to: remote)
        defer { client.close() }
        for index in 0..<warmUpRoundTrips { try client.roundTrip(UInt8(truncatingIfNeeded: index)) }
        var samples: [Double] = []
        samples.reserveCapacity(count)
        for index in 0..<count {
            let start = Stopwatch.now()
            try client.roundTrip(UInt8(truncatingIfNeeded: index))
            samples.append(Double(Stopwatch.now() - start) / 1_000)
        }
        samples.sort()
        let report = RoundTripReport(roundTrips: count,
                                     medianMicroseconds: tenths(BenchStatistics.median(samples) ?? 0),
                                     p99Microseconds: tenths(BenchStatistics.percentile(sorted: samples, 0.99) ?? 0))
        if json {
            print(try encoded(report))
        } else {
            print("\(count) round trips of 1 byte to \(remote): median \(report.medianMicroseconds) µs, p99 \(report.p99Microseconds) µs")
        }
    }

    /// Connect, 1 byte each way, close — one after another for `seconds`.
    static func connectionRate(to remote: IPEndpoint, seconds: Int, perSecond: Int?, json: Bool) throws(Failure) {
        let stopwatch = Stopwatch()
        var connections = 0
        repeat {
            if let perSecond {   // paced: connection n is due at n/perSecond s, never bunched to catch up
                let early = Double(connections) / Double(perSecond) - stopwatch.elapsedSeconds
                if early > 0 { usleep(useconds_t(early * 1e6)) }
            }
            do throws(Failure) {
                let client = try BlockingTCPClient.connect(to: remote)
                defer { client.abort() }
                try client.roundTrip(UInt8(truncatingIfNeeded: connections))
            } catch {
                throw Failure("connection \(connections + 1) after " + String(format: "%.1f s", stopwatch.elapsedSeconds) + ": \(error)")
            }
            connections += 1
        } while stopwatch.elapsedSeconds < Double(seconds)
        let elapsed = stopwatch.elapsedSeconds
        let report = ConnectionRateReport(connections: connections, seconds: (elapsed * 1_000).rounded() / 1_000,
                                          connectionsPerSecond: (Double(connections) / elapsed).rounded())
        if json {
            print(try encoded(report))
        } else {
            print("\(connections) connections to \(remote) in \(report.seconds) s: \(Int(report.connectionsPerSecond)) connections/s")
        }
    }

    /// Opens `count` connections, each proven by a round trip, then creates `readyFile` and keeps
    /// them open until that file is removed (or `holdLimitSeconds` pass). With `verify`, then
    /// makes one more round trip on every connection and prints how many answered
    /// ("verified K of N"); fails unless all did.
    static func hold(to remote: IPEndpoint, count: Int, readyFile: String, verify: Bool) throws(Failure) {
        try DescriptorLimit.raiseToHard()
        var clients: [BlockingTCPClient] = []
        clients.reserveCapacity(count)
        defer { clients.forEach { $0.close() } }
        for index in 0..<count {
            let client = try BlockingTCPClient.connect(to: remote)
            clients.append(client)
            try client.roundTrip(UInt8(truncatingIfNeeded: index))
        }
        let ready = open(readyFile, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard ready >= 0 else { throw Failure("cannot create \(readyFile)", errno: errno) }
        FileDescriptor.writeAll(ready, text: "\(count)\n")
        close(ready)
        let held = Stopwatch()
        while FileSystem.exists(readyFile) {
            guard held.elapsedSeconds < holdLimitSeconds else {
                Console.error("hold: \(readyFile) still there after \(Int(holdLimitSeconds)) s; closing anyway")
                break
            }
            usleep(20_000)
        }
        Console.progress("held \(count) connections to \(remote) for " + String(format: "%.1f s", held.elapsedSeconds))
        guard verify else { return }
        var answered = 0
        for (index, client) in clients.enumerated() {
            do {
                try client.roundTrip(UInt8(truncatingIfNeeded: index &+ 1))
                answered += 1
            } catch {
                if count - answered <= 5 { Console.error("hold: connection \(index): \(error)") }
            }
        }
        print("verified \(answered) of \(count)")
        guard answered == count else { throw Failure("hold: \(count - answered) of \(count) connections stopped answering") }
    }

    /// Microseconds to one decimal: finer is noise.
    private static func tenths(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    private static func encoded(_ report: some Encodable) throws(Failure) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        do { return String(decoding: try encoder.encode(report), as: UTF8.self) } catch {
            throw Failure("cannot write the report: \(error)")
        }
    }
}
