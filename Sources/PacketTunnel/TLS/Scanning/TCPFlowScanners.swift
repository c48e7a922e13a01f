import Foundation
import Shared

/// Everything read from one TCP flow's two byte streams without decrypting: how the client's
/// stream opened, the target of a proxy request it opened with, its ClientHello (name and offer),
/// the server's answer and, up to TLS 1.2, its certificate chain. Each stream is given once, in
/// order — the relay's reassembled streams live, the offline reassembler's in `analyze` — and each
/// byte is looked at once.
///
/// A proxy tunnel (SOCKS4/4a/5, HTTP CONNECT) is read through: the ClientHello from where the
/// request ended, the ServerHello from where the proxy's reply ended. Which reply to step over is
/// known from the client's first byte, as the client speaks first and a SOCKS5 server answers its
/// greeting before the request is complete; a server that speaks first, or answers with no such
/// reply, is read as before. (A client stream that begins like a request and proves none can meet
/// a server that answers like a proxy: what follows that reply is then read as the tunnel's.)
///
/// TLS that starts late is read the same way (`TCPFlowScanners+Upgrade`): a plaintext exchange
/// (SMTP, IMAP, POP3, FTP, XMPP, LDAP, PostgreSQL) is followed on each side to where that side
/// switches, and the same hello and certificate scanners start there. Only streams whose first
/// bytes could be such an exchange pay for it: a server that greets before the client speaks
/// (`220`, `+OK`, `*`), or a client that opens with 0x00, 0x30 or '<'.
///
/// Every scanner is sticky, so once all have settled `isSettled` lets the caller stop feeding
/// and drop this value: a bulk transfer costs one check per chunk.
package struct TCPFlowScanners: Sendable {
    private var opening: StreamOpeningScanner? = StreamOpeningScanner()
    private var proxyRequest: ProxyRequestScanner? = ProxyRequestScanner()
    private var clientHello: ClientHelloScanner? = ClientHelloScanner()
    private var proxyReply: ProxyReplyScanner?
    var serverHello: ServerHelloScanner? = ServerHelloScanner()
    private var certificates: ServerCertificateScanner?
    /// The reply the proxy request found asks for.
    private var tunnel: ProxyReplyScanner.Kind?
    /// Each side of a plaintext exchange followed to its switch to TLS, while it may be one.
    var upgradeRequest: UpgradeFollower?
    var upgradeAnswer: UpgradeFollower?
    /// What the client switched by, after the server's yes; the server's switch must match it.
    var requested: PlaintextUpgrade?
    /// A plaintext exchange was followed and given up (garbage, or no switch within the bounds).
    package internal(set) var upgradeAbandoned = false
    /// Bytes of each stream given so far.
    var clientOffset = 0
    private var serverOffset = 0

    package init() {}

    /// Nothing more can be learned from either stream.
    package var isSettled: Bool { isClientSettled && isServerSettled }
    package var isClientSettled: Bool { opening == nil && proxyRequest == nil && clientHello == nil && upgradeRequest == nil }
    package var isServerSettled: Bool {
        proxyReply == nil && serverHello == nil && certificates == nil && upgradeAnswer == nil
    }

    /// The next bytes the client sent; returns what they taught, in the order learned.
    package mutating func client(_ bytes: UnsafeRawBufferPointer) -> [FlowFact] {
        guard !isClientSettled, bytes.count > 0 else { return [] }
        let start = clientOffset
        clientOffset += bytes.count
        var facts: [FlowFact] = []
        var rest = bytes
        if start == 0, serverOffset == 0, let grammar = UpgradeGrammar.clientSpeaksFirst(firstByte: bytes[0]) {
            upgradeRequest = UpgradeFollower(grammar)
        }
        // Each scanner is driven in place (`scanner!.scan`): copying one out and back costs a
        // memmove of its whole state per chunk.
        if opening != nil, case .decided(let decided) = opening!.scan(bytes) {
            facts.append(.streamOpening(decided))
            opening = nil
        }
        if proxyRequest != nil {
            switch proxyRequest!.scan(bytes) {
            case .needMoreBytes:
                break
            case .found(let request):
                facts.append(.proxyTarget(request.target))
                tunnel = ProxyReplyScanner.Kind(request.target.proxyProtocol)
                proxyRequest = nil
                // The one read so far saw the request, not TLS: the tunnel's hello starts afresh.
                clientHello = ClientHelloScanner()
                rest = Self.suffix(of: bytes, from: request.end - start)
            case .unavailable:
                proxyRequest = nil
            }
        }
        if upgradeRequest != nil, let end = followRequest(bytes, into: &facts) {
            // The hello read so far saw plaintext: the one after the switch starts afresh.
            clientHello = ClientHelloScanner()
            rest = Self.suffix(of: bytes, from: end - start)
        }
        if clientHello != nil {
            switch clientHello!.scan(rest) {
            case .needMoreBytes:
                break
            case .found(let name):
                facts.append(.serverName(name))
                facts += Self.offerFacts(clientHello!)
                clientHello = nil
            case .unavailable:
                facts += Self.offerFacts(clientHello!)
                clientHello = nil
            }
        }
        return facts
    }

    /// The next bytes the server sent.
    package mutating func server(_ bytes: UnsafeRawBufferPointer) -> [FlowFact] {
        guard !isServerSettled, bytes.count > 0 else { return [] }
        let start = serverOffset
        serverOffset += bytes.count
        var facts: [FlowFact] = []
        var rest = bytes
        if start == 0, let kind = tunnel ?? proxyRequest?.candidate {
            proxyReply = ProxyReplyScanner(kind: kind)
        }
        if start == 0, upgradeAnswer == nil, proxyReply == nil {
            startAnswer(firstByte: bytes[0])
        }
        if upgradeAnswer != nil {
            guard let end = followAnswer(bytes) else { return facts }
            serverHello = ServerHelloScanner()
            rest = Self.suffix(of: bytes, from: end - start)
        }
        if proxyReply != nil {
            switch proxyReply!.scan(bytes) {
            case .needMoreBytes:
                return facts
            case .found(let end):
                proxyReply = nil
                rest = Self.suffix(of: bytes, from: end - start)
            case .unavailable(let reason):
                proxyReply = nil
                // No such reply in the first chunk (a TLS record is refused at its first byte):
                // the client's first byte misled, and the stream is read as if no proxy spoke.
                // Refused, or no reply after bytes that began like one: no tunnel to read.
                guard reason == .notReply, start == 0 else {
                    serverHello = nil
                    return facts
                }
            }
        }
        if serverHello != nil {
            switch serverHello!.scan(rest) {
            case .needMoreBytes:
                return facts
            case .found(let negotiated):
                facts.append(.serverAnswer(.negotiated(negotiated)))
                if let fingerprints = serverHello!.fingerprints { facts.append(.serverFingerprints(fingerprints)) }
                if let remainder = serverHello!.remainder, !remainder.choseTLS13 {
                    certificates = ServerCertificateScanner(resuming: remainder)
                }
                serverHello = nil
                // The certificate scanner starts from what followed the hello in this chunk.
                rest = UnsafeRawBufferPointer(start: nil, count: 0)
            case .unavailable(let reason):
                if case .alert(let description) = reason { facts.append(.serverAnswer(.refused(alert: description))) }
                serverHello = nil
                return facts
            }
        }
        if certificates != nil {
            switch certificates!.scan(rest) {
            case .needMoreBytes:
                break
            case .found(let reading):
                facts.append(.serverCertificates(reading))
                certificates = nil
            case .unavailable:
                certificates = nil
            }
        }
        return facts
    }

    /// A read hello's offer and fingerprints, when it was sound.
    static func offerFacts(_ scanner: ClientHelloScanner) -> [FlowFact] {
        guard let offer = scanner.offer else { return [] }
        return [.clientOffer(offer)] + (scanner.fingerprints.map { [.clientFingerprints($0)] } ?? [])
    }

    /// The bytes of `chunk` from `offset` on (an offset the scanners found within it).
    private static func suffix(of chunk: UnsafeRawBufferPointer, from offset: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: chunk[min(max(offset, 0), chunk.count)...])
    }
}
