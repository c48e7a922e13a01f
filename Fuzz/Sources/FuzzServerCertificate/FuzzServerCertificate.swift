import Foundation
import FuzzSupport
import PacketTunnel
import Shared

/// One input: a control byte (bit 0: the stream is taken as it is, ServerHello included; clear:
/// a fixed TLS 1.2 ServerHello record is put before it, so most inputs reach the certificate
/// scanner; bit 1 with the next byte: small caps), a chunking byte (`Chunking`), then the stream.
/// The stream is fed in those chunks to a `ServerHelloScanner` and, once it finds the hello, to
/// the `ServerCertificateScanner` resuming from it, and then:
/// - the certificate scanner answers exactly what it answers when the stream comes in one chunk;
/// - once settled it stays settled, whatever it is fed next;
/// - a chain keeps within its caps: at most `maxCertificates`, names at most `maxNameLength` bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServerCertificate(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let control = input.byte()
    let caps = input.byte()
    let chunking = Chunking(selector: input.byte())
    var stream = control & 1 == 0 ? tls12ServerHelloRecord : []
    stream += input.rest
    var config = ServerCertificateScanner.Config()
    if control & 2 != 0 {
        config = ServerCertificateScanner.Config(maxChainBytes: 16 + Int(caps) * 16, maxCertificates: Int(caps & 3),
                                                 maxNameLength: Int(caps >> 2))
    }

    let expected = scan(stream, in: Chunking(selector: 0), config: config)
    let chunked = scan(stream, in: chunking, config: config)
    invariant(chunked == expected, "chunked \(chunking.selector): \(String(describing: chunked)); whole: \(String(describing: expected))")

    if case let .found(.chain(chain)) = expected {
        invariant(chain.certificates.count <= config.maxCertificates, "kept \(chain.certificates.count) certificates")
        for certificate in chain.certificates {
            for name in [certificate.subject, certificate.issuer] {
                invariant(name.text.utf8.count <= config.maxNameLength, "a name of \(name.text.utf8.count) bytes kept")
            }
        }
    }
    return 0
}

/// What the certificate scanner answers after the whole stream, fed in `chunking`'s chunks (nil:
/// no ServerHello was found).
private func scan(_ stream: [UInt8], in chunking: Chunking,
                  config: ServerCertificateScanner.Config) -> ServerCertificateScanner.Outcome? {
    var hello = ServerHelloScanner()
    var certificates: ServerCertificateScanner?
    var outcome: ServerCertificateScanner.Outcome = .needMoreBytes
    stream.withUnsafeBytes { bytes in
        for (index, range) in chunking.ranges(count: bytes.count).enumerated() {
            let chunk = UnsafeRawBufferPointer(rebasing: bytes[range])
            if var scanner = certificates {
                let next = index & 1 == 0 ? scanner.scan(chunk) : scanner.scan(Data(chunk))
                if outcome != .needMoreBytes { invariant(next == outcome, "settled on \(outcome), then answered \(next)") }
                outcome = next
                certificates = scanner
            } else if case .found = index & 1 == 0 ? hello.scan(chunk) : hello.scan(Data(chunk)), let remainder = hello.remainder {
                var scanner = ServerCertificateScanner(resuming: remainder, config: config)
                // The rest of the chunk that completed the hello.
                outcome = scanner.scan(Data())
                certificates = scanner
            }
        }
    }
    guard var scanner = certificates else { return nil }
    if outcome != .needMoreBytes {
        invariant(scanner.scan(Data([0x16, 0x03, 0x03, 0x00])) == outcome, "a settled scanner answered differently")
    }
    return outcome
}

/// A TLS 1.2 ServerHello (ECDHE_RSA_WITH_AES_128_GCM_SHA256, renegotiation_info) in one record.
private let tls12ServerHelloRecord: [UInt8] = {
    var body: [UInt8] = [0x03, 0x03] + [UInt8](repeating: 0x22, count: 32) + [0x00, 0xC0, 0x2F, 0x00]
    body += [0x00, 0x05, 0xFF, 0x01, 0x00, 0x01, 0x00]
    let message = [0x02, 0x00, 0x00, UInt8(body.count)] + body
    return [0x16, 0x03, 0x03, 0x00, UInt8(message.count)] + message
}()
