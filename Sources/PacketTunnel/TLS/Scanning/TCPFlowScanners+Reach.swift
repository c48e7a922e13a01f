/// How far into each stream the scanners can read before all of them have settled: the bound an
/// offline reassembler needs, since bytes beyond it can teach nothing and need not be held.
///
/// Each scanner reads only the first handshake message of its stream (ClientHello, ServerHello,
/// then the Certificate message or whatever stands in its place), at most its own body limit. The
/// worst framing carries that message one byte per record (RFC 8446 §5.1 forbids empty handshake
/// records), each byte behind a 5-byte record header; one more header may be read and refused.
/// An HTTP request line is waited for up to its own limit; a proxy's request and reply, or a
/// plaintext exchange before STARTTLS, up to theirs, before the handshake that follows.
extension TCPFlowScanners {
    /// The client's stream: its opening, a proxy request and its ClientHello.
    package static let clientStreamReach = max(
        StreamOpeningScanner.Config().maxRequestLineBytes,
        max(ProxyRequestScanner.maxRequestBytes, UpgradeLimits.maxPlaintextBytes)
            + framedReach(messageBytes: TLSWire.handshakeHeaderLength + ClientHelloScanner.Config().maxHelloBytes))

    /// The server's stream: a proxy's reply, its ServerHello and, up to TLS 1.2, the Certificate
    /// message after it.
    package static let serverStreamReach = max(ProxyReplyScanner.maxReplyBytes, UpgradeLimits.maxPlaintextBytes) + framedReach(
        messageBytes: TLSWire.handshakeHeaderLength + ServerHelloScanner.maxHelloBytes
            + TLSWire.handshakeHeaderLength + ServerCertificateScanner.Config().maxChainBytes)

    /// Stream bytes that carry `messageBytes` of handshake messages in the worst framing.
    private static func framedReach(messageBytes: Int) -> Int {
        messageBytes * (1 + TLSWire.recordHeaderLength) + TLSWire.recordHeaderLength
    }
}
