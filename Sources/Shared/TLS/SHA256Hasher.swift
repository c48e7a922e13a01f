import COpenSSL

/// SHA-256 fed piece by piece (OpenSSL's EVP_DigestInit/Update/Final), for bytes too many to hold
/// at once: a capture hashed while it is written. `X509Digest.sha256` is the one-shot form.
///
/// Noncopyable: the OpenSSL context has one owner, freed when the hasher ends (after `finalize`,
/// or unfinished), so no copy can feed or free it behind another's back.
package struct SHA256Hasher: ~Copyable {
    private let context: OpaquePointer
    package private(set) var byteCount: UInt64 = 0

    package init() {
        // Both fail only when memory runs out, which traps anyway.
        guard let context = EVP_MD_CTX_new() else { preconditionFailure("EVP_MD_CTX_new failed") }
        precondition(EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1, "EVP_DigestInit_ex failed")
        self.context = context
    }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        Self.feed(context, bytes)
        byteCount += UInt64(bytes.count)
    }

    package mutating func update(_ bytes: some Collection<UInt8>) {
        let context = context
        if bytes.withContiguousStorageIfAvailable({ Self.feed(context, UnsafeRawBufferPointer($0)) }) == nil {
            Array(bytes).withUnsafeBytes { Self.feed(context, $0) }
        }
        byteCount += UInt64(bytes.count)
    }

    /// The 32-byte digest of everything fed; the hasher ends with it.
    package consuming func finalize() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        precondition(EVP_DigestFinal_ex(context, &out, &length) == 1, "EVP_DigestFinal_ex failed")
        return Array(out.prefix(Int(length)))
    }

    deinit { EVP_MD_CTX_free(context) }

    private static func feed(_ context: OpaquePointer, _ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        precondition(EVP_DigestUpdate(context, base, bytes.count) == 1, "EVP_DigestUpdate failed")
    }
}

/// `@unchecked Sendable`: `context` is reached only through the hasher's one owner (it is
/// `~Copyable`), so a send hands the OpenSSL context over whole and no two threads use it at once.
extension SHA256Hasher: @unchecked Sendable {}
