import Foundation
import FuzzSupport
import PacketTunnel
import Shared

/// One input: a chunking byte (`Chunking`), then the server's stream. The scanner is fed the stream
/// in those chunks, alternating its `Data` and borrowed-bytes entry points, and then:
/// - it answers exactly what it answers when fed the whole stream at once;
/// - once settled it stays settled, whatever it is fed next;
/// - it keeps a remainder exactly when it found a ServerHello, holding what it found.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServerHello(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let chunking = Chunking(selector: input.byte())
    let stream = input.rest

    var whole = ServerHelloScanner()
    let expected = whole.scan(stream)

    var chunked = ServerHelloScanner()
    var outcome: ServerHelloScanner.Outcome = .needMoreBytes
    for (index, range) in chunking.ranges(count: stream.count).enumerated() {
        let chunk = UnsafeRawBufferPointer(rebasing: stream[range])
        let next = index & 1 == 0 ? chunked.scan(Data(chunk)) : chunked.scan(chunk)
        if outcome != .needMoreBytes { invariant(next == outcome, "settled on \(outcome), then answered \(next)") }
        outcome = next
    }
    invariant(outcome == expected, "chunked \(chunking.selector): \(outcome); whole: \(expected)")

    if expected != .needMoreBytes {
        invariant(whole.scan(stream) == expected && whole.scan(Data([0x16, 0x03, 0x03])) == expected,
                  "a settled scanner answered differently")
    }
    if case let .found(negotiated) = expected {
        invariant(whole.remainder?.negotiated == negotiated && chunked.remainder?.negotiated == negotiated,
                  "found \(negotiated) but kept \(String(describing: whole.remainder?.negotiated))")
        invariant(negotiated.source == .serverHello, "a ServerHello reading from \(negotiated.source)")
        invariant(whole.fingerprints != nil && whole.fingerprints == chunked.fingerprints, "a ServerHello without its JA3S")
        if let prints = whole.fingerprints {
            invariant(prints.ja3sFull.split(separator: ",", omittingEmptySubsequences: false).count == 3, "JA3S \(prints.ja3sFull)")
            invariant(prints.ja3s.count == 32, "JA3S hash \(prints.ja3s)")
        }
    } else {
        invariant(whole.fingerprints == nil && chunked.fingerprints == nil, "a JA3S without a ServerHello")
        invariant(whole.remainder == nil && chunked.remainder == nil, "a remainder without a ServerHello")
    }
    return 0
}
