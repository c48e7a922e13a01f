import COpenSSL
import Foundation

/// A client Initial with its protection removed (RFC 9001 §5.3–5.4): the packet number and the
/// decrypted frames. Opening takes the header read once by `QUICInitialHeader(datagram:)` and
/// the connection's keys derived once by `QUICInitialKeys`; per packet it costs two cipher calls
/// and one buffer for the frames.
package struct QUICInitialPacket: Sendable, Hashable {
    package let header: QUICInitialHeader
    package let packetNumber: UInt64
    /// The decrypted payload: frames, PADDING included.
    package let frames: Data

    /// The AEAD tag's length (AEAD_AES_128_GCM, RFC 9001 §5.3).
    package static let tagLength = 16

    /// Opens the Initial that `datagram` starts with and `header` describes, with the client
    /// keys of its connection. `largestPacketNumber` is the largest packet number opened so far
    /// on this connection (nil: none yet), against which the truncated one is expanded.
    ///
    /// Steps: unmask the first byte's low four bits and the packet number with AES-ECB of the
    /// sample 4 bytes past its start; expand the packet number; AES-128-GCM with nonce
    /// IV ⊕ packet number and the unprotected header as associated data. Reserved bits are not
    /// checked. Throws `keysOfAnotherVersion`, `truncated` (datagram shorter than the header
    /// says), `headerProtectionFailed`, or `authenticationFailed` (no frames are returned).
    package init(datagram: Data, header: QUICInitialHeader, keys: QUICInitialKeys,
                largestPacketNumber: UInt64?) throws(QUICInitialError) {
        let result = datagram.withUnsafeBytes { bytes in
            Result { () throws(QUICInitialError) in
                try Self.open(bytes, header: header, keys: keys, largestPacketNumber: largestPacketNumber)
            }
        }
        (packetNumber, frames) = try result.get()
        self.header = header
    }

    private static func open(_ bytes: UnsafeRawBufferPointer, header: QUICInitialHeader, keys: QUICInitialKeys,
                             largestPacketNumber: UInt64?) throws(QUICInitialError) -> (UInt64, Data) {
        guard keys.version == header.version else { throw .keysOfAnotherVersion }
        let packetNumberOffset = header.packetNumberOffset
        let end = header.totalLength
        // A header from another datagram must not lead us past this one's bytes.
        guard packetNumberOffset >= 1, header.packetLength >= QUICInitialHeader.minimumPacketLength,
              end <= bytes.count, Int32(exactly: end) != nil else { throw .truncated }
        guard let context = EVP_CIPHER_CTX_new() else { throw .authenticationFailed }
        defer { EVP_CIPHER_CTX_free(context) }

        // RFC 9001 §5.4.2: the sample starts 4 bytes past the packet number start, whatever its
        // length, so it can be taken before the length is known.
        let sampleStart = packetNumberOffset + 4
        let sample = UnsafeRawBufferPointer(rebasing: bytes[sampleStart..<(sampleStart + QUICHeaderProtection.sampleLength)])
        let mask = try QUICHeaderProtection.mask(key: keys.headerProtectionKey, sample: sample, context: context)
        let first = bytes[0] ^ (mask.first & 0x0F)  // long header: four low bits protected
        let packetNumberLength = Int(first & 0x03) + 1
        var truncated: UInt64 = 0
        for index in 0..<packetNumberLength {
            truncated = truncated << 8 | UInt64(bytes[packetNumberOffset + index] ^ mask.packetNumberByte(index))
        }
        guard let packetNumber = QUICPacketNumber.decode(truncated: truncated, byteCount: packetNumberLength,
                                                         largestProcessed: largestPacketNumber)
        else { throw .authenticationFailed }

        let headerLength = packetNumberOffset + packetNumberLength
        let tagStart = end - tagLength
        let plaintextLength = tagStart - headerLength  // ≥ 0: Length ≥ 20 ≥ pn length + tag
        var frames = Data(count: plaintextLength)
        let authenticated = withUnsafeTemporaryAllocation(byteCount: headerLength + 12 + tagLength, alignment: 1) { scratch in
            // The associated data is the header as sent before protection (RFC 9001 §5.3).
            let associatedData = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<headerLength])
            associatedData.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[0..<headerLength]))
            associatedData[0] = first
            for index in 0..<packetNumberLength {
                associatedData[packetNumberOffset + index] ^= mask.packetNumberByte(index)
            }
            // Nonce: the IV with the packet number, left-padded to 12 bytes, XORed in.
            let nonce = UnsafeMutableRawBufferPointer(rebasing: scratch[headerLength..<(headerLength + 12)])
            keys.iv.withUnsafeBytes { nonce.copyMemory(from: $0) }
            for index in 0..<8 {
                nonce[4 + index] ^= UInt8(truncatingIfNeeded: packetNumber >> UInt64(56 - 8 * index))
            }
            // OpenSSL takes the expected tag through a mutable pointer; give it a copy.
            let tag = UnsafeMutableRawBufferPointer(rebasing: scratch[(headerLength + 12)...])
            tag.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[tagStart..<end]))
            let ciphertext = UnsafeRawBufferPointer(rebasing: bytes[headerLength..<tagStart])
            return frames.withUnsafeMutableBytes { output in
                keys.key.withUnsafeBytes { key in
                    decrypt(context: context, key: key, nonce: UnsafeRawBufferPointer(nonce),
                            associatedData: UnsafeRawBufferPointer(associatedData),
                            ciphertext: ciphertext, tag: tag, output: output)
                }
            }
        }
        guard authenticated else { throw .authenticationFailed }
        return (packetNumber, frames)
    }

    /// AES-128-GCM open; true only when the tag verifies. `output` holds `ciphertext.count` bytes.
    private static func decrypt(context: OpaquePointer, key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer,
                                associatedData: UnsafeRawBufferPointer, ciphertext: UnsafeRawBufferPointer,
                                tag: UnsafeMutableRawBufferPointer, output: UnsafeMutableRawBufferPointer) -> Bool {
        guard key.count == 16, nonce.count == 12 else { return false }
        // GCM's default IV length is 12 bytes: key and nonce go in with the cipher at once.
        guard EVP_DecryptInit_ex(context, EVP_aes_128_gcm(), nil, u8(key), u8(nonce)) == 1 else { return false }
        var written: Int32 = 0
        guard EVP_DecryptUpdate(context, nil, &written, u8(associatedData), Int32(associatedData.count)) == 1
        else { return false }
        var plaintextWritten = 0
        if ciphertext.count > 0 {
            guard EVP_DecryptUpdate(context, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &written,
                                    u8(ciphertext), Int32(ciphertext.count)) == 1 else { return false }
            plaintextWritten = Int(written)
        }
        guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(tag.count), tag.baseAddress) == 1 else { return false }
        // GCM writes nothing at final; the pointer only has to be valid.
        var scratch: UInt8 = 0
        let verified = withUnsafeMutablePointer(to: &scratch) { scratch in
            let final = plaintextWritten < output.count
                ? output.baseAddress!.advanced(by: plaintextWritten).assumingMemoryBound(to: UInt8.self)
                : scratch
            return EVP_DecryptFinal_ex(context, final, &written) == 1
        }
        return verified && plaintextWritten == output.count
    }

    @inline(__always)
    private static func u8(_ buffer: UnsafeRawBufferPointer) -> UnsafePointer<UInt8>? {
        buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
    }
}
