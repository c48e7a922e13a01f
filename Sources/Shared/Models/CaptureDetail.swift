/// How much of each packet the capture keeps. Raw values are the settings' JSON.
package enum CaptureDetail: String, Sendable, Hashable, Codable, CaseIterable {
    /// Headers only: 128 bytes hold an IPv6 header (40) plus TCP with every option (60).
    case metadataOnly
    /// Whole packets (the default), up to libpcap's own ceiling of 262 144 bytes.
    case fullPayload

    /// The pcap snaplen this detail writes into each file's global header.
    package var snaplen: UInt32 {
        switch self {
        case .metadataOnly: 128
        case .fullPayload: 262_144
        }
    }
}
