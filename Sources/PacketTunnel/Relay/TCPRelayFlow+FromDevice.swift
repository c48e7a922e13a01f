import Foundation
import Shared

extension TCPRelayFlow {
    /// The device → server direction: RFC 9293's receive sequence variables and what the server
    /// socket has not taken yet.
    struct FromDevice: Sendable {
        /// RCV.NXT: the next byte expected from the device; everything before it is acknowledged.
        var next: SequenceNumber = 0
        var outOfOrder: OutOfOrderQueue
        /// Bytes handed over in `sendToServer` that the server socket has not taken yet.
        var unconfirmed = 0
        /// The window on the last segment sent (scale applied), to tell when a window update is
        /// worth sending.
        var advertised = 0
        /// Our window's scale: `Config.receiveWindowShift` once the device offered scaling, else 0.
        var windowShift = 0

        init(config: Config) {
            outOfOrder = OutOfOrderQueue(maxBytes: config.maxOutOfOrderBytes, maxPieces: config.maxOutOfOrderSegments)
        }
    }

    /// A segment from the device: its RST, SYN, ACK, data and FIN, in RFC 9293 §3.10.7.4's order.
    package mutating func receiveFromDevice(_ segment: InboundSegment) -> [TCPRelayAction] {
        switch state {
        case .closed:
            return []
        case .listen:
            return open(with: segment)
        case .connecting:
            // Still waiting for the server: a repeated SYN changes nothing; an RST ends the flow.
            return segment.flags.contains(.rst) ? end(.deviceReset) : []
        default:
            return receiveSynchronized(segment)
        }
    }

    /// The largest window the flow can advertise with its scale.
    var maxReceiveWindow: Int { min(Int(UInt16.max) << fromDevice.windowShift, config.maxToServerBytes) }

    /// What is left of `maxToServerBytes`. Bytes accepted move RCV.NXT forward by as much as they
    /// shrink the window, so the limit's right edge never moves left; the advertised edge may
    /// fall back by less than one scale unit, which RFC 7323 §2.4 lets a sender expect.
    var receiveWindow: Int { max(0, min(maxReceiveWindow, config.maxToServerBytes - fromDevice.unconfirmed)) }

    /// Ends the flow without a word to the device.
    mutating func end(_ ending: TCPRelayEnding) -> [TCPRelayAction] {
        state = .closed(ending)
        retransmitTimer = nil
        return [.teardown(ending)]
    }

    private mutating func open(with syn: InboundSegment) -> [TCPRelayAction] {
        guard syn.flags.contains(.syn), !syn.flags.contains(.ack), !syn.flags.contains(.rst) else {
            guard let reset = OutboundSegment.reset(answering: syn) else { return end(.notASyn) }
            return [.segmentToDevice(reset)] + end(.notASyn)
        }
        // Data on the SYN (TCP Fast Open) is not acknowledged: the device sends it again.
        fromDevice.next = syn.sequence + 1
        toDevice.window = Int(syn.window)                  // a SYN's window is never scaled (RFC 7323 §2.2)
        if let shift = syn.windowScale {
            toDevice.deviceOfferedScale = true
            toDevice.windowShift = min(Int(shift), 14)     // RFC 7323 §2.3
            fromDevice.windowShift = config.receiveWindowShift
        }
        let deviceSegmentSize = syn.maximumSegmentSize ?? Config.defaultDeviceSegmentSize(device.address.version)
        toDevice.segmentSize = max(1, Int(min(deviceSegmentSize, config.maximumSegmentSize)))
        state = .connecting
        return [.connectToServer]
    }

    private mutating func receiveSynchronized(_ segment: InboundSegment) -> [TCPRelayAction] {
        if segment.flags.contains(.rst) {
            // An RST counts only inside the receive window (RFC 9293 §3.10.7.4); elsewhere it is stale.
            let offset = segment.sequence - fromDevice.next
            return offset >= 0 && offset < max(receiveWindow, 1) ? end(.deviceReset) : []
        }
        if segment.flags.contains(.syn) {
            var actions: [TCPRelayAction] = []
            if state == .synReceived && segment.sequence + 1 == fromDevice.next {
                sendSynAck(into: &actions)                 // our SYN-ACK was lost: the device repeats
            } else {
                actions.append(acknowledgment())           // challenge ACK (RFC 5961 §4)
            }
            return actions
        }
        guard segment.flags.contains(.ack) else { return [] }
        if state == .synReceived {
            guard segment.acknowledgment == toDevice.initial + 1 else {
                return [.segmentToDevice(OutboundSegment(sequence: segment.acknowledgment, acknowledgment: 0,
                                                         flags: .rst, window: 0))]
            }
            state = .established
        }
        guard segment.acknowledgment <= toDevice.next else { return [acknowledgment()] }

        let acknowledgedNew = acknowledge(segment)
        var actions: [TCPRelayAction] = []
        let owesAcknowledgment = !segment.payload.isEmpty || segment.flags.contains(.fin)
        if owesAcknowledgment { accept(segment, into: &actions) }
        let beforeTransmit = actions.count
        transmit(into: &actions)
        if owesAcknowledgment && actions.count == beforeTransmit { actions.append(acknowledgment()) }
        if toDevice.readsPaused && !toDevice.serverClosed && serverReadAllowance * 2 >= config.maxToDeviceBytes {
            toDevice.readsPaused = false
            actions.append(.resumeServerReads)
        }
        updateTimer(restart: acknowledgedNew)
        if case .closed(let ending) = state { actions.append(.teardown(ending)) }
        return actions
    }

    /// Takes the segment's bytes that are new and inside the window: in order they go to the
    /// server at once, with whatever they make contiguous; ahead of a gap they wait, bounded.
    /// Bytes already received are never handed over again.
    private mutating func accept(_ segment: InboundSegment, into actions: inout [TCPRelayAction]) {
        guard acceptsDeviceData else { return }
        var start = segment.sequence
        var payload = segment.payload[...]
        let alreadyReceived = fromDevice.next - start
        if alreadyReceived > 0 {
            guard alreadyReceived <= payload.count else { return }    // wholly old, its FIN too
            payload = payload.dropFirst(alreadyReceived)
            start = fromDevice.next
        }
        let room = receiveWindow - (start - fromDevice.next)
        var finIsIn = segment.flags.contains(.fin)
        if payload.count > room {
            payload = payload.prefix(max(0, room))                    // beyond the window: dropped
            finIsIn = false
        }
        guard start == fromDevice.next else {
            if !payload.isEmpty { fromDevice.outOfOrder.insert(Data(payload), at: start) }
            return
        }
        var delivered = payload                                       // a slice of the datagram, not a copy
        fromDevice.next += payload.count
        if finIsIn {
            fromDevice.next += 1
            fromDevice.outOfOrder.removeAll()                         // nothing can follow a FIN
        } else {
            delivered.append(fromDevice.outOfOrder.take(from: &fromDevice.next))
        }
        if !delivered.isEmpty {
            fromDevice.unconfirmed += delivered.count
            actions.append(.sendToServer(delivered))
        }
        if finIsIn {
            actions.append(.closeServerSend)
            deviceDidFinish()
        }
    }

    private mutating func deviceDidFinish() {
        switch state {
        case .established: state = .closeWait
        case .finWait1: state = .closing
        case .finWait2: state = .closed(.completed)
        default: break
        }
    }
}
