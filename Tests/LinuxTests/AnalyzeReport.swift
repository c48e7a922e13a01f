/// What `tunnelvision analyze FILE --json` prints: one JSON object, as issue 5's contract writes
/// it. Decoded strictly where the contract is definite (a field of the wrong type fails the
/// test); nullable fields are optionals.
struct AnalyzeReport: Decodable {
    var file: String
    var packets: Int
    var unreadablePackets: Int
    var conversations: [Conversation]

    struct Conversation: Decodable, CustomStringConvertible {
        var `protocol`: String
        var client: String
        var server: String
        var packets: Int
        var bytesFromClient: Int
        var bytesFromServer: Int
        var name: String?
        var nameSource: String?
        var otherNames: [String]
        var sni: String?
        var dns: DNS?
        var encryptedDNS: String?
        var streamOpening: String?
        var quicVersion: UInt32?
        var clientOffer: ClientOffer?
        var serverAnswer: ServerAnswer?
        var fingerprints: Fingerprints?
        var certificates: Certificates?

        var description: String { "\(`protocol`) \(client) → \(server)" }
    }

    /// A DNS flow's first question and the reply to it.
    struct DNS: Decodable, Equatable {
        var question: String
        var type: String
        var reply: Reply?

        struct Reply: Decodable, Equatable {
            var code: Int
            var codeName: String
            var outcome: String
            var answerCount: Int
            var answers: [String]
        }
    }

    struct ClientOffer: Decodable, Equatable {
        var versions: [Int]?
        var upTo: Int?
        var alpn: [String]
        var omittedALPN: Int
        var ech: Bool
        var serverNameAsSent: String?
    }

    /// Either a negotiation or a refusal: `{version, cipherSuite, helloRetryRequest}` or `{alert}`.
    struct ServerAnswer: Decodable, Equatable {
        var version: Int?
        var cipherSuite: Int?
        var helloRetryRequest: Bool?
        var alert: Int?
    }

    /// JA4 and JA3 (hash and string) of the ClientHello, JA3S of the ServerHello.
    struct Fingerprints: Decodable, Equatable {
        var ja4: String?
        var ja3: String?
        var ja3Full: String?
        var ja3s: String?
        var ja3sFull: String?
    }

    struct Certificates: Decodable {
        var visibility: String
        var complete: Bool?
        var chain: [Certificate]?
    }

    struct Certificate: Decodable, Equatable {
        var subject: String
        var issuer: String
        var notAfter: String
    }
}
