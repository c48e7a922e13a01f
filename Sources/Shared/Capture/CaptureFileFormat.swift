/// Which of the two capture formats a file is, with what its opening says.
package enum CaptureFileFormat: Sendable, Hashable {
    /// Classic libpcap: one link type and snaplen for the whole file.
    case pcap(PcapFormat.GlobalHeader)
    /// pcapng: the interfaces its first section describes before its first packet (later ones,
    /// and later sections', are met as the file is read).
    case pcapng(leadingInterfaces: [PcapngInterface])

    /// "pcap" or "pcapng".
    package var name: String {
        switch self {
        case .pcap: "pcap"
        case .pcapng: "pcapng"
        }
    }

    /// The link type of the file, or of its first interface; nil for a pcapng file that describes none.
    package var linkType: UInt32? {
        switch self {
        case let .pcap(header): header.linkType
        case let .pcapng(interfaces): interfaces.first?.linkType
        }
    }

    /// The snaplen of the file, or of its first interface (0: no limit).
    package var snaplen: UInt32? {
        switch self {
        case let .pcap(header): header.snaplen
        case let .pcapng(interfaces): interfaces.first?.snaplen
        }
    }

    /// Some timestamps are finer than microseconds: they are shown with nine digits.
    package var hasSubMicrosecondTimestamps: Bool {
        switch self {
        case let .pcap(header): header.hasNanosecondTimestamps
        case let .pcapng(interfaces): interfaces.contains { $0.timestampResolution.isFinerThanMicroseconds }
        }
    }
}
