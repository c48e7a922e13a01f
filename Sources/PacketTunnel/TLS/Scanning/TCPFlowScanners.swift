import Foundation
import Shared

/// Everything read from one TCP flow's two byte streams without decrypting: how the client's
/// stream opened, its ClientHello (name and offer), the server's answer and, up to TLS 1.2, its
/// certificate chain. Each stream is given once, in order — the relay's reassembled streams live,
/// the offline reassembler's in `analyze` — and each byte is looked at once.
///
/// Every scanner is sticky, so once all have settled `isSettled` lets the caller stop feeding
/// and drop this value: a bulk transfer costs one check per chunk.
package struct TCPFlowScanners: Sendable {
    private var opening: StreamOpeningScanner? = StreamOpeningScanner()
    private var clientHello: ClientHelloScanner? = ClientHelloScanner()
    private var serverHello: ServerHelloScanner? = ServerHelloScanner()
    private var certificates: ServerCertificateScanner?

    package init() {}

    /// Nothing more can be learned from either stream.
    package var isSettled: Bool { isClientSettled && isServerSettled }
    package var isClientSettled: Bool { opening == nil && clientHello == nil }
    package var isServerSettled: Bool { serverHello == nil && certificates == nil }

    /// The next bytes the client sent; returns what they taught, in the order learned.
    package mutating func client(_ bytes: UnsafeRawBufferPointer) -> [FlowFact] {
        guard !isClientSettled, bytes.count > 0 else { return [] }
        var facts: [FlowFact] = []
        // Each scanner is driven in place (`scanner!.scan`): copying one out and back costs a
        // memmove of its whole state per chunk.
        if opening != nil, case .decided(let decided) = opening!.scan(bytes) {
            facts.append(.streamOpening(decided))
            opening = nil
        }
        if clientHello != nil {
            switch clientHello!.scan(bytes) {
            case .needMoreBytes:
                break
            case .found(let name):
                facts.append(.serverName(name))
                if let offer = clientHello!.offer { facts.append(.clientOffer(offer)) }
                clientHello = nil
            case .unavailable:
                if let offer = clientHello!.offer { facts.append(.clientOffer(offer)) }
                clientHello = nil
            }
        }
        return facts
    }

    /// The next bytes the server sent.
    package mutating func server(_ bytes: UnsafeRawBufferPointer) -> [FlowFact] {
        guard !isServerSettled, bytes.count > 0 else { return [] }
        var facts: [FlowFact] = []
        var rest = bytes
        if serverHello != nil {
            switch serverHello!.scan(rest) {
            case .needMoreBytes:
                return facts
            case .found(let negotiated):
                facts.append(.serverAnswer(.negotiated(negotiated)))
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
}
