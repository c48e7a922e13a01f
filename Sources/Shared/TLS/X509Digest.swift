import COpenSSL

/// Message digests by OpenSSL (`EVP_Digest`): SHA-256 for a certificate's fingerprint, SHA-1 for
/// a key identifier (RFC 5280 §4.2.1.2, method 1 — an identifier, not a signature), MD5 for a JA3
/// hash (an identifier its specification fixes, not a signature).
package enum X509Digest {
    package static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] { digest(Array(bytes), FetchedDigest.sha256) }
    static func sha1(_ bytes: some Collection<UInt8>) -> [UInt8] { digest(Array(bytes), FetchedDigest.sha1) }
    static func md5(_ bytes: some Collection<UInt8>) -> [UInt8] { digest(Array(bytes), FetchedDigest.md5) }

    /// Random bytes from OpenSSL's CSPRNG (`RAND_bytes`), for serial numbers.
    package static func randomBytes(_ count: Int) throws(X509Failure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard RAND_bytes(&bytes, Int32(count)) == 1 else { throw .openSSL("RAND_bytes", X509Failure.lastError()) }
        return bytes
    }

    /// "AB:CD:…": a digest as openssl's `-fingerprint` prints it.
    static func colonHex(_ digest: [UInt8]) -> String {
        let hex = Array("0123456789ABCDEF")
        return digest.map { String([hex[Int($0 >> 4)], hex[Int($0 & 0xF)]]) }.joined(separator: ":")
    }

    /// "abcd…": a digest as `sha256sum` prints it, and as the evidence manifest records it.
    package static func lowercaseHex(_ digest: some Sequence<UInt8>) -> String {
        var text = ASCIIWriter(capacity: 64)
        for byte in digest { text.appendHexByte(byte) }
        return text.string
    }

    private static func digest(_ bytes: [UInt8], _ type: FetchedDigest) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        // EVP_Digest over a built-in digest fails only when memory runs out, which traps anyway.
        precondition(EVP_Digest(bytes, bytes.count, &out, &length, type.method, nil) == 1, "EVP_Digest failed")
        return Array(out.prefix(Int(length)))
    }
}

/// A digest's implementation, fetched from OpenSSL's default provider once (crypto(7), "Explicit
/// fetching"): `EVP_sha256()` and its kin fetch it again on every call, behind a lock — measured
/// here, 420 ns against 230 ns for a 200-byte SHA-256, paid four times per TLS flow by JA4 and JA3.
///
/// `@unchecked Sendable`: `method` is a `let` to a fetched `EVP_MD`, which OpenSSL never changes once
/// fetched and lets any number of threads use at once; the three are never freed.
struct FetchedDigest: @unchecked Sendable {
    let method: OpaquePointer

    private init(_ name: String) {
        // The default provider always has these three; without them no digest could be made at all.
        guard let method = EVP_MD_fetch(nil, name, nil) else { preconditionFailure("OpenSSL has no \(name)") }
        self.method = method
    }

    static let sha256 = FetchedDigest("SHA256")
    static let sha1 = FetchedDigest("SHA1")
    static let md5 = FetchedDigest("MD5")
}
