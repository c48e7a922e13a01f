import COpenSSL
import Foundation

/// Header protection of Initial packets (RFC 9001 §5.4.3): AES-128-ECB of a 16-byte sample of
/// the ciphertext under the hp key; the first 5 bytes of the result are the mask.
package enum QUICHeaderProtection {
    static let keyLength = 16
    static let sampleLength = 16
    static let maskLength = 5

    /// The 5-byte mask for `sample` under the hp `key`. Throws `headerProtectionFailed` when the
    /// key or the sample is not 16 bytes, or OpenSSL refuses.
    package static func mask(key: Data, sample: Data) throws(QUICInitialError) -> Data {
        guard sample.count == sampleLength else { throw .headerProtectionFailed }
        guard let context = EVP_CIPHER_CTX_new() else { throw .headerProtectionFailed }
        defer { EVP_CIPHER_CTX_free(context) }
        let result = sample.withUnsafeBytes { sample in
            Result { () throws(QUICInitialError) in try Self.mask(key: key, sample: sample, context: context) }
        }
        let value = try result.get()
        var bytes = Data(count: maskLength)
        bytes[0] = value.first
        for index in 0..<4 { bytes[1 + index] = value.packetNumberByte(index) }
        return bytes
    }

    /// The mask as a value with no heap behind it: `first` for the first byte, then up to four
    /// bytes for the packet number.
    struct Mask {
        let first: UInt8
        let packetNumber: UInt32

        func packetNumberByte(_ index: Int) -> UInt8 {
            UInt8(truncatingIfNeeded: packetNumber >> UInt32(24 - 8 * index))
        }
    }

    /// The mask for the first `sampleLength` bytes of `sample`, using (and leaving reset for
    /// reuse) a caller's EVP_CIPHER_CTX.
    static func mask(key: Data, sample: UnsafeRawBufferPointer, context: OpaquePointer) throws(QUICInitialError) -> Mask {
        guard key.count == keyLength, sample.count >= sampleLength, let sampleStart = sample.baseAddress else {
            throw .headerProtectionFailed
        }
        defer { EVP_CIPHER_CTX_reset(context) }
        // ECB of one block with padding off writes exactly one block; room for two is what
        // EVP_EncryptUpdate's contract asks of the caller.
        let computed = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * sampleLength) { output -> Mask? in
            var written: Int32 = 0
            let encrypted = key.withUnsafeBytes { key -> Bool in
                EVP_EncryptInit_ex(context, EVP_aes_128_ecb(), nil, key.bindMemory(to: UInt8.self).baseAddress, nil) == 1
                    && EVP_CIPHER_CTX_set_padding(context, 0) == 1
                    && EVP_EncryptUpdate(context, output.baseAddress, &written,
                                         sampleStart.assumingMemoryBound(to: UInt8.self), Int32(sampleLength)) == 1
            }
            guard encrypted, written == Int32(sampleLength) else { return nil }
            return Mask(first: output[0], packetNumber: UInt32(output[1]) << 24 | UInt32(output[2]) << 16
                                                        | UInt32(output[3]) << 8 | UInt32(output[4]))
        }
        guard let computed else { throw .headerProtectionFailed }
        return computed
    }
}
