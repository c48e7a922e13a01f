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
    let streamOpening: String?
    let clientOffer: AnalyzeReport.ClientOffer?
    let serverAnswer: AnalyzeReport.ServerAnswer?
    /// The visibilities the contract allows (two when tshark cannot tell notSent from notRead);
    /// nil when the conversation carried no TLS.
    let visibilities: Set<String>?
    /// The chain when the certificates were presented in the clear.
    let chain: [AnalyzeReport.Certificate]?
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
        sni = hello?.serverName
        clientOffer = hello.map { hello in
            AnalyzeReport.ClientOffer(versions: hello.supportedVersions,
                                      upTo: hello.supportedVersions == nil ? hello.legacyVersion : nil,
                                      alpn: hello.alpn, omittedALPN: 0, ech: hello.hasEncryptedClientHello)
        }
        let answer = conversation.serverHellos.first
        if let answer {
            serverAnswer = AnalyzeReport.ServerAnswer(version: answer.version, cipherSuite: answer.cipherSuite,
                                                      helloRetryRequest: answer.isHelloRetryRequest, alert: nil)
        } else if conversation.serverFirstRecordType == 21, let alert = conversation.serverAlerts.first {
            serverAnswer = AnalyzeReport.ServerAnswer(version: nil, cipherSuite: nil, helloRetryRequest: nil, alert: alert)
        } else {
            serverAnswer = nil
        }
        (visibilities, chain) = Self.certificates(hello: hello, answer: answer, chains: conversation.certificateChains)

        let resolved = reading.namesResolved(to: conversation.serverAddress, before: conversation.firstFrame)
        otherNameCandidates = resolved
        if let sni {
            nameSource = isQUIC ? "quic" : "sni"
            names = [sni]
        } else if !resolved.isEmpty {
            nameSource = "dns"
            names = resolved
        } else {
            nameSource = nil
            names = []
        }
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
