import Foundation

/// tshark's reading of a capture's handshakes, conversation by conversation: the oracle the
/// analyzer's names, versions, cipher suites, ALPN lists and certificates are compared with.
///
/// tshark prints the whole dissection as JSON (`-T json --no-duplicate-keys`), because a field
/// list cannot say which `x509sat` value belongs to which certificate's subject or issuer; the
/// tree can. Frames quoted inside ICMP errors belong to no conversation and are skipped.
package enum TsharkHandshakes {
    package struct Unreadable: Error, CustomStringConvertible {
        package let description: String
    }

    /// Reads `capture`. `options` go to tshark before the output options (e.g. `-d` decode-as).
    package static func read(_ capture: URL, options: [String] = []) throws -> TsharkReading {
        let process = Process()
        process.executableURL = try Tshark.executable()
        process.arguments = ["-r", capture.path, "-n"] + options + ["-T", "json", "--no-duplicate-keys"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Unreadable(description: "tshark -T json exited \(process.terminationStatus)")
        }
        guard let packets = try JSONSerialization.jsonObject(with: data) as? [Any] else {
            throw Unreadable(description: "tshark's JSON is not a list of packets")
        }
        var reader = Reader()
        for packet in packets {
            guard let source = TsharkJSON.object((packet as? [String: Any])?["_source"]),
                  let layers = TsharkJSON.object(source["layers"]) else {
                throw Unreadable(description: "a packet without layers")
            }
            try reader.read(layers)
        }
        return TsharkReading(frames: packets.count, framesWithoutIP: reader.framesWithoutIP,
                             conversations: reader.conversations.values.sorted { $0.firstFrame < $1.firstFrame })
    }

    /// Folds frames, in capture order, into conversations.
    private struct Reader {
        var conversations: [String: TsharkConversation] = [:]
        /// Frames that complete a PDU whose first segment opened a conversation → that conversation.
        var openingsReassembledIn: [Int: String] = [:]
        var framesWithoutIP = 0

        mutating func read(_ layers: [String: Any]) throws {
            guard let number = TsharkJSON.integer(TsharkJSON.object(layers["frame"])?["frame.number"] as? String) else {
                throw Unreadable(description: "a frame without a number")
            }
            if let key = openingsReassembledIn.removeValue(forKey: number) {
                conversations[key]?.opening = Self.opening(of: layers)
            }
            if layers["ip"] == nil, layers["ipv6"] == nil { framesWithoutIP += 1 }
            guard layers["icmp"] == nil, layers["icmpv6"] == nil,
                  let (source, destination) = Self.addresses(layers),
                  let segment = Self.segment(layers) else { return }
            let key = "\(segment.transport)/\(segment.stream)"
            let sourceEndpoint = Self.endpoint(source, segment.sourcePort)
            var conversation = conversations[key] ?? TsharkConversation(
                transport: segment.transport, stream: segment.stream, client: sourceEndpoint,
                server: Self.endpoint(destination, segment.destinationPort), serverAddress: destination,
                firstFrame: number)
            let fromClient = sourceEndpoint == conversation.client
            conversation.packets += 1
            let ipBytes = Self.ipLength(layers) ?? 0
            if fromClient { conversation.bytesFromClient += ipBytes } else { conversation.bytesFromServer += ipBytes }

            if segment.transport == .tcp, fromClient, segment.payload > 0, conversation.opening == nil,
               !openingsReassembledIn.values.contains(key) {
                if let later = TsharkJSON.integer(TsharkJSON.object(layers["tcp"])?["tcp.reassembled_in"] as? String), later != number {
                    openingsReassembledIn[later] = key
                } else {
                    conversation.opening = Self.opening(of: layers)
                }
            }
            try Self.readTLS(layers, fromClient: fromClient, into: &conversation)
            if let quic = layers["quic"], fromClient, conversation.quicVersion == nil,
               let version = TsharkJSON.strings("quic.version", in: quic).first {
                conversation.quicVersion = TsharkJSON.integer(version).map { UInt32(truncatingIfNeeded: $0) }
            }
            if let quic = layers["quic"], !fromClient {
                conversation.quicRetries += TsharkJSON.strings("quic.retry_integrity_tag", in: quic).count
            }
            if let dns = layers["dns"] {
                conversation.dnsMessages.append(TsharkDNSMessage(
                    frame: number, isResponse: TsharkJSON.strings("dns.flags.response", in: dns).first == "1",
                    questions: TsharkJSON.strings("dns.qry.name", in: dns),
                    addresses: TsharkJSON.strings("dns.a", in: dns) + TsharkJSON.strings("dns.aaaa", in: dns),
                    aliases: TsharkJSON.strings("dns.cname", in: dns),
                    questionTypes: TsharkJSON.strings("dns.qry.type", in: dns).compactMap(TsharkJSON.integer),
                    responseCode: TsharkJSON.strings("dns.flags.rcode", in: dns).first.flatMap(TsharkJSON.integer),
                    answerCount: TsharkJSON.strings("dns.count.answers", in: dns).first.flatMap(TsharkJSON.integer)))
            }
            conversations[key] = conversation
        }

        /// Handshake messages in the clear, over TCP (`tls`) or in QUIC CRYPTO frames (`quic`).
        static func readTLS(_ layers: [String: Any], fromClient: Bool, into conversation: inout TsharkConversation) throws {
            if !fromClient, let tls = layers["tls"] {
                conversation.serverAlerts += TsharkJSON.strings("tls.alert_message.desc", in: tls).compactMap(TsharkJSON.integer)
                if conversation.serverFirstRecordType == nil {
                    let types = TsharkJSON.strings("tls.record.content_type", in: tls)
                    conversation.serverFirstRecordType = types.first.flatMap(TsharkJSON.integer)
                }
            }
            for handshake in TsharkJSON.objects(having: "tls.handshake.type", in: [layers["tls"], layers["quic"]].compactMap { $0 }) {
                guard let type = TsharkJSON.integer(handshake["tls.handshake.type"] as? String) else { continue }
                conversation.handshakeTypes.append((fromClient, type))
                switch (type, fromClient) {
                case (1, true): conversation.clientHellos.append(try clientHello(handshake))
                case (2, false): conversation.serverHellos.append(try serverHello(handshake))
                case (11, false):
                    let certificates = TsharkJSON.values("x509af.signedCertificate_element", in: handshake)
                    conversation.certificateChains.append(try certificates.map {
                        guard let element = $0 as? [String: Any] else {
                            throw Unreadable(description: "a certificate that is not a tree")
                        }
                        return try TsharkCertificate(signedCertificate: element)
                    })
                default: break
                }
            }
        }

        static func clientHello(_ handshake: [String: Any]) throws -> TsharkClientHello {
            guard let legacy = TsharkJSON.integer(handshake["tls.handshake.version"] as? String) else {
                throw Unreadable(description: "a ClientHello without a version")
            }
            let extensionTypes = TsharkJSON.strings("tls.handshake.extension.type", in: handshake).compactMap(TsharkJSON.integer)
            let supported = TsharkJSON.strings("tls.handshake.extensions.supported_version", in: handshake)
                .compactMap(TsharkJSON.integer).filter { !TsharkClientHello.isGREASE($0) }
            return TsharkClientHello(
                serverName: TsharkJSON.strings("tls.handshake.extensions_server_name", in: handshake).first,
                legacyVersion: legacy, supportedVersions: extensionTypes.contains(43) ? supported : nil,
                alpn: TsharkJSON.strings("tls.handshake.extensions_alpn_str", in: handshake), extensionTypes: extensionTypes,
                ja3Full: handshake["tls.handshake.ja3_full"] as? String, ja3: handshake["tls.handshake.ja3"] as? String)
        }

        static func serverHello(_ handshake: [String: Any]) throws -> TsharkServerHello {
            guard let legacy = TsharkJSON.integer(handshake["tls.handshake.version"] as? String),
                  let suite = TsharkJSON.integer(handshake["tls.handshake.ciphersuite"] as? String) else {
                throw Unreadable(description: "a ServerHello without a version or cipher suite")
            }
            let selected = TsharkJSON.strings("tls.handshake.extensions.supported_version", in: handshake).first
            return TsharkServerHello(
                legacyVersion: legacy,
                selectedVersion: selected.flatMap(TsharkJSON.integer),
                cipherSuite: suite,
                isHelloRetryRequest: handshake["tls.handshake.random"] as? String == TsharkServerHello.helloRetryRequestRandom,
                ja3sFull: handshake["tls.handshake.ja3s_full"] as? String, ja3s: handshake["tls.handshake.ja3s"] as? String)
        }

        /// What the client's first payload is: a TLS record of type handshake (22), an HTTP request,
        /// or something else.
        static func opening(of layers: [String: Any]) -> TsharkConversation.Opening {
            if let tls = layers["tls"], TsharkJSON.strings("tls.record.content_type", in: tls).first == "22" { return .tlsHandshake }
            if let http = layers["http"], TsharkJSON.strings("http.request", in: http).first == "1" { return .httpRequest }
            return .unrecognised
        }

        /// The datagram's whole length: IPv4's total length, or IPv6's payload length plus its
        /// 40-byte header.
        static func ipLength(_ layers: [String: Any]) -> Int? {
            if let ip = TsharkJSON.object(layers["ip"]) { return TsharkJSON.integer(ip["ip.len"] as? String) }
            if let ip = TsharkJSON.object(layers["ipv6"]) { return TsharkJSON.integer(ip["ipv6.plen"] as? String).map { $0 + 40 } }
            return nil
        }

        static func addresses(_ layers: [String: Any]) -> (source: String, destination: String)? {
            if let ip = TsharkJSON.object(layers["ip"]), let source = ip["ip.src"] as? String, let destination = ip["ip.dst"] as? String {
                return (source, destination)
            }
            if let ip = TsharkJSON.object(layers["ipv6"]), let source = ip["ipv6.src"] as? String,
               let destination = ip["ipv6.dst"] as? String {
                return (source, destination)
            }
            return nil
        }

        static func segment(_ layers: [String: Any]) -> (transport: TsharkConversation.Transport, stream: Int, sourcePort: Int,
                                                         destinationPort: Int, payload: Int)? {
            for transport in [TsharkConversation.Transport.tcp, .udp] {
                let name = transport.rawValue
                guard let header = TsharkJSON.object(layers[name]) else { continue }
                let field = { (suffix: String) in TsharkJSON.integer(header["\(name).\(suffix)"] as? String) }
                guard let stream = field("stream"), let source = field("srcport"), let destination = field("dstport"),
                      let length = transport == .tcp ? field("len") : field("length").map({ $0 - 8 }) else { return nil }
                return (transport, stream, source, destination, length)
            }
            return nil
        }

        static func endpoint(_ address: String, _ port: Int) -> String {
            address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
        }
    }
}
