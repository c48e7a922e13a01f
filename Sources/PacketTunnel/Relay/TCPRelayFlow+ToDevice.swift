import Foundation
import Shared

extension TCPRelayFlow {
    /// The server → device direction: RFC 9293's send sequence variables and the bytes kept until
    /// the device acknowledges them.
    struct ToDevice: Sendable {
        /// ISS: our SYN-ACK's sequence number.
        let initial: SequenceNumber
        /// SND.UNA: the oldest byte (or SYN, or FIN) not yet acknowledged.
        var unacknowledged: SequenceNumber
        /// SND.NXT: the next sequence number to send.
        var next: SequenceNumber
        /// Sequence number of `pending`'s first byte.
        var pendingStart: SequenceNumber
        /// Sent-but-unacknowledged bytes, then not-yet-sent ones; at most `maxToDeviceBytes`.
        var pending = ByteQueue()
        /// The device's window in bytes, scale applied.
        var window = 0
        var windowShift = 0
        var deviceOfferedScale = false
        /// min(the device's MSS, ours).
        var segmentSize: Int
        var serverClosed = false
        var finSent = false
        var readsPaused = false

        init(initial: SequenceNumber, segmentSize: Int) {
            self.initial = initial
            unacknowledged = initial
            next = initial
            pendingStart = initial + 1
            self.segmentSize = segmentSize
        }

        var pendingEnd: SequenceNumber { pendingStart + pending.count }
        var hasUnsent: Bool { next < pendingEnd }
        /// The device's window less what is in flight; negative when the device shrank it.
        var usableWindow: Int { window - (next - unacknowledged) }

        /// A slice of what is held when the range lies in one chunk read from the server.
        func bytes(at sequence: SequenceNumber, count: Int) -> Data {
            pending.bytes(at: sequence - pendingStart, count: count)
        }
    }

    /// A segment to the device carrying our current ACK and window: scaled down (rounding
    /// down, so it never promises room there is not), except on a SYN (RFC 7323 §2.2).
    mutating func makeSegment(flags: TCPFlags, sequence: SequenceNumber, payload: Data = Data()) -> OutboundSegment {
        let shift = flags.contains(.syn) ? 0 : fromDevice.windowShift
        let field = min(receiveWindow >> shift, Int(UInt16.max))
        fromDevice.advertised = field << shift
        return OutboundSegment(sequence: sequence, acknowledgment: fromDevice.next, flags: flags,
                               window: UInt16(field), payload: payload)
    }

    /// A bare ACK at SND.NXT.
    mutating func acknowledgment() -> TCPRelayAction {
        .segmentToDevice(makeSegment(flags: .ack, sequence: toDevice.next))
    }

    /// SYN-ACK at ISS, announcing our MSS, and our window's scale when the device offered one
    /// (RFC 7323 §2.2: either side scales only if both sent the option).
    mutating func sendSynAck(into actions: inout [TCPRelayAction]) {
        var synAck = makeSegment(flags: [.syn, .ack], sequence: toDevice.initial)
        synAck.maximumSegmentSize = config.maximumSegmentSize
        synAck.windowScale = toDevice.deviceOfferedScale ? UInt8(fromDevice.windowShift) : nil
        toDevice.next = toDevice.initial + 1
        actions.append(.segmentToDevice(synAck))
    }

    /// Takes the device's ACK field and window (RFC 9293 §3.10.7.4, fifth check): frees what it
    /// acknowledges and moves the states our FIN waits in. Returns whether it acknowledged new
    /// sequence space. An old ACK (below SND.UNA) changes nothing, its window included.
    mutating func acknowledge(_ segment: InboundSegment) -> Bool {
        let ack = segment.acknowledgment
        guard ack >= toDevice.unacknowledged else { return false }
        toDevice.window = Int(segment.window) << toDevice.windowShift
        guard ack > toDevice.unacknowledged else { return false }
        let freed = min(max(0, ack - toDevice.pendingStart), toDevice.pending.count)
        toDevice.pending.removeFirst(freed)
        toDevice.pendingStart += freed
        toDevice.unacknowledged = ack
        timeoutsInARow = 0
        if toDevice.finSent && ack == toDevice.next {
            switch state {
            case .finWait1: state = .finWait2
            case .closing, .lastAck: state = .closed(.completed)
            default: break
            }
        }
        return true
    }

    /// Sends what the device's window allows, in segments of at most `segmentSize`; PSH marks
    /// the last byte queued, and once the server has closed, our FIN rides on it (or goes alone:
    /// a FIN needs no window).
    mutating func transmit(into actions: inout [TCPRelayAction]) {
        guard mayTransmit else { return }
        // With segmentation offload a segment may be far longer than the MSS: the device cuts it.
        let largestSegment = config.segmentationOffload ? Config.largestOffloadedPayload : toDevice.segmentSize
        while toDevice.hasUnsent && toDevice.usableWindow > 0 {
            let sequence = toDevice.next
            let size = min(largestSegment, toDevice.pendingEnd - sequence, toDevice.usableWindow)
            let payload = toDevice.bytes(at: sequence, count: size)
            toDevice.next += size
            var flags: TCPFlags = .ack
            if !toDevice.hasUnsent {
                flags.insert(.psh)
                if toDevice.serverClosed {
                    flags.insert(.fin)
                    didSendFin()
                }
            }
            var segment = makeSegment(flags: flags, sequence: sequence, payload: payload)
            if size > toDevice.segmentSize { segment.deviceSegmentSize = toDevice.segmentSize }
            actions.append(.segmentToDevice(segment))
        }
        if toDevice.serverClosed && !toDevice.hasUnsent && !toDevice.finSent {
            let sequence = toDevice.next
            didSendFin()
            actions.append(.segmentToDevice(makeSegment(flags: [.fin, .ack], sequence: sequence)))
        }
    }

    /// On a timeout: the oldest unacknowledged segment again, with its FIN if it reaches it; with
    /// nothing in flight and a zero window, a one-byte probe past the window (RFC 9293 §3.8.6.1).
    mutating func retransmitOldest(into actions: inout [TCPRelayAction]) {
        let oldest = toDevice.unacknowledged
        guard oldest == toDevice.next else {
            let size = min(toDevice.segmentSize, min(toDevice.next, toDevice.pendingEnd) - oldest)
            var flags: TCPFlags = .ack
            if oldest + size == toDevice.pendingEnd {
                if size > 0 { flags.insert(.psh) }
                if toDevice.finSent { flags.insert(.fin) }
            }
            let payload = toDevice.bytes(at: oldest, count: size)
            actions.append(.segmentToDevice(makeSegment(flags: flags, sequence: oldest, payload: payload)))
            return
        }
        guard mayTransmit, toDevice.hasUnsent else { return }
        let probe = toDevice.bytes(at: oldest, count: 1)
        toDevice.next += 1
        actions.append(.segmentToDevice(makeSegment(flags: toDevice.hasUnsent ? .ack : [.ack, .psh],
                                                    sequence: oldest, payload: probe)))
        transmit(into: &actions)                                       // the FIN, if that was the last byte
    }

    private mutating func didSendFin() {
        toDevice.finSent = true
        toDevice.next += 1
        switch state {
        case .established: state = .finWait1
        case .closeWait: state = .lastAck
        default: break
        }
    }
}
