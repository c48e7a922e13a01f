extension TsharkReading {
    /// tshark's reading as lines a person can check against the scenario: one block per
    /// conversation with what the contract compares. Hex for TLS code points, as RFCs write them.
    package var summary: String {
        var lines = ["\(frames) frames (\(framesWithoutIP) without IP), \(conversations.count) conversations"]
        for conversation in conversations {
            lines.append("\(conversation) — frames from \(conversation.firstFrame), \(conversation.packets) packets, "
                         + "\(conversation.bytesFromClient)/\(conversation.bytesFromServer) bytes, "
                         + "opening \(conversation.opening?.rawValue ?? "-")")
            if let version = conversation.quicVersion { lines.append("  quic version \(hex(Int(version), 8))") }
            for hello in conversation.clientHellos {
                lines.append("  ClientHello sni \(hello.serverName ?? "-") legacy \(hex(hello.legacyVersion)) "
                             + "versions \(hello.supportedVersions.map { $0.map { hex($0) }.joined(separator: ",") } ?? "-") "
                             + "alpn \(hello.alpn) ech \(hello.hasEncryptedClientHello)")
            }
            for hello in conversation.serverHellos {
                lines.append("  \(hello.isHelloRetryRequest ? "HelloRetryRequest" : "ServerHello") version \(hex(hello.version)) "
                             + "suite \(hex(hello.cipherSuite))")
            }
            if !conversation.serverAlerts.isEmpty { lines.append("  server alerts \(conversation.serverAlerts)") }
            let types = conversation.handshakeTypes.map { "\($0.fromClient ? "c" : "s")\($0.type)" }
            if !types.isEmpty { lines.append("  handshake types \(types.joined(separator: " "))") }
            for chain in conversation.certificateChains {
                for (index, certificate) in chain.enumerated() {
                    lines.append("  certificate \(index): subject \(TsharkCertificate.text(of: certificate.subject))")
                    lines.append("                 issuer \(TsharkCertificate.text(of: certificate.issuer)) notAfter \(certificate.notAfter)")
                }
            }
            for message in conversation.dnsMessages {
                lines.append("  dns \(message.isResponse ? "response" : "query") frame \(message.frame) \(message.questions)"
                             + (message.isResponse ? " → cname \(message.aliases) addresses \(message.addresses)" : ""))
            }
        }
        return lines.joined(separator: "\n")
    }

    private func hex(_ value: Int, _ digits: Int = 4) -> String {
        let text = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
