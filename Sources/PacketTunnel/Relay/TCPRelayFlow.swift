import Foundation
import Shared

/// One relayed TCP connection as a pure state machine: toward the device it plays the server
/// (handshake, cumulative ACKs, retransmission, close); toward the server it only asks the shell
/// to connect, write, half-close and read, because the shell's kernel socket runs the real TCP.
///
/// Every event is a `mutating func` that returns the actions to perform, in order. The flow does
/// no I/O and reads no clock: the shell arms `retransmitTimer` and calls `retransmitTimeout`.
/// The two directions are independent 32-bit sequence spaces, compared only as `SequenceNumber`.
///
/// Simplifications, each deliberate: no delayed ACK (every data segment is acknowledged at once,
/// which is cheap on a local tunnel); no RTT estimate (the RTO starts at `initialRetransmitTimeout`
/// and backs off); no congestion control toward the device (the tunnel is not a shared path, and
/// the device's window bounds what is in flight); no TIME-WAIT (the device's kernel keeps its own);
/// an out-of-order FIN is dropped and accepted when the device resends it in order.
package struct TCPRelayFlow: Sendable {
    /// RFC 9293 §3.3.2's states, from the relay's side (it is the passive opener), plus the wait
    /// for the server that the deferred SYN-ACK adds.
    package enum State: Sendable, Equatable {
        /// Nothing seen yet; only a SYN opens the flow.
        case listen
        /// SYN seen, `connectToServer` asked; the device hears nothing until the server answers.
        case connecting
        /// SYN-ACK sent; waiting for the device's ACK of it.
        case synReceived
        case established
        /// The device's FIN is in; the server may still send.
        case closeWait
        /// Our FIN (the server's EOF) is out, unacknowledged; the device may still send.
        case finWait1
        /// Our FIN is acknowledged; the device may still send.
        case finWait2
        /// Both FINs are in; ours was sent first and is unacknowledged.
        case closing
        /// Both FINs are in; the device's came first and ours is unacknowledged.
        case lastAck
        case closed(TCPRelayEnding)
    }

    /// A request to the shell: call `retransmitTimeout(generation:)` after `interval` unless the
    /// timer changes first. A new generation means "restart".
    package struct RetransmitTimer: Sendable, Equatable {
        package let generation: UInt32
        package let interval: Duration
    }

    package let key: FlowKey
    package let device: IPEndpoint
    package let server: IPEndpoint
    package let config: Config
    package internal(set) var state: State = .listen
    /// nil when nothing waits for an acknowledgment from the device.
    package internal(set) var retransmitTimer: RetransmitTimer?

    /// Device → server (RFC 9293's receive sequence space).
    var fromDevice: FromDevice
    /// Server → device (RFC 9293's send sequence space).
    var toDevice: ToDevice
    /// Timeouts since the device last acknowledged something new.
    var timeoutsInARow = 0
    var timerGeneration: UInt32 = 0

    /// `initialSequence` is our ISN toward the device; the shell draws it at random (RFC 9293
    /// §3.4.1 wants it unpredictable), tests choose it.
    package init(key: FlowKey, device: IPEndpoint, server: IPEndpoint, config: Config = Config(),
                 initialSequence: SequenceNumber) {
        self.key = key
        self.device = device
        self.server = server
        self.config = config
        fromDevice = FromDevice(config: config)
        toDevice = ToDevice(initial: initialSequence,
                            segmentSize: Int(Config.defaultDeviceSegmentSize(device.address.version)))
    }

    /// How many bytes the shell may read from the server socket now and hand to
    /// `receiveFromServer`.
    package var serverReadAllowance: Int { max(0, config.maxToDeviceBytes - toDevice.pending.count) }

    var isClosed: Bool { if case .closed = state { true } else { false } }

    // MARK: - Server events

    /// The server accepted the connection: answer the device's SYN at last.
    package mutating func serverDidConnect() -> [TCPRelayAction] {
        guard state == .connecting else { return [] }
        state = .synReceived
        var actions: [TCPRelayAction] = []
        sendSynAck(into: &actions)
        updateTimer(restart: false)
        return actions
    }

    /// Bytes read from the server socket, at most `serverReadAllowance` of them.
    package mutating func receiveFromServer(_ data: Data) -> [TCPRelayAction] {
        guard !data.isEmpty, canQueueServerBytes else { return [] }
        guard data.count <= serverReadAllowance else {
            return abort(.deviceBufferOverflow)
        }
        toDevice.pending.append(data)
        var actions: [TCPRelayAction] = []
        transmit(into: &actions)
        if serverReadAllowance == 0 && !toDevice.readsPaused {
            toDevice.readsPaused = true
            actions.append(.pauseServerReads)
        }
        updateTimer(restart: false)
        return actions
    }

    /// The server sent its FIN (EOF on the socket): ours follows the last queued byte.
    package mutating func serverDidCloseSend() -> [TCPRelayAction] {
        guard canQueueServerBytes else { return [] }
        toDevice.serverClosed = true
        var actions: [TCPRelayAction] = []
        transmit(into: &actions)
        updateTimer(restart: false)
        return actions
    }

    /// The server connection failed: before it connected, the device hears "connection refused"
    /// (RST+ACK to its SYN, RFC 9293 §3.10.7.2); after, RST at our next sequence (§3.10.7.4).
    package mutating func serverDidFail() -> [TCPRelayAction] {
        switch state {
        case .listen, .closed:
            return []
        case .connecting:
            state = .closed(.serverRefused)
            retransmitTimer = nil
            let refusal = OutboundSegment(sequence: 0, acknowledgment: fromDevice.next, flags: [.rst, .ack], window: 0)
            return [.segmentToDevice(refusal), .teardown(.serverRefused)]
        default:
            return abort(.serverFailed)
        }
    }

    /// The server socket took `byteCount` more of the bytes given in `sendToServer`: the window
    /// toward the device reopens by as much. It is announced on its own only when it grew by a
    /// segment or more (RFC 9293 §3.8.6.2.2) and to at least twice what the device was last told,
    /// as Linux's receiver does (`tcp_cleanup_rbuf`): while the device can still send half of it,
    /// the ACK of what it sends next carries the larger window. A socket that takes each segment
    /// at once — the usual upload — so costs one ACK per segment, not two.
    package mutating func serverDidDrain(byteCount: Int) -> [TCPRelayAction] {
        guard !isClosed else { return [] }
        fromDevice.unconfirmed = max(0, fromDevice.unconfirmed - byteCount)
        guard acceptsDeviceData, state != .synReceived else { return [] }
        let threshold = min(Int(config.maximumSegmentSize), maxReceiveWindow / 2)
        let window = receiveWindow
        guard window - fromDevice.advertised >= max(1, threshold), window >= 2 * fromDevice.advertised else { return [] }
        return [.segmentToDevice(makeSegment(flags: .ack, sequence: toDevice.next))]
    }

    // MARK: - Time

    /// The shell's timer for `generation` fired: resend the oldest unacknowledged segment (or
    /// probe a zero window), back off, and give up after `Config.maxRetransmits` in a row.
    package mutating func retransmitTimeout(generation: UInt32) -> [TCPRelayAction] {
        guard let timer = retransmitTimer, timer.generation == generation, !isClosed else { return [] }
        timeoutsInARow += 1
        guard timeoutsInARow <= config.maxRetransmits else { return abort(.retransmitsExhausted) }
        var actions: [TCPRelayAction] = []
        if state == .synReceived {
            sendSynAck(into: &actions)
        } else {
            retransmitOldest(into: &actions)
        }
        updateTimer(restart: true)
        return actions
    }

    // MARK: - Shared steps

    /// RST to the device at our next sequence, then teardown.
    mutating func abort(_ ending: TCPRelayEnding) -> [TCPRelayAction] {
        state = .closed(ending)
        retransmitTimer = nil
        let reset = OutboundSegment(sequence: toDevice.next, acknowledgment: 0, flags: .rst, window: 0)
        return [.segmentToDevice(reset), .teardown(ending)]
    }

    /// Arms, restarts or clears the timer after an event: armed while something awaits the
    /// device's acknowledgment or a zero window holds data back (the persist case, RFC 9293
    /// §3.8.6.1); restarted when new data was acknowledged or a timeout fired (RFC 6298 §5.3, §5.6).
    mutating func updateTimer(restart: Bool) {
        let waiting = toDevice.next != toDevice.unacknowledged
            || (toDevice.hasUnsent && toDevice.usableWindow <= 0 && mayTransmit)
        guard waiting, !isClosed else {
            retransmitTimer = nil
            return
        }
        guard restart || retransmitTimer == nil else { return }
        timerGeneration &+= 1
        let backoff = config.initialRetransmitTimeout * (1 << min(timeoutsInARow, 20))
        retransmitTimer = RetransmitTimer(generation: timerGeneration,
                                          interval: min(backoff, config.maxRetransmitTimeout))
    }

    /// Server bytes (and the server's FIN) are taken until the server's FIN, once connected.
    var canQueueServerBytes: Bool {
        switch state {
        case .synReceived, .established, .closeWait: !toDevice.serverClosed
        default: false
        }
    }

    /// Until the device's FIN is in.
    var acceptsDeviceData: Bool {
        switch state {
        case .synReceived, .established, .finWait1, .finWait2: true
        default: false
        }
    }

    /// Data may go to the device until our FIN is out.
    var mayTransmit: Bool { state == .established || state == .closeWait }
}
