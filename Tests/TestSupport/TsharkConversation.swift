import Foundation

/// What tshark read of one capture: how many frames it holds, and every TCP and UDP conversation
/// (`tcp.stream`, `udp.stream`) in the order each began.
package struct TsharkReading: Sendable {
    package var frames: Int
    /// Frames with neither an IPv4 nor an IPv6 header (ARP, say).
    package var framesWithoutIP: Int
    package var conversations: [TsharkConversation]

    /// Every DNS response of the capture, in frame order.
    package var dnsResponses: [TsharkDNSMessage] {
        conversations.flatMap(\.dnsMessages).filter(\.isResponse).sorted { $0.frame < $1.frame }
    }

    /// The names asked in DNS responses before `frame` whose answers hold `address` (A or AAAA).
    package func namesResolved(to address: String, before frame: Int) -> Set<String> {
        Set(dnsResponses.filter { $0.frame < frame && $0.addresses.contains(address) }.flatMap(\.questions))
    }
}

/// One conversation as tshark dissected it. The client is the side that sent its first packet.
package struct TsharkConversation: Sendable, CustomStringConvertible {
    package enum Transport: String, Sendable { case tcp, udp }

    /// What the client's first payload bytes are, by tshark's dissectors.
    package enum Opening: String, Sendable { case tlsHandshake, httpRequest, unrecognised }

    package var transport: Transport
    package var stream: Int
    /// "198.19.0.1:40000" or "[fd00:19::1]:40000".
    package var client: String
    package var server: String
    package var serverAddress: String
    package var firstFrame: Int
    package var packets = 0
    /// IP bytes, as the history counts them: `ip.len`, or `ipv6.plen` plus 40.
    package var bytesFromClient = 0
    package var bytesFromServer = 0
    package var opening: Opening?
    package var clientHellos: [TsharkClientHello] = []
    /// ServerHellos and HelloRetryRequests, in order.
    package var serverHellos: [TsharkServerHello] = []
    /// Handshake message types in the clear, in order, each with who sent it.
    var handshakeTypes: [(fromClient: Bool, type: Int)] = []
    /// The description of every alert the server sent in the clear.
    package var serverAlerts: [Int] = []
    /// The content type of the server's first TLS record, if tshark read one.
    package var serverFirstRecordType: Int?
    /// Each Certificate message the server sent in the clear, leaf first.
    package var certificateChains: [[TsharkCertificate]] = []
    /// The version of the client's first QUIC long-header packet.
    package var quicVersion: UInt32?
    /// QUIC Retry packets the server sent (each carries a Retry Integrity Tag).
    package var quicRetries = 0
    package var dnsMessages: [TsharkDNSMessage] = []

    package var description: String {
        "\(transport) stream \(stream) \(client) → \(server)"
    }
}

/// The fields of a ClientHello the contract reports, as tshark read them.
package struct TsharkClientHello: Sendable, Equatable {
    package var serverName: String?
    /// `legacy_version` (`tls.handshake.version`).
    package var legacyVersion: Int
    /// The `supported_versions` extension, GREASE removed; nil when the hello has none.
    package var supportedVersions: [Int]?
    /// ALPN names in the client's order.
    package var alpn: [String]
    package var extensionTypes: [Int]
    /// Wireshark's JA3 of the hello: the string (`tls.handshake.ja3_full`) and its MD5 (`ja3`).
    package var ja3Full: String?
    package var ja3: String?

    /// RFC 8701 §2: GREASE code points are 0x?A?A with both bytes equal.
    package static func isGREASE(_ value: Int) -> Bool {
        value & 0x0F0F == 0x0A0A && value >> 8 == value & 0xFF
    }

    /// `encrypted_client_hello` (draft-ietf-tls-esni, 0xFE0D).
    package var hasEncryptedClientHello: Bool { extensionTypes.contains(0xFE0D) }
}

/// The fields of a ServerHello (or HelloRetryRequest) the contract reports.
package struct TsharkServerHello: Sendable, Equatable {
    package var legacyVersion: Int
    /// The `supported_versions` extension's selected version, if present.
    var selectedVersion: Int?
    package var cipherSuite: Int
    package var isHelloRetryRequest: Bool
    /// Wireshark's JA3S of the hello: the string (`tls.handshake.ja3s_full`) and its MD5 (`ja3s`).
    package var ja3sFull: String?
    package var ja3s: String?

    /// RFC 8446 §4.1.3: a HelloRetryRequest is a ServerHello whose random is SHA-256("HelloRetryRequest").
    package static let helloRetryRequestRandom = "cf:21:ad:74:e5:9a:61:11:be:1d:8c:02:1e:65:b8:91"
        + ":c2:a2:11:16:7a:bb:8c:5e:07:9e:09:e2:c8:a8:33:9c"

    /// The version the server chose (RFC 8446 §4.2.1: supported_versions overrides legacy_version).
    package var version: Int { selectedVersion ?? legacyVersion }
}

/// One DNS message: the names asked and the addresses and aliases answered.
package struct TsharkDNSMessage: Sendable, Equatable {
    package var frame: Int
    package var isResponse: Bool
    package var questions: [String]
    /// A then AAAA answers, as tshark writes addresses.
    package var addresses: [String]
    package var aliases: [String]
    /// The question types (`dns.qry.type`), the response code and the answer count of the header.
    package var questionTypes: [Int] = []
    package var responseCode: Int?
    package var answerCount: Int?
}
