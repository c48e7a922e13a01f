import FuzzSupport
import Shared

/// One input: a control byte (the name cap for the certificate reader), then DER. The input is
/// walked as a tree of TLVs — every constructed element's content read as elements in turn, up to
/// a depth — and then:
/// - every element's content and encoding lie inside the input and inside its parent, the content
///   ends the encoding, and one element follows the next with no gap;
/// - an element's own encoding, read alone, is the same element and nothing more;
/// - a failed read consumes nothing;
/// - `ServerCertificateReader` answers a certificate or nil, and a certificate it reads keeps its
///   names within the cap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDER(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let maxNameLength = Int(input.byte())
    let der = Array(input.rest)[...]
    walk(der, depth: 0)
    if let certificate = ServerCertificateReader.certificate(fromDER: der, maxNameLength: maxNameLength) {
        for name in [certificate.subject, certificate.issuer] {
            invariant(name.text.utf8.count <= maxNameLength, "a name of \(name.text.utf8.count) bytes kept")
        }
    }
    // The same bytes at other indices read the same: the reader counts from the slice's start.
    let shifted = ([0x30, 0x00] + Array(der))[2...]
    invariant(ServerCertificateReader.certificate(fromDER: shifted, maxNameLength: maxNameLength)
              == ServerCertificateReader.certificate(fromDER: der, maxNameLength: maxNameLength),
              "the reader depends on the slice's indices")
    return 0
}

private func walk(_ bytes: ArraySlice<UInt8>, depth: Int) {
    var reader = DERReader(bytes)
    var expectedStart = bytes.startIndex
    while !reader.isAtEnd {
        let before = reader.index
        invariant(before == expectedStart, "an element starts at \(before), the previous ended at \(expectedStart)")
        let element: DERReader.Element
        do {
            element = try reader.read()
        } catch {
            invariant(reader.index == before, "a failed read (\(error)) moved the reader")
            return
        }
        let encoded = element.encoded, content = element.content
        invariant(encoded.startIndex == before && encoded.endIndex == reader.index, "the encoding is not what was consumed")
        invariant(encoded.endIndex <= bytes.endIndex && encoded.startIndex >= bytes.startIndex, "the encoding is outside its parent")
        invariant(content.endIndex == encoded.endIndex && content.startIndex > encoded.startIndex, "the content does not end the encoding")
        var alone = DERReader(encoded)
        let reread = Result { () throws(DERReader.Failure) in try alone.read() }
        invariant(reread == .success(element) && alone.isAtEnd, "the element's own encoding reads as \(reread)")
        expectedStart = reader.index
        if element.tag.isConstructed, depth < 32 { walk(content, depth: depth + 1) }
    }
}
