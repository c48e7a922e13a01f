#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Posix
import Shared
import Testing

/// The relay's outbound sockets against peers made of plain blocking sockets on loopback, with
/// the TCP socket driven by a running event loop.
@Suite("SocketConnection", .serialized)
struct SocketConnectionTests {
    static let loopback4 = IPAddress(parsing: "127.0.0.1")!

    @Test("a non-blocking connect completes through the loop; data flows both ways; a half-close lets the peer read EOF and still send")
    func tcpThroughTheLoop() throws {
        let listener = try Peer(.tcp, on: Self.loopback4)
        let running = try RunningLoop()
        defer { running.finish() }
        let loop = running.loop
        let events = Recorder<String>()
        let client = Recorder<TCPSocket>()

        running.sync {
            let (socket, start) = try! TCPSocket.connect(to: listener.endpoint)
            client.append(socket)
            events.append(start == .inProgress || start == .connected ? "started" : "\(start)")
            var connected = false
            // One handler: wait for the handshake with write interest, then read.
            try! loop.register(socket.descriptor, interest: .write) { _ in
                if !connected {
                    guard socket.finishConnect() == .connected else { return }
                    connected = true
                    events.append("connected")
                    try! loop.modify(socket.descriptor, interest: .read)
                    return
                }
                var buffer = [UInt8](repeating: 0, count: 64)
                switch buffer.withUnsafeMutableBytes({ socket.receive(into: $0) }) {
                case .received(let count): events.append("received \(String(decoding: buffer.prefix(count), as: UTF8.self))")
                case .endOfStream:
                    events.append("end of stream")
                    try! loop.unregister(socket.descriptor)
                case .wouldBlock: break
                case .failed(let code): events.append("failed \(code)")
                }
            }
        }
        #expect(events.wait(for: 2) == ["started", "connected"])
        let socket = try #require(client.values.first)
        let peer = try listener.accept()
        defer { close(peer) }
        #expect(socket.localEndpoint == Peer.remoteEndpoint(of: peer))

        #expect(write(peer, "hello", 5) == 5)
        #expect(events.wait(for: 3).last == "received hello")

        running.sync {
            #expect(Array("world".utf8).withUnsafeBytes { socket.send($0) } == .processed(5))
            #expect(throws: Never.self) { try socket.shutdownWrite() }
        }
        #expect(Peer.read(peer) == "world")
        #expect(Peer.read(peer) == "", "the peer reads end of stream after the half-close")
        #expect(write(peer, "after", 5) == 5, "and can still send")
        #expect(events.wait(for: 4).last == "received after")

        shutdown(peer, Int32(SHUT_WR))
        #expect(events.wait(for: 5).last == "end of stream")
        running.sync { socket.close() }
    }

    @Test("a connect to a closed port reports ECONNREFUSED, at once or through the loop")
    func refused() throws {
        let closedPort = try Peer(.tcp, on: Self.loopback4, listening: false).endpoint   // bound, then closed
        let running = try RunningLoop()
        defer { running.finish() }
        let loop = running.loop
        let outcome = Recorder<ConnectResult>()
        running.sync {
            let (socket, start) = try! TCPSocket.connect(to: closedPort)
            guard start == .inProgress else { outcome.append(start); return }
            try! loop.register(socket.descriptor, interest: .write) { _ in
                let result = socket.finishConnect()
                guard result != .inProgress else { return }
                try! loop.unregister(socket.descriptor)
                socket.close()
                outcome.append(result)
            }
        }
        let result = try #require(outcome.wait(for: 1).first)
        guard case .failed(let error) = result else {
            Issue.record("expected a refusal, got \(result)")
            return
        }
        #expect(error == SocketError(.connect, remote: closedPort, errno: ECONNREFUSED))
        #expect(error.description.contains("nothing listens on that port"))
        #expect(error.description.contains("127.0.0.1:\(closedPort.port)"))
    }

