/// What reading a capture file through the pipeline found: its conversations, and what it could
/// not read. Made by `CaptureAnalysis` (the shell), shown by `AnalysisReport`.
package struct AnalyzedCapture: Sendable {
    /// One conversation: its flow record (lifetimes of one 5-tuple folded) and which side began it.
    package struct Conversation: Sendable {
        package let record: FlowRecord
        /// The side that spoke first (for TCP, the side that sent the SYN); nil if unknown.
        package let client: IPEndpoint?
        /// Where it began in the capture: its first datagram's place among the capture's IP
        /// datagrams (1 is the first). Orders conversations that began at the same instant.
        package let firstDatagram: Int

        package init(record: FlowRecord, client: IPEndpoint?, firstDatagram: Int = 0) {
            self.record = record
            self.client = client
            self.firstDatagram = firstDatagram
        }

        /// Began before `other`: earlier, or at the same instant earlier in the capture.
        package func began(before other: Conversation) -> Bool {
            Self.began(record.firstSeen, firstDatagram, before: other.record.firstSeen, other.firstDatagram)
        }

        /// `began(before:)` on what it compares, for an owner that orders conversations before
        /// building them.
        package static func began(_ firstSeen: UInt64, _ firstDatagram: Int,
                                 before otherFirstSeen: UInt64, _ otherFirstDatagram: Int) -> Bool {
            (firstSeen, firstDatagram) < (otherFirstSeen, otherFirstDatagram)
        }
    }

    package let path: String
    /// "pcap" or "pcapng".
    package let format: String
    /// The file's link type, or its first pcapng interface's; nil when a pcapng file describes none.
    package let linkType: UInt32?
    package let packets: Int
    /// Frames that carry something other than IP (ARP, LLDP…).
    package let nonIPFrames: Int
    /// IP datagrams the parser refused (counted, not analyzed).
    package let unreadablePackets: Int
    package let conversations: [Conversation]
    /// Where the file stopped being readable, if it did (what came before was analyzed).
    package let damage: String?
    /// Out-of-order TCP data not held for the scanners, over every conversation.
    package let outOfOrderDrops: OutOfOrderDrops
    /// Every counted packet, stamped with its capture time as nanoseconds since 1970 — when the
    /// reading was asked to keep them (for a history); empty otherwise.
    package var recordedPackets: [PacketMeta] = []

    package init(path: String, format: String = "pcap", linkType: UInt32?, packets: Int, nonIPFrames: Int, unreadablePackets: Int,
                conversations: [Conversation], damage: String?, outOfOrderDrops: OutOfOrderDrops = .none) {
        self.path = path
        self.format = format
        self.linkType = linkType
        self.packets = packets
        self.nonIPFrames = nonIPFrames
        self.unreadablePackets = unreadablePackets
        self.conversations = conversations
        self.damage = damage
        self.outOfOrderDrops = outOfOrderDrops
    }
}
