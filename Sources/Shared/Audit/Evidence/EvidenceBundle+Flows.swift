/// `flows.json`: every flow of the session, first seen first, with each reading the history holds
/// of it — a key left out is a reading not made — and the findings it is evidence of.
///
///   {"exportedAt","flowCount","flows":[…],"format":"tunnelvision.evidence.flows","formatVersion":1,"sessionID"}
///
/// A flow: bytesIn, bytesOut, clientTLS?, communityID? (Zeek's, where the key has one), dnsName?, dnsOtherNames?, durationSeconds, findingIDs,
/// firstSeen, id, lastSeen, name?{origin,text}, packetCount, peers (as stored, not local/remote),
/// protocol, quic?{source,version}, serverCertificate{visibility,…}, serverTLS?{negotiated|refused},
/// sni?, streamOpening?, tlsStatus.
extension EvidenceBundle {
    package var flowsJSON: [UInt8] {
        var out = JSONWriter(capacity: 1024 + flows.count * 900)
        out.beginObject()
        EvidenceJSON.instant(&out, "exportedAt", exportedAt)
        out.number("flowCount", flows.count)
        EvidenceJSON.lines(&out, "flows", flows) { flow, out in write(flow, to: &out) }
        out.string("format", EvidenceBundleFormat.flowsDocument)
        out.number("formatVersion", EvidenceBundleFormat.version)
        out.number("sessionID", Int(session.id))
        out.endObject()
        return EvidenceJSON.finish(&out)
    }

    /// `tcp`, `udp`, `icmp`, `icmpv6`, or `other` for a number without a name.
    static func protocolIdentifier(_ proto: IPProtocolNumber) -> String {
        proto.knownName.map { "\($0)".lowercased() } ?? "other"
    }

    private func write(_ flow: StoredFlow, to out: inout JSONWriter) {
        out.beginObject()
        out.number("bytesIn", flow.bytesIn)
        out.number("bytesOut", flow.bytesOut)
        if let offer = flow.clientTLS { Self.write(offer, to: &out) }
        if let communityID = try? CommunityID(flow: flow.key) { out.string("communityID", communityID.description) }
        if let resolved = flow.resolvedName {
            out.string("dnsName", resolved.name)
            out.strings("dnsOtherNames", resolved.otherNames)
        }
        out.number("durationSeconds", flow.duration, decimals: 6)
        out.strings("findingIDs", findingIDs[flow.id] ?? [])
        EvidenceJSON.instant(&out, "firstSeen", nanoseconds: flow.firstSeenNanoseconds)
        out.number("id", Int(flow.id))
        EvidenceJSON.instant(&out, "lastSeen", nanoseconds: flow.lastSeenNanoseconds)
        if let name = flow.name {
            out.beginObject("name")
            out.string("origin", name.origin.rawValue)
            out.string("text", name.text)
            out.endObject()
        }
        out.number("packetCount", flow.packetCount)
        out.beginArray("peers")
        for endpoint in [flow.key.endpointA, flow.key.endpointB] {
            out.beginObject()
            out.string("address", unescaped: { endpoint.address.write(to: &$0) })
            out.number("port", Int(endpoint.port))
            out.endObject()
        }
        out.endArray()
        out.string("protocol", Self.protocolIdentifier(flow.key.proto))
        if let quic = flow.quic {
            out.beginObject("quic")
            out.string("source", quic.source.rawValue)
            EvidenceJSON.quicVersion(&out, "version", quic.version)
            out.endObject()
        }
        Self.write(ServerCertificateVisibility(answer: flow.serverTLS, reading: flow.serverCertificates), to: &out)
        if let answer = flow.serverTLS { Self.write(answer, to: &out) }
        if let sni = flow.sni { out.string("sni", sni) }
        if let opening = flow.streamOpening { out.string("streamOpening", opening.rawValue) }
        out.string("tlsStatus", flow.tlsStatus.identifier)
        out.endObject()
    }

    /// `clientTLS`: the versions as the hello gave them — an exhaustive list (`listed`) or a
    /// ceiling only (`upTo`) — and what else the hello said.
    private static func write(_ offer: ClientTLSOffer, to out: inout JSONWriter) {
        out.beginObject("clientTLS")
        out.strings("applicationProtocols", offer.applicationProtocols)
        out.bool("encryptedClientHello", offer.hasEncryptedClientHello)
        out.number("omittedApplicationProtocols", offer.omittedApplicationProtocols)
        switch offer.versions {
        case let .listed(versions):
            out.beginArray("versions")
            for version in versions { EvidenceJSON.tlsVersion(&out, version) }
            out.endArray()
            out.string("versionsForm", "listed")
        case let .upTo(version):
            EvidenceJSON.tlsVersion(&out, "upTo", version)
            out.string("versionsForm", "upTo")
        }
        out.endObject()
    }

    /// `serverTLS`: `{"negotiated":{cipher, fromHelloRetryRequest, source, version}}` or
    /// `{"refused":{"alert":{name?, wireValue}}}`.
    private static func write(_ answer: ServerTLSAnswer, to out: inout JSONWriter) {
        out.beginObject("serverTLS")
        switch answer {
        case let .negotiated(negotiated):
            out.beginObject("negotiated")
            EvidenceJSON.cipherSuite(&out, "cipher", negotiated.cipherSuite)
            out.bool("fromHelloRetryRequest", negotiated.fromHelloRetryRequest)
            out.string("source", negotiated.source.rawValue)
            EvidenceJSON.tlsVersion(&out, "version", negotiated.version)
            out.endObject()
        case let .refused(alert):
            out.beginObject("refused")
            out.beginObject("alert")
            if let name = TLSAlertDescription(alert).name { out.string("name", name) }
            out.number("wireValue", Int(alert))
            out.endObject()
            out.endObject()
        }
        out.endObject()
    }

    /// `serverCertificate`, always present: what could be seen of the server's certificates.
    private static func write(_ visibility: ServerCertificateVisibility, to out: inout JSONWriter) {
        out.beginObject("serverCertificate")
        switch visibility {
        case let .presented(chain):
            out.beginArray("chain")
            for certificate in chain.certificates {
                out.beginObject()
                out.string("issuer", certificate.issuer.text)
                out.bool("issuerTruncated", certificate.issuer.isTruncated)
                EvidenceJSON.instant(&out, "notAfter", certificate.notAfter)
                out.string("subject", certificate.subject.text)
                out.bool("subjectTruncated", certificate.subject.isTruncated)
                out.endObject()
            }
            out.endArray()
            out.bool("chainIsComplete", chain.isComplete)
        case let .notSent(absence):
            out.string("absence", absence.rawValue)
        case .encryptedInHandshake, .replacedByInspection, .noNegotiation, .notRead:
            break
        }
        out.string("visibility", visibility.identifier)
        out.endObject()
    }
}
