#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PacketTunnel
import Posix
import Shared
import Testing
@testable import Linux

/// No failure of the tunnel's shell goes silent: the runtime over an in-memory device that fails
/// as a broken TUN does, and real loopback sockets that refuse, each counted or ending the tunnel
/// with its reason. No root needed.
@Suite("The tunnel runtime when its shell fails")
struct TunnelRuntimeFailureTests {
    typealias Tunnel = TunnelRuntimeTests.Tunnel
    static let deviceAddress = TunnelAddressing.ipv4Address

    /// What `onFailure` was told, and when first.
    final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var heard: [TunnelFailure] = []
        private let first = DispatchSemaphore(value: 0)

        func record(_ failure: TunnelFailure) {
            lock.lock()
            heard.append(failure)
            lock.unlock()
            first.signal()
        }

        /// Whether a first failure came within `timeout`.
        func first(within timeout: TimeInterval) -> Bool {
            first.wait(timeout: .now() + timeout) == .success
        }

        /// Everything heard so far: once the loop has ended (after `stop`), all it will say.
        var all: [TunnelFailure] {
            lock.lock()
            defer { lock.unlock() }
            return heard
        }
    }

    /// A loopback port nothing listens on: bound, then closed.
    static func closedPort(_ type: __socket_type) throws -> IPEndpoint {
        let descriptor = socket(AF_INET, Int32(type.rawValue | SOCK_CLOEXEC.rawValue), 0)
        defer { close(descriptor) }
        let loopback = IPEndpoint(address: IPAddress(parsing: "127.0.0.1")!, port: 0)
        guard SocketAddress(loopback).withSockaddr({ bind(descriptor, $0, $1) }) == 0,
              let bound = SocketAddress.of(descriptor)?.endpoint else { throw SocketError(.create, errno: errno) }
        return bound
    }

    @Test("reads that keep failing (EIO) end the tunnel with that reason, told once; stop still returns, twice")
    func persistentReadFailureEndsTheTunnel() async throws {
        let failures = Failures()
        let tunnel = try Tunnel { failures.record($0) }
        tunnel.device.failReads(with: EIO)
        try #require(failures.first(within: 2), "the tunnel went on spinning over a failing device")
        let expected = TunnelFailure.deviceReadFailed(errno: EIO, times: DeviceHealth.persistentAfter)
        #expect(tunnel.runtime.failure == expected)
        await tunnel.runtime.stop()
        await tunnel.runtime.stop()
        #expect(failures.all == [expected], "told once: the loop has ended, and said nothing more")
        #expect(tunnel.runtime.shellStats.device.readFailures == ["EIO": UInt64(DeviceHealth.persistentAfter)])
    }

    @Test("a full device queue drops the relay's answers, counted under EAGAIN, and the tunnel goes on")
    func aFullQueueIsCountedNotFatal() async throws {
        let server = try LoopbackEcho.udp()
        defer { server.stop() }
        let failures = Failures()
        let tunnel = try Tunnel { failures.record($0) }
        let device = IPEndpoint(address: Self.deviceAddress, port: 40_100)
        tunnel.device.refuseWrites(with: .wouldBlock)
        for _ in 0..<3 {
            tunnel.inject(try PacketEmitter.udp(source: device, destination: server.endpoint, payload: Data("lost".utf8)))
        }
        #expect(await tunnel.eventually { $0.shellStats.device.writeDrops == ["EAGAIN": 3] })
        tunnel.device.refuseWrites(with: nil)
        // A server of its own for the datagram that must come back: the loopback echo ends after
        // 10 s without a datagram, which a loaded parallel suite can take to get here.
        let second = try LoopbackEcho.udp()
        defer { second.stop() }
        tunnel.inject(try PacketEmitter.udp(source: device, destination: second.endpoint, payload: Data("kept".utf8)))
        let answer = try #require(tunnel.device.next(timeout: 10))
        #expect(answer.suffix(4) == Data("kept".utf8))
        #expect(failures.all.isEmpty && tunnel.runtime.failure == nil)
        await tunnel.runtime.stop()
    }

    @Test("a TCP connect to a closed port is counted under ECONNREFUSED; a UDP datagram the socket refuses is a lost send")
    func socketRefusalsAreCountedByKind() async throws {
        let tunnel = try Tunnel()
        let tcpTarget = try Self.closedPort(SOCK_STREAM)
        let client = IPEndpoint(address: Self.deviceAddress, port: 40_200)
        tunnel.inject(try PacketEmitter.tcp(source: client, destination: tcpTarget, sequence: 7, acknowledgment: 0,
                                            flags: .syn, windowSize: 65_535,
                                            options: TCPOptions(maximumSegmentSize: 1460), payload: Data()))
        #expect(await tunnel.eventually { $0.shellStats.sockets.connectFailuresByErrno == ["ECONNREFUSED": 1] })

        // Two datagrams in one batch to a closed UDP port: loopback answers the first with an ICMP
        // port unreachable before its send returns, so the socket refuses the second (ECONNREFUSED).
        let udpTarget = try Self.closedPort(SOCK_DGRAM)
        let datagram = try PacketEmitter.udp(source: client, destination: udpTarget, payload: Data("x".utf8))
        tunnel.device.inject(contentsOf: [datagram, datagram])
        #expect(await tunnel.eventually { $0.shellStats.sockets.udpSendsLost == 1 })
        let sockets = await tunnel.runtime.onLoop { $0.shellStats.sockets }
        #expect(sockets.connectFailures == 1 && sockets.socketFailures == 0 && sockets.sendFailures == 0)
        #expect(tunnel.runtime.failure == nil)
        await tunnel.runtime.stop()
    }
}
