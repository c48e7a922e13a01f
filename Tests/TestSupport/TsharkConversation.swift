import Foundation

/// What tshark read of one capture: how many frames it holds, and every TCP and UDP conversation
/// (`tcp.stream`, `udp.stream`) in the order each began.
public struct TsharkReading: Sendable {
    public var frames: Int
    /// Frames with neither an IPv4 nor an IPv6 header (ARP, say).
    public var framesWithoutIP: Int
    public var conversations: [TsharkConversation]

    /// Every DNS response of the capture, in frame order.
    public var dnsResponses: [TsharkDNSMessage] {
        conversations.flatMap(\.dnsMessages).filter(\.isResponse).sorted { $0.frame < $1.frame }
    }

    /// The names asked in DNS responses before `frame` whose answers hold `address` (A or AAAA).
    public func namesResolved(to address: String, before frame: Int) -> Set<String> {
        Set(dnsResponses.filter { $0.frame < frame && $0.addresses.contains(address) }.flatMap(\.questions))
    }
}

/// One conversation as tshark dissected it. The client is the side that sent its first packet.
public struct TsharkConversation: Sendable, CustomStringConvertible {
    public enum Transport: String, Sendable { case tcp, udp }

    /// What the client's first payload bytes are, by tshark's dissectors.
    public enum Opening: String, Sendable { case tlsHandshake, httpRequest, unrecognised }

    public var transport: Transport
    public var stream: Int
    /// "198.19.0.1:40000" or "[fd00:19::1]:40000".
    public var client: String
    public var server: String
    public var serverAddress: String
    public var firstFrame: Int
    public var packets = 0
    /// IP bytes, as the history counts them: `ip.len`, or `ipv6.plen` plus 40.
    public var bytesFromClient = 0
    public var bytesFromServer = 0
    public var opening: Opening?
    public var clientHellos: [TsharkClientHello] = []
    /// ServerHellos and HelloRetryRequests, in order.
    public var serverHellos: [TsharkServerHello] = []
    /// Handshake message types in the clear, in order, each with who sent it.
    public var handshakeTypes: [(fromClient: Bool, type: Int)] = []
    /// The description of every alert the server sent in the clear.
    public var serverAlerts: [Int] = []
    /// The content type of the server's first TLS record, if tshark read one.
    public var serverFirstRecordType: Int?
    /// Each Certificate message the server sent in the clear, leaf first.
    public var certificateChains: [[TsharkCertificate]] = []
    /// The version of the client's first QUIC long-header packet.
    public var quicVersion: UInt32?
    /// QUIC Retry packets the server sent (each carries a Retry Integrity Tag).
    public var quicRetries = 0
    public var dnsMessages: [TsharkDNSMessage] = []

    public var description: String {
        "\(transport) stream \(stream) \(client) → \(server)"
    }
}

/// The fields of a ClientHello the contract reports, as tshark read them.
public struct TsharkClientHello: Sendable, Equatable {
    public var serverName: String?
    /// `legacy_version` (`tls.handshake.version`).
    public var legacyVersion: Int
    /// The `supported_versions` extension, GREASE removed; nil when the hello has none.
    public var supportedVersions: [Int]?
    /// ALPN names in the client's order.
    public var alpn: [String]
    public var extensionTypes: [Int]
    /// Wireshark's JA3 of the hello: the string (`tls.handshake.ja3_full`) and its MD5 (`ja3`).
    public var ja3Full: String?
    public var ja3: String?

    /// RFC 8701 §2: GREASE code points are 0x?A?A with both bytes equal.
    public static func isGREASE(_ value: Int) -> Bool {
        value & 0x0F0F == 0x0A0A && value >> 8 == value & 0xFF
    }

    /// `encrypted_client_hello` (draft-ietf-tls-esni, 0xFE0D).
    public var hasEncryptedClientHello: Bool { extensionTypes.contains(0xFE0D) }
}

/// The fields of a ServerHello (or HelloRetryRequest) the contract reports.
public struct TsharkServerHello: Sendable, Equatable {
    public var legacyVersion: Int
    /// The `supported_versions` extension's selected version, if present.
    public var selectedVersion: Int?
    public var cipherSuite: Int
    public var isHelloRetryRequest: Bool
    /// Wireshark's JA3S of the hello: the string (`tls.handshake.ja3s_full`) and its MD5 (`ja3s`).
    public var ja3sFull: String?
    public var ja3s: String?

    /// RFC 8446 §4.1.3: a HelloRetryRequest is a ServerHello whose random is SHA-256("HelloRetryRequest").
    public static let helloRetryRequestRandom = "cf:21:ad:74:e5:9a:61:11:be:1d:8c:02:1e:65:b8:91"
        + ":c2:a2:11:16:7a:bb:8c:5e:07:9e:09:e2:c8:a8:33:9c"

    /// The version the server chose (RFC 8446 §4.2.1: supported_versions overrides legacy_version).
    public var version: Int { selectedVersion ?? legacyVersion }
}

/// One DNS message: the names asked and the addresses and aliases answered.
public struct TsharkDNSMessage: Sendable, Equatable {
    public var frame: Int
    public var isResponse: Bool
    public var questions: [String]
    /// A then AAAA answers, as tshark writes addresses.
    public var addresses: [String]
    public var aliases: [String]
    /// The question types (`dns.qry.type`), the response code and the answer count of the header.
    public var questionTypes: [Int] = []
    public var responseCode: Int?
    public var answerCount: Int?
}
