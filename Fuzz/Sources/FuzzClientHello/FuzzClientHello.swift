import Foundation
import FuzzSupport
import PacketTunnel
import Shared

/// One input: a control byte (bit 0: QUIC framing — bare handshake messages — instead of TLS
/// records; bits 1…7 with the next byte: small caps, so the limits are reached too), a chunking
/// byte (`Chunking`), then the client's stream. The scanner is fed the stream in those chunks,
/// alternating its `Data` and borrowed-bytes entry points, and then:
/// - it answers exactly what it answers when fed the whole stream at once (outcome and offer);
/// - once settled it stays settled, whatever it is fed next;
/// - a name found follows the scanner's rule (lowercase letters, digits, `-`, `_`, dots; at most
///   253 bytes) and the offer keeps within its caps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClientHello(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let control = input.byte()
    let caps = input.byte()
    let chunking = Chunking(selector: input.byte())
    let stream = input.rest
    let framing: ClientHelloScanner.Framing = control & 1 == 0 ? .tlsRecords : .handshakeMessages
    var config = ClientHelloScanner.Config()
    if control & 2 != 0 {
        config = ClientHelloScanner.Config(maxHelloBytes: 64 + Int(caps) * 8, maxApplicationProtocols: Int(caps & 7),
                                           maxApplicationProtocolLength: Int(caps >> 3))
    }

    var whole = ClientHelloScanner(config: config, framing: framing)
    let expected = whole.scan(stream)

    var chunked = ClientHelloScanner(config: config, framing: framing)
    var outcome: ClientHelloScanner.Outcome = .needMoreBytes
    for (index, range) in chunking.ranges(count: stream.count).enumerated() {
        let chunk = UnsafeRawBufferPointer(rebasing: stream[range])
        let next = index & 1 == 0 ? chunked.scan(chunk) : chunked.scan(Data(chunk))
        if outcome != .needMoreBytes { invariant(next == outcome, "settled on \(outcome), then answered \(next)") }
        outcome = next
    }
    invariant(outcome == expected, "chunked \(chunking.selector): \(outcome); whole: \(expected)")
    invariant(chunked.offer == whole.offer, "chunked offer \(String(describing: chunked.offer)) ≠ \(String(describing: whole.offer))")
    invariant(chunked.fingerprints == whole.fingerprints, "chunked fingerprints differ from whole")
    invariant((whole.fingerprints != nil) == (whole.offer != nil), "fingerprints without an offer, or an offer without them")
    if let prints = whole.fingerprints { checkFingerprints(prints, framing: framing) }

    if expected != .needMoreBytes {
        invariant(whole.scan(stream) == expected && whole.scan(Data([0x16, 0x03, 0x01])) == expected,
                  "a settled scanner answered differently")
    }
    if case let .found(name) = expected { checkHostName(name) }
    if let offer = whole.offer {
        invariant(offer.applicationProtocols.count <= config.maxApplicationProtocols, "kept \(offer.applicationProtocols.count) ALPN names")
        for name in offer.applicationProtocols {
            invariant(name.utf8.count <= config.maxApplicationProtocolLength, "ALPN name of \(name.utf8.count) bytes")
        }
    }
    return 0
}

/// JA4 is `a_b_c`: ten characters, then twelve lowercase hex digits twice, its first character the
/// framing's transport; JA3 is five comma-separated fields, its hash 32 lowercase hex digits.
private func checkFingerprints(_ prints: ClientHelloFingerprints, framing: ClientHelloScanner.Framing) {
    let parts = prints.ja4.split(separator: "_", omittingEmptySubsequences: false)
    invariant(parts.count == 3 && parts[0].count == 10 && parts[1].count == 12 && parts[2].count == 12, "JA4 \(prints.ja4)")
    invariant(prints.ja4.first == (framing == .handshakeMessages ? "q" : "t"), "JA4 \(prints.ja4) over \(framing)")
    invariant(parts.dropFirst().allSatisfy { $0.allSatisfy { $0.isHexDigit && !$0.isUppercase } }, "JA4 \(prints.ja4)")
    invariant(prints.ja3Full.split(separator: ",", omittingEmptySubsequences: false).count == 5, "JA3 \(prints.ja3Full)")
    invariant(prints.ja3.count == 32 && prints.ja3.allSatisfy { $0.isHexDigit && !$0.isUppercase }, "JA3 hash \(prints.ja3)")
}

private func checkHostName(_ name: String) {
    let bytes = Array(name.utf8)
    invariant((1...253).contains(bytes.count), "name of \(bytes.count) bytes")
    for byte in bytes {
        let allowed = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        invariant(allowed, "byte \(byte) in the name \(name)")
    }
    // The one trailing dot allowed is removed; no label is empty or longer than 63 bytes, and the
    // last is not all digits (an IPv4 literal).
    let labels = name.split(separator: ".", omittingEmptySubsequences: false)
    invariant(labels.allSatisfy { (1...63).contains($0.utf8.count) }, "an empty or long label in \(name)")
    invariant(!labels.last!.allSatisfy(\.isNumber), "the last label of \(name) is numeric")
}
