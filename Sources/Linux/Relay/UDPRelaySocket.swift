import Foundation
import PacketTunnel
import Posix
import Shared

/// One UDP leg: datagrams out as they come, datagrams back as the socket delivers them.
final class UDPRelaySocket: RelayConnection {
    let key: FlowKey
    var socket: UDPSocket?
    unowned let connector: SocketRelayConnector

    init(key: FlowKey, socket: UDPSocket, connector: SocketRelayConnector) {
        self.key = key
        self.socket = socket
        self.connector = connector
    }

    func readable() {
        connector.loop.assertOnLoopThread()
        guard let socket else { return }
        let key = key
        // Up to a few datagrams per turn; the loop comes back for the rest (level-triggered).
        for _ in 0..<16 {
            let result = connector.readBuffer.withUnsafeMutableBytes { socket.receive(into: $0) }
            if case .failed(let code) = result {
                connector.stats.count(SocketError(.receive, remote: socket.remote, errno: code))
                if code == ECONNREFUSED { connector.relay?.serverRefusedDatagram(key) }
            }
            guard case .processed(let count) = result else { return }
            let data = Data(connector.readBuffer[..<count])
            connector.relay?.serverDidReceive(key, data)
            guard self.socket != nil else { return }
        }
    }

    func send(_ data: Data) {
        connector.loop.assertOnLoopThread()
        guard let socket else { return }
        // A datagram that cannot go (the buffer full, an ICMP error for an earlier one) is lost, as
        // on the wire, and counted; a port said closed is answered as the server's host answered.
        let result = data.withUnsafeBytes { socket.send($0) }
        guard case .processed = result else {
            connector.stats.udpSendsLost += 1
            if case .failed(let code) = result, code == ECONNREFUSED { connector.relay?.serverRefusedDatagram(key) }
            return
        }
    }

    func shutdownWrite() {}
    func setReading(_ enabled: Bool) {}

    /// A datagram socket has no reset to send.
    func reset() { cancel() }

    func cancel() {
        connector.loop.assertOnLoopThread()
        guard let socket else { return }
        try? connector.loop.unregister(socket.descriptor)
        socket.close()
        self.socket = nil
    }
}
