#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Posix
import Shared

/// `tvlab net mix`: the soak's traffic, at a steady pace for S seconds — long-lived connections
/// each making a round trip every cycle, short connections opened, used and closed, an HTTP/1.0
/// download, and a UDP exchange — then one JSON line of what was done and what failed.
enum MixedTraffic {
    static let heldConnections = 100
    static let shortConnectionsPerCycle = 20
    static let cycleSeconds = 1.0

    struct Tally: Encodable {
        var cycles = 0
        var heldRoundTrips = 0
        var heldFailures = 0
        var shortConnections = 0
        var shortFailures = 0
        var httpBytes = 0
        var httpFailures = 0
        var udpExchanges = 0
        var udpFailures = 0
    }

    static func run(host: String, echoPort: UInt16, httpPort: UInt16, httpPath: String, udpPort: UInt16, seconds: Int) throws(Failure) {
        try DescriptorLimit.raiseToHard()
        guard let address = IPAddress(parsing: host) else { throw Failure("mix: \(host) is not an IP address") }
        let echo = IPEndpoint(address: address, port: echoPort)
        var held: [BlockingTCPClient] = []
        defer { held.forEach { $0.close() } }
        for _ in 0..<heldConnections { held.append(try BlockingTCPClient.connect(to: echo)) }
        var tally = Tally()
        let clock = Stopwatch()
        while clock.elapsedSeconds < Double(seconds) {
            let cycleStart = clock.elapsedSeconds
            tally.cycles += 1
            for (index, client) in held.enumerated() {
                do {
                    try client.roundTrip(UInt8(truncatingIfNeeded: tally.cycles &+ index))
                    tally.heldRoundTrips += 1
                } catch { tally.heldFailures += 1 }
            }
            for index in 0..<shortConnectionsPerCycle {
                do {
                    let client = try BlockingTCPClient.connect(to: echo)
                    defer { client.close() }
                    try client.roundTrip(UInt8(truncatingIfNeeded: index))
                    tally.shortConnections += 1
                } catch { tally.shortFailures += 1 }
            }
            if let bytes = try? download(from: IPEndpoint(address: address, port: httpPort), path: httpPath) {
                tally.httpBytes += bytes
            } else {
                tally.httpFailures += 1
            }
            if exchangeDatagram(with: IPEndpoint(address: address, port: udpPort), cycle: tally.cycles) {
                tally.udpExchanges += 1
            } else {
                tally.udpFailures += 1
            }
            let rest = cycleSeconds - (clock.elapsedSeconds - cycleStart)
            if rest > 0 { usleep(UInt32(rest * 1_000_000)) }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(tally) else { throw Failure("mix: cannot encode the tally") }
        print(String(decoding: data, as: UTF8.self))
    }

    /// An HTTP/1.0 GET read to the server's close; the bytes received, headers included.
    static func download(from server: IPEndpoint, path: String) throws(Failure) -> Int {
        let client = try BlockingTCPClient.connect(to: server)
        defer { client.close() }
        let request = Array("GET \(path) HTTP/1.0\r\nHost: \(server.address)\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ Glibc.send(client.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            throw Failure("mix: cannot send the request", errno: errno)
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(client.descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return total }
            guard count > 0 else {
                if errno == EINTR { continue }
                throw Failure("mix: download failed", errno: errno)
            }
            total += count
        }
    }

    /// One datagram to the UDP echo and its answer within a second.
    static func exchangeDatagram(with server: IPEndpoint, cycle: Int) -> Bool {
        let address = SocketAddress(server)
        let descriptor = socket(address.family, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let message = Array("soak \(cycle)".utf8)
        let sent = message.withUnsafeBytes { bytes in
            address.withSockaddr { sendto(descriptor, bytes.baseAddress, bytes.count, 0, $0, $1) }
        }
        guard sent == message.count else { return false }
        var reply = [UInt8](repeating: 0, count: 512)
        let received = reply.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return received == message.count
    }
}
