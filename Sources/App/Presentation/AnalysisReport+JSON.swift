import Dispatch
import Foundation
import Shared
import Synchronization

extension AnalysisReport {
    /// One JSON object: `{"file", "format", "linkType", "packets", "nonIPFrames", "unreadablePackets", "damage",
    /// "outOfOrderNotHeld": {"segments", "bytes"}, "conversations": [...]}`; `tunnelvision help analyze` describes each field. Written straight
    /// into an `ASCIIWriter`: a capture can hold a million conversations.
    package func json() -> String {
        var whole: [UInt8] = []
        writeJSON { whole += $0 }
        return String(decoding: whole, as: UTF8.self)
    }

    /// Conversations one renderer writes into one piece.
    static let conversationsPerPiece = 512

    /// `json()` handed to `emit` in pieces as they are written, so the report of a large capture
    /// never sits in memory whole. `renderers` threads write the conversations' pieces at once,
    /// a few at a time, and the pieces go to `emit` in order.
    package func writeJSON(renderers: Int = 1, _ emit: (ArraySlice<UInt8>) -> Void) {
        var out = JSONWriter()
        out.beginObject()
        out.string("file", file)
        out.string("format", analysis.format)
        out.number("linkType", analysis.linkType.map(Int.init))
        out.number("packets", analysis.packets)
        out.number("nonIPFrames", analysis.nonIPFrames)
        out.number("unreadablePackets", analysis.unreadablePackets)
        out.string("damage", analysis.damage)
        out.beginObject("outOfOrderNotHeld")
        out.number("segments", analysis.outOfOrderDrops.segments)
        out.number("bytes", analysis.outOfOrderDrops.bytes)
        out.endObject()
        out.beginArray("conversations")
        emit(out.writer.bytes)
        out.writer.removeAll()
        let conversations = conversations
        let pieceSize = Self.conversationsPerPiece
        let pieceCount = (conversations.count + pieceSize - 1) / pieceSize
        let batch = max(1, renderers)
        var firstPiece = 0
        while firstPiece < pieceCount {
            let pieces = min(batch, pieceCount - firstPiece)
            let first = firstPiece
            let written = Mutex<[[UInt8]]>(Array(repeating: [], count: pieces))
            DispatchQueue.concurrentPerform(iterations: pieces) { offset in
                let start = (first + offset) * pieceSize
                var piece = JSONWriter()
                var objects = HandshakeJSONMemo()
                // Every piece but the very first continues the array.
                if start > 0 { piece.writer.append(UInt8(ascii: ",")) }
                // By index: a `for … in` over the slice copied each conversation out, retaining its record's every field.
                for index in start..<min(start + pieceSize, conversations.count) {
                    Self.write(conversations[index], to: &piece, objects: &objects)
                }
                let bytes = Array(piece.writer.bytes)
                written.withLock { $0[offset] = bytes }
            }
            for piece in written.withLock({ $0 }) { emit(piece[...]) }
            firstPiece += pieces
        }
        out.endArray()
        out.endObject()
        emit(out.writer.bytes)
    }

    private static func write(_ conversation: Conversation, to out: inout JSONWriter, objects: inout HandshakeJSONMemo) {
        let record = conversation.record
        // Each computed fact read once: the name is made from four of them.
        let name = record.name
        let sni = record.sni
        out.beginObject()
        out.string("protocol", HistoryFlowWording.protocolIdentifier(record.key.proto))
        out.string("client", unescaped: conversation.clientEndpoint.write)
        out.string("server", unescaped: conversation.serverEndpoint.write)
        out.number("packets", Int(record.packetCount))
        out.number("bytesFromClient", Int(record.bytesOut))
        out.number("bytesFromServer", Int(record.bytesIn))
        out.string("name", name?.text)
        out.string("nameSource", Conversation.nameSource(of: name, proto: record.key.proto))
        out.strings("otherNames", name?.otherCandidates ?? [])
        ProxyTargetWording.write(record.proxyTarget, to: &out)
        out.string("sni", sni)
        DNSExchangeWording.write(record.dnsExchange, encrypted: EncryptedDNS(key: record.key, announcedName: sni), to: &out)
        out.string("streamOpening", record.streamOpening?.rawValue)
        out.number("quicVersion", record.quic.map { Int($0.version.rawValue) })
        out.key("clientOffer")
        let offer = record.clientTLS
        if let offer { objects.write(offer, to: &out) } else { out.null() }
        out.key("serverAnswer")
        let answer = record.serverTLS
        if let answer { objects.write(answer, to: &out) } else { out.null() }
        TLSFingerprintWording.write(client: record.clientFingerprints, server: record.serverFingerprints, to: &out)
        out.key("certificates")
        if let certificates = Conversation.certificates(answer: answer, reading: record.serverCertificates) {
            objects.write(certificates, to: &out)
        } else {
            out.null()
        }
        out.endObject()
    }

    static func write(_ offer: ClientTLSOffer, to out: inout JSONWriter) {
        out.beginObject()
        switch offer.versions {
        case .listed(let versions):
            out.numbers("versions", versions.map { Int($0.rawValue) })
            out.number("upTo", nil)
        case .upTo(let version):
            out.key("versions")
            out.null()
            out.number("upTo", Int(version.rawValue))
        }
        out.strings("alpn", offer.applicationProtocols)
        out.number("omittedALPN", offer.omittedApplicationProtocols)
        out.bool("ech", offer.hasEncryptedClientHello)
        out.string("serverNameAsSent", offer.serverNameAsSent)
        out.string("text", Self.text(offer))
        out.endObject()
    }

    static func write(_ answer: ServerTLSAnswer, to out: inout JSONWriter) {
        out.beginObject()
        switch answer {
        case .negotiated(let negotiated):
            out.number("version", Int(negotiated.version.rawValue))
            out.number("cipherSuite", Int(negotiated.cipherSuite.rawValue))
            out.string("cipherSuiteName", negotiated.cipherSuite.ianaName)
            out.bool("helloRetryRequest", negotiated.fromHelloRetryRequest)
        case .refused(let alert):
            out.number("alert", Int(alert))
        }
        out.string("text", Self.text(answer))
        out.endObject()
    }

    static func write(_ visibility: ServerCertificateVisibility, to out: inout JSONWriter) {
        let (complete, chain): (Bool, [ServerCertificate]) = switch visibility {
        case .presented(let chain): (chain.isComplete, chain.certificates)
        case .notSent: (true, [])
        case .encryptedInHandshake, .replacedByInspection, .noNegotiation, .notRead: (false, [])
        }
        out.beginObject()
        out.string("visibility", visibility.identifier)
        if case .notSent(let absence) = visibility { out.string("reason", absence.rawValue) }
        out.bool("complete", complete)
        out.string("text", summary(visibility))
        out.beginArray("chain")
        for certificate in chain {
            out.beginObject()
            out.string("subject", certificate.subject.text)
            out.string("issuer", certificate.issuer.text)
            out.string("notAfter", unescaped: { UTCTimestamp.writeISO8601(certificate.notAfter, to: &$0) })
            out.string("text", issuance(certificate))
            out.endObject()
        }
        out.endArray()
        out.endObject()
    }
}
