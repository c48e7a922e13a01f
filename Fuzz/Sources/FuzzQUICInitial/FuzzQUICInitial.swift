import Foundation
import FuzzSupport
import PacketTunnel
import Shared

/// One input: a UDP datagram sent to port 443, read as QUIC client Initials the way the pipeline
/// reads them — each coalesced packet's header, then the packet opened with the Initial keys of
/// the first packet's DCID, then its CRYPTO frames filed into the connection's crypto stream. A
/// random datagram almost never authenticates: the seeds are real sealed Initials, and the frames
/// and the stream are fuzzed on plaintext by FuzzQUICCryptoFrames. Checked:
/// - the header reads the same from a `Data` slice as from raw bytes, and lies inside the datagram
///   (connection IDs at most 20 bytes, the packet number and payload within its bytes);
/// - an opened packet holds its Length minus the packet number and the 16-byte tag;
/// - the stream only ever grows its contiguous prefix, by the ranges it reports;
/// - `QUICClientHelloReader`, the pipeline's composition of all this and the ClientHello scanner,
///   counts the same packets and settles as the scanner does on the stream read here;
/// - the server's side of the handshake reader takes the same bytes without a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQUICInitial(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let datagram = FuzzInput(data, size).restData
    var offset = 0
    var keys: QUICInitialKeys?
    var largest: UInt64?
    var stream = QUICCryptoStream()
    var counts = PacketCounts()
    defer { compare(datagram, with: stream, counts) }
    // Each packet takes at least the 21 bytes of a minimal header and Length, so this ends.
    while offset < datagram.count {
        let packetBytes = datagram[(datagram.startIndex + offset)...]
        let fromData = Result { () throws(QUICInitialError) in try QUICInitialHeader(datagram: packetBytes) }
        let fromBytes = packetBytes.withUnsafeBytes { bytes in
            Result { () throws(QUICInitialError) in try QUICInitialHeader(bytes: bytes) }
        }
        invariant(fromData == fromBytes, "the header reads \(fromData) from Data, \(fromBytes) from bytes")
        guard case let .success(header) = fromData else { return 0 }
        invariant(header.destinationConnectionID.count <= 20 && header.sourceConnectionID.count <= 20, "a connection ID over 20 bytes")
        invariant(header.packetNumberOffset > 0 && header.packetLength >= QUICInitialHeader.minimumPacketLength
                  && header.totalLength <= packetBytes.count, "header \(header) outside \(packetBytes.count) bytes")
        invariant(header.packetNumberOffset >= 9 + header.destinationConnectionID.count + header.sourceConnectionID.count
                  + header.tokenLength, "the packet number starts inside the fields before it")

        counts.initialsSeen += 1
        if keys == nil {
            keys = QUICInitialKeys(version: header.version, clientDestinationConnectionID: header.destinationConnectionID)
            invariant(keys != nil, "no Initial keys for version \(header.version)")
        }
        let opened = Result { () throws(QUICInitialError) in
            try QUICInitialPacket(datagram: packetBytes, header: header, keys: keys!, largestPacketNumber: largest)
        }
        switch opened {
        case let .success(packet):
            counts.initialsOpened += 1
            let plaintext = header.packetLength - QUICInitialPacket.tagLength - packet.frames.count
            invariant((1...4).contains(plaintext), "\(packet.frames.count) frame bytes from a Length of \(header.packetLength)")
            largest = max(largest ?? 0, packet.packetNumber)
            let before = stream.contiguousLength
            switch stream.receive(packet) {
            case let .delivered(range):
                invariant(range.lowerBound == before && range.upperBound == stream.contiguousLength && !range.isEmpty,
                          "delivered \(range) moving the prefix \(before) → \(stream.contiguousLength)")
            case .nothingNew:
                invariant(stream.contiguousLength == before, "the prefix moved with nothing new")
            case .refused:
                // Frames before a bad one are kept, so the prefix may have grown.
                invariant(stream.refusal != nil && stream.contiguousLength >= before, "refused, but no refusal kept")
            }
        case .failure(.keysOfAnotherVersion):
            counts.initialsUnopenable += 1
            invariant(keys!.version != header.version, "keys of version \(header.version) refused for it")
        case .failure:
            counts.initialsUnopenable += 1
        }
        offset += header.totalLength
    }
    return 0
}

/// What the pipeline's reader makes of the same datagram, against the stream read above and a
/// ClientHello scanner fed its contiguous prefix.
private struct PacketCounts: CustomStringConvertible {
    var initialsSeen = 0, initialsOpened = 0, initialsUnopenable = 0

    var description: String { "seen \(initialsSeen), opened \(initialsOpened), unopenable \(initialsUnopenable)" }

    func matches(_ counts: QUICInitialCounts) -> Bool {
        counts.initialsSeen == initialsSeen && counts.initialsOpened == initialsOpened
            && counts.initialsUnopenable == initialsUnopenable
    }
}

private func compare(_ datagram: Data, with stream: QUICCryptoStream, _ counts: PacketCounts) {
    var reader = QUICClientHelloReader()
    let read = reader.read(datagram: datagram)
    var scanner = ClientHelloScanner(framing: .handshakeMessages)
    let scanned = stream.withBytes(in: 0..<stream.contiguousLength) { scanner.scan($0) }
    switch reader.outcome {
    case .needMoreInitials:
        invariant(counts.matches(read), "the reader counted \(read), the packets were \(counts)")
        invariant(stream.refusal == nil && scanned == .needMoreBytes, "the reader still waits; the stream says \(scanned)")
    case let .named(name, offer):
        // The reader stops at the packet that settles it; the prefix read here only grew after.
        invariant(read.initialsSeen <= counts.initialsSeen, "the reader saw more packets than there are")
        invariant(scanned == .found(name) && scanner.offer == offer, "the reader named \(name); the stream scans as \(scanned)")
    case let .unnamed(offer):
        invariant(read.initialsSeen <= counts.initialsSeen, "the reader saw more packets than there are")
        guard case .unavailable = scanned, scanner.offer == offer else {
            fatalError("the reader found no name; the stream scans as \(scanned)")
        }
    case .incomplete:
        invariant(stream.refusal != nil, "the reader gave up on a stream that was not refused")
    }
    // The same bytes as the server's answer, keyed by the client's: read without a trap, and an
    // answer, when one is read, is a ServerHello's.
    var both = QUICHandshakeReader()
    _ = both.readClient(datagram)
    _ = both.readServer(datagram)
    if case let .answered(negotiated) = both.server.outcome {
        invariant(negotiated.source == .serverHello, "a QUIC answer read from \(negotiated.source)")
    }
}
