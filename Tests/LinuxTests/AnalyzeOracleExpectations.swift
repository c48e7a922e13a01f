import TestSupport

/// What issue 5's contract says `tunnelvision analyze` must print for one conversation, derived
/// from tshark's reading of the capture alone.
struct ExpectedConversation {
    /// TLS inside QUIC: both sides' Initials are read, as tshark reads them.
    let isQUIC: Bool
    let packets: Int
    let bytesFromClient: Int
    let bytesFromServer: Int
    let sni: String?
    let quicVersion: UInt32?
    var streamOpening: String?
    let clientOffer: AnalyzeReport.ClientOffer?
    let serverAnswer: AnalyzeReport.ServerAnswer?
    /// Wireshark's JA3 of the first ClientHello and JA3S of the first ServerHello (their strings
    /// and hashes); JA4 is not Wireshark's, and is checked against FoxIO's reference outputs.
    let ja3: (full: String?, hash: String?)
    let ja3s: (full: String?, hash: String?)
    /// The visibilities the contract allows (two when tshark cannot tell notSent from notRead);
    /// nil when the conversation carried no TLS.
    let visibilities: Set<String>?
    /// The chain when the certificates were presented in the clear.
    let chain: [AnalyzeReport.Certificate]?
    /// A DNS conversation's first question and the reply to it, from tshark's fields.
    let dns: AnalyzeReport.DNS?
    let nameSource: String?
    /// The names `name` may be; with `nameSource == "dns"`, `name` and `otherNames` together must
    /// be exactly these.
    let names: Set<String>
    /// Names `otherNames` may hold besides.
    let otherNameCandidates: Set<String>

    init(_ conversation: TsharkConversation, in reading: TsharkReading) {
        isQUIC = conversation.quicVersion != nil
        packets = conversation.packets
        bytesFromClient = conversation.bytesFromClient
        bytesFromServer = conversation.bytesFromServer
        quicVersion = conversation.quicVersion
        streamOpening = conversation.transport == .tcp ? conversation.opening?.rawValue : nil

        let hello = conversation.clientHellos.first
        // A server name that is no host name names nothing, and is kept as sent.
        let sent = hello?.serverName
        sni = sent.flatMap { Self.isHostName($0) ? $0.lowercased() : nil }
        clientOffer = hello.map { hello in
            AnalyzeReport.ClientOffer(versions: hello.supportedVersions,
                                      upTo: hello.supportedVersions == nil ? hello.legacyVersion : nil,
                                      alpn: hello.alpn, omittedALPN: 0, ech: hello.hasEncryptedClientHello,
                                      serverNameAsSent: sent.flatMap { Self.isHostName($0) ? nil : $0 })
        }
        ja3 = (hello?.ja3Full, hello?.ja3)
        let answer = conversation.serverHellos.first
        ja3s = (answer?.ja3sFull, answer?.ja3s)
        if let answer {
            serverAnswer = AnalyzeReport.ServerAnswer(version: answer.version, cipherSuite: answer.cipherSuite,
                                                      helloRetryRequest: answer.isHelloRetryRequest, alert: nil)
        } else if conversation.serverFirstRecordType == 21, let alert = conversation.serverAlerts.first {
            serverAnswer = AnalyzeReport.ServerAnswer(version: nil, cipherSuite: nil, helloRetryRequest: nil, alert: alert)
        } else {
            serverAnswer = nil
        }
        (visibilities, chain) = Self.certificates(hello: hello, answer: answer, chains: conversation.certificateChains)

        dns = Self.dns(conversation.dnsMessages)
        let resolved = reading.namesResolved(to: conversation.serverAddress, before: conversation.firstFrame)
        otherNameCandidates = resolved
        if let sni {
            nameSource = isQUIC ? "quic" : "sni"
            names = [sni]
        } else if let question = dns?.question {
            nameSource = "dnsQuery"
            names = [question]
        } else if !resolved.isEmpty {
            nameSource = "dns"
            names = resolved
        } else {
            nameSource = nil
            names = []
        }
    }

    /// RFC 6066 §3 and RFC 1123 §2.1: dot-separated labels of letters, digits, hyphens (and the
    /// underscores real names carry), the last not all digits — so no IP literal, no port.
    static func isHostName(_ name: String) -> Bool {
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy { !$0.isEmpty && $0.count <= 63 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") } }
            && !(labels.last?.allSatisfy(\.isNumber) ?? true)
    }

    /// Record types by number, as RFC 1035 and RFC 3596 name them (the scenario asks A and AAAA).
    static let typeNames = [1: "A", 5: "CNAME", 28: "AAAA"]

    /// The first question tshark reads in the conversation (a query's, else a reply's), and the
    /// first reply echoing it: its code, answer count, and answers (CNAME targets and addresses).
    static func dns(_ messages: [TsharkDNSMessage]) -> AnalyzeReport.DNS? {
        guard let asking = messages.first(where: { !$0.isResponse }) ?? messages.first,
              let question = asking.questions.first?.lowercased(), let type = asking.questionTypes.first else { return nil }
        let reply = messages.first { $0.isResponse && $0.questions.first?.lowercased() == question && $0.questionTypes.first == type }
        return AnalyzeReport.DNS(question: question, type: typeNames[type] ?? "TYPE\(type)", reply: reply.map { reply in
            let code = reply.responseCode ?? -1
            let count = reply.answerCount ?? -1
            let outcome = code == 3 ? "noSuchName" : code != 0 ? "failed" : count > 0 ? "answered" : "noRecordsOfThatType"
            return AnalyzeReport.DNS.Reply(code: code, codeName: [0: "NOERROR", 2: "SERVFAIL", 3: "NXDOMAIN", 5: "REFUSED"][code] ?? "RCODE\(code)",
                                           outcome: outcome, answerCount: count, answers: (reply.aliases + reply.addresses).sorted())
        })
    }

    /// ServerCertificateVisibility's rule, on tshark's reading: no ServerHello, no certificate; a
    /// HelloRetryRequest or a version above TLS 1.2 encrypts them; else they were in the clear.
    static func certificates(hello: TsharkClientHello?, answer: TsharkServerHello?,
                             chains: [[TsharkCertificate]]) -> (Set<String>?, [AnalyzeReport.Certificate]?) {
        guard hello != nil else { return (nil, nil) }
        guard let answer else { return (["noNegotiation"], nil) }
        if answer.isHelloRetryRequest || !(0x0300...0x0303).contains(answer.version) {
            return (["encryptedInHandshake"], nil)
        }
        guard let chain = chains.first else { return (["notSent", "notRead"], nil) }
        return (["presented"], chain.map {
            AnalyzeReport.Certificate(subject: TsharkCertificate.text(of: $0.subject),
                                      issuer: TsharkCertificate.text(of: $0.issuer), notAfter: $0.notAfter)
        })
    }
}
