import Shared

/// Whether a TCP segment on a 5-tuple that is already known begins another connection: the
/// kernel reuses source ports, so one 5-tuple carries connection after connection. The flow table
/// and the relay ask the same question, so a new lifetime in the history is a new relayed
/// connection too.
package enum TCPConnectionStart {
    /// A segment opens a connection when it is a SYN without ACK (RFC 9293 §3.5); on a known
    /// 5-tuple it opens *another* one when the previous lifetime ended (FIN both ways or RST), or
    /// when its initial sequence number is not the one that opened the lifetime — a retransmitted
    /// SYN carries the same ISN, a new connection a fresh one (§3.4.1), and a lifetime that began
    /// without a SYN (seen mid-stream) has no ISN to repeat.
    package static func beginsAnotherConnection(flags: TCPFlags, sequence: UInt32, openingSequence: UInt32?,
                                                previousEnded: Bool) -> Bool {
        guard opensConnection(flags) else { return false }
        return previousEnded || openingSequence != sequence
    }

    /// A SYN without ACK or RST: the first segment of a connection.
    static func opensConnection(_ flags: TCPFlags) -> Bool {
        flags.contains(.syn) && !flags.contains(.ack) && !flags.contains(.rst)
    }
}
