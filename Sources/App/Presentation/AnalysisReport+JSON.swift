import Foundation
import Shared

extension AnalysisReport {
    /// One JSON object: `{"file", "linkType", "packets", "nonIPFrames", "unreadablePackets", "damage",
    /// "conversations": [...]}`; `tunnelvision help analyze` describes each field.
    public func json() -> String {
        let document: [String: Any] = [
            "file": file,
            "linkType": Int(analysis.linkType),
            "packets": analysis.packets,
            "nonIPFrames": analysis.nonIPFrames,
            "unreadablePackets": analysis.unreadablePackets,
            "damage": analysis.damage ?? NSNull(),
            "conversations": conversations.map(Self.json),
        ]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    private static func json(_ conversation: Conversation) -> [String: Any] {
        let record = conversation.record
        return [
            "protocol": "\(record.key.proto.displayName)".lowercased(),
            "client": conversation.clientEndpoint.description,
            "server": conversation.serverEndpoint.description,
            "packets": Int(record.packetCount),
            "bytesFromClient": Int(record.bytesOut),
            "bytesFromServer": Int(record.bytesIn),
            "name": record.name?.text ?? NSNull(),
            "nameSource": conversation.nameSource ?? NSNull(),
            "otherNames": record.name?.otherCandidates ?? [],
            "sni": record.sni ?? NSNull(),
            "streamOpening": record.streamOpening?.rawValue ?? NSNull(),
            "quicVersion": record.quic.map { Int($0.version.rawValue) } ?? NSNull(),
            "clientOffer": record.clientTLS.map(json) ?? NSNull(),
            "serverAnswer": record.serverTLS.map(json) ?? NSNull(),
            "certificates": conversation.certificates.map(json) ?? NSNull(),
        ]
    }

    private static func json(_ offer: ClientTLSOffer) -> [String: Any] {
        var listed: Any = NSNull()
        var upTo: Any = NSNull()
        switch offer.versions {
        case .listed(let versions): listed = versions.map { Int($0.rawValue) }
        case .upTo(let version): upTo = Int(version.rawValue)
        }
        return ["versions": listed, "upTo": upTo, "alpn": offer.applicationProtocols,
                "omittedALPN": offer.omittedApplicationProtocols, "ech": offer.hasEncryptedClientHello]
    }

    private static func json(_ answer: ServerTLSAnswer) -> [String: Any] {
        switch answer {
        case .negotiated(let negotiated):
            ["version": Int(negotiated.version.rawValue), "cipherSuite": Int(negotiated.cipherSuite.rawValue),
             "helloRetryRequest": negotiated.fromHelloRetryRequest]
        case .refused(let alert):
            ["alert": Int(alert)]
        }
    }

    private static func json(_ visibility: ServerCertificateVisibility) -> [String: Any] {
        switch visibility {
        case .presented(let chain):
            ["visibility": "presented", "complete": chain.isComplete,
             "chain": chain.certificates.map { certificate in
                 ["subject": certificate.subject.text, "issuer": certificate.issuer.text,
                  "notAfter": UTCTimestamp.iso8601(certificate.notAfter)]
             }]
        case .notSent(let absence): ["visibility": "notSent", "reason": absence.rawValue, "complete": true, "chain": []]
        case .encryptedInHandshake: ["visibility": "encryptedInHandshake", "complete": false, "chain": []]
        case .replacedByInspection: ["visibility": "replacedByInspection", "complete": false, "chain": []]
        case .noNegotiation: ["visibility": "noNegotiation", "complete": false, "chain": []]
        case .notRead: ["visibility": "notRead", "complete": false, "chain": []]
        }
    }
}
