import App
import FuzzSupport

/// One input: a chunking byte (`Chunking`), a limits byte (0: the server's own; else small ones,
/// so every limit is crossed often), then the bytes a client sent. The parser reads requests
/// until it needs more or refuses, and never traps; the same bytes in one piece and in chunks
/// give the same requests and the same last outcome; a request takes no more bytes than were
/// fed, and its target, head and body are within the limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let chunking = Chunking(selector: input.byte())
    let limitsByte = input.byte()
    var limits = WebServerLimits.standard
    if limitsByte != 0 {
        limits.maximumHeaderBytes = 32 + Int(limitsByte)
        limits.maximumTargetBytes = 1 + Int(limitsByte % 48)
        limits.maximumBodyBytes = Int(limitsByte % 24)
    }
    let bytes = Array(input.rest)
    let whole = outcomes(of: [bytes[...]], limits: limits, fed: bytes.count)
    let chunks = chunking.ranges(count: bytes.count).map { bytes[$0] }
    let cut = outcomes(of: chunks, limits: limits, fed: bytes.count)
    invariant(whole == cut, "one piece gave \(whole), chunks gave \(cut)")
    return 0
}

/// Every request read from `chunks`, then the last outcome (need more, or a refusal).
private func outcomes(of chunks: [ArraySlice<UInt8>], limits: WebServerLimits, fed total: Int) -> [HTTPRequestParser.Outcome] {
    var parser = HTTPRequestParser(limits: limits)
    var seen: [HTTPRequestParser.Outcome] = []
    var fed = 0
    var taken = 0
    var last = HTTPRequestParser.Outcome.needMore
    for chunk in chunks {
        fed += chunk.count
        last = parser.feed(chunk)
        while case .request(let request, let consumed) = last {
            taken += consumed
            invariant(consumed > 0 && taken <= fed, "took \(taken) of \(fed) bytes fed")
            invariant(request.target.utf8.count <= limits.maximumTargetBytes, "a target over the limit")
            invariant(request.body.count <= limits.maximumBodyBytes, "a body over the limit")
            // Scalars, not UTF-8 bytes: a byte that is not UTF-8 reads as one U+FFFD of three bytes.
            let head = request.headers.fields.reduce(request.target.unicodeScalars.count) {
                $0 + $1.name.unicodeScalars.count + $1.value.unicodeScalars.count
            }
            invariant(head <= limits.maximumHeaderBytes, "a head over the limit")
            seen.append(last)
            last = parser.next()
        }
        if case .refused = last { break }
    }
    invariant(fed <= total, "fed more than the input")
    return seen + [last]
}
