import Foundation
import FuzzSupport
import Shared

/// One input: a UDP datagram sent to port 443, read as QUIC client Initials the way the pipeline
/// reads them — each coalesced packet's header, then the packet opened with the Initial keys of
/// the first packet's DCID, then its CRYPTO frames filed into the connection's crypto stream. A
/// random datagram almost never authenticates: the seeds are real sealed Initials, and the frames
/// and the stream are fuzzed on plaintext by FuzzQUICCryptoFrames. Checked:
/// - the header reads the same from a `Data` slice as from raw bytes, and lies inside the datagram
///   (connection IDs at most 20 bytes, the packet number and payload within its bytes);
/// - an opened packet holds its Length minus the packet number and the 16-byte tag;
/// - the stream only ever grows its contiguous prefix, by the ranges it reports.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQUICInitial(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let datagram = FuzzInput(data, size).restData
    var offset = 0
    var keys: QUICInitialKeys?
    var largest: UInt64?
    var stream = QUICCryptoStream()
    // A 1200-byte datagram holds at most a few real Initials; more is looping on junk.
    for _ in 0..<8 where offset < datagram.count {
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

        if keys == nil {
            keys = QUICInitialKeys(version: header.version, clientDestinationConnectionID: header.destinationConnectionID)
            invariant(keys != nil, "no Initial keys for version \(header.version)")
        }
        let opened = Result { () throws(QUICInitialError) in
            try QUICInitialPacket(datagram: packetBytes, header: header, keys: keys!, largestPacketNumber: largest)
        }
        switch opened {
        case let .success(packet):
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
            invariant(keys!.version != header.version, "keys of version \(header.version) refused for it")
        case .failure:
            break
        }
        offset += header.totalLength
    }
    return 0
}