    @Test("a connected UDP socket exchanges whole datagrams", arguments: ["127.0.0.1", "::1"])
    func udpRoundTrip(address: String) throws {
        let peer = try Peer(.udp, on: try #require(IPAddress(parsing: address)))
        let socket = try UDPSocket(connectingTo: peer.endpoint)
        defer { socket.close() }
        let local = try #require(socket.localEndpoint)

        #expect(Array("ping".utf8).withUnsafeBytes { socket.send($0) } == .processed(4))
        let (request, source) = try peer.receiveDatagram()
        #expect(request == "ping")
        #expect(source == local)

        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(buffer.withUnsafeMutableBytes { socket.receive(into: $0) } == .wouldBlock)
        try peer.sendDatagram("pong", to: local)
        try peer.sendDatagram("", to: local)
        try peer.sendDatagram("far too long", to: local)
        #expect(Peer.waitReadable(socket.descriptor))
        #expect(buffer.withUnsafeMutableBytes { socket.receive(into: $0) } == .processed(4))
        #expect(String(decoding: buffer.prefix(4), as: UTF8.self) == "pong")
        #expect(Peer.waitReadable(socket.descriptor))
        #expect(buffer.withUnsafeMutableBytes { socket.receive(into: $0) } == .processed(0), "an empty datagram is no end of stream")
        #expect(Peer.waitReadable(socket.descriptor))
        #expect(buffer.withUnsafeMutableBytes { socket.receive(into: UnsafeMutableRawBufferPointer(rebasing: $0.prefix(4))) } == .failed(EMSGSIZE))
    }
}

/// The other end: a plain blocking socket bound to an ephemeral port on loopback, with a
/// five-second receive timeout so a failing test cannot hang.
final class Peer {
    enum Kind { case tcp, udp }

    let descriptor: Int32
    let endpoint: IPEndpoint

    init(_ kind: Kind, on address: IPAddress, listening: Bool = true) throws {
        let any = SocketAddress(IPEndpoint(address: address, port: 0))
        let opened = socket(any.family, Int32((kind == .tcp ? SOCK_STREAM : SOCK_DGRAM).rawValue | SOCK_CLOEXEC.rawValue), 0)
        try #require(opened >= 0)
        Peer.setTimeout(opened)
        try #require(any.withSockaddr { bind(opened, $0, $1) } == 0)
        endpoint = try #require(SocketAddress.of(opened)?.endpoint)
        if kind == .tcp && listening { try #require(listen(opened, 4) == 0) }
        // Not listening: the port is closed again at once, for a connect to be refused.
        if !listening { close(opened) }
        descriptor = listening ? opened : -1
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    func accept() throws -> Int32 {
        try #require(Peer.waitReadable(descriptor))
        let connection = Glibc.accept(descriptor, nil, nil)
        try #require(connection >= 0)
        Peer.setTimeout(connection)
        return connection
    }

    func receiveDatagram() throws -> (String, IPEndpoint?) {
        var buffer = [UInt8](repeating: 0, count: 64)
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let count = withUnsafeMutableBytes(of: &storage) { address in
            recvfrom(descriptor, &buffer, buffer.count, 0, address.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
        }
        try #require(count >= 0)
        return (String(decoding: buffer.prefix(count), as: UTF8.self), SocketAddress(storage: storage, length: length).endpoint)
    }

    func sendDatagram(_ text: String, to destination: IPEndpoint) throws {
        let sent = SocketAddress(destination).withSockaddr { address, length in
            Array(text.utf8).withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, 0, address, length) }
        }
        try #require(sent == text.utf8.count)
    }

    /// One read from a blocking stream socket as text ("" at end of stream).
    static func read(_ descriptor: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = Glibc.read(descriptor, &buffer, buffer.count)
        return count >= 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : nil
    }

    static func remoteEndpoint(of descriptor: Int32) -> IPEndpoint? {
        SocketAddress.of(descriptor, peer: true)?.endpoint
    }

    static func waitReadable(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 5000) == 1
    }

    private static func setTimeout(_ descriptor: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }
}
