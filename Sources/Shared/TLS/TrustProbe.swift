import COpenSSL
import Foundation

/// What the trust probe measured: whether a leaf of the local CA would be accepted by a client
/// that trusts exactly one bundle file.
package enum TrustVerdict: Sendable, Equatable {
    /// The leaf chains to an anchor of the bundle, for its host, as a TLS server's certificate.
    case trusted
    /// OpenSSL refused the leaf, in its words: a client with this bundle would refuse every
    /// inspected connection.
    case notTrusted(String)
    /// Nothing was verified (no leaf could be made, the bundle could not be read, the bytes are no
    /// certificate): trust is not known, so it is not assumed either way.
    case cannotEvaluate(String)

    /// One sentence for a person.
    package var sentence: String {
        switch self {
        case .trusted: "a leaf of the local CA is trusted by the bundle the command sees (measured with OpenSSL)"
        case let .notTrusted(reason): "a leaf of the local CA is not trusted by the bundle the command sees: \(reason)"
        case let .cannotEvaluate(reason): "whether the command trusts the local CA could not be measured: \(reason)"
        }
    }

    /// The one word a script reads (the run's JSON summary).
    package var word: String {
        switch self {
        case .trusted: "trusted"
        case .notTrusted: "notTrusted"
        case .cannotEvaluate: "cannotEvaluate"
        }
    }
}

/// The seed's trust probe on Linux: "trusted" is measured, never assumed. A throwaway leaf is
/// minted for a host under `.invalid` (RFC 6761 §6.4: never a real name) and verified against the
/// bundle file alone — no default paths, no extra anchors (passing the root as one would always
/// say yes) — as a TLS server certificate for that host, the way a client of the bundle would.
package enum TrustProbe {
    package static let probeHost = "trust-probe.tunnelvision.invalid"

    /// Mints a leaf for `probeHost` with `mint` and verifies it against `bundle`.
    package static func evaluate(bundle: URL, mint: (String) throws -> MintedCertificate) -> TrustVerdict {
        let leaf: MintedCertificate
        do { leaf = try mint(probeHost) } catch { return .cannotEvaluate("no leaf could be minted: \(error)") }
        return verify(leafDER: leaf.certificateDER, host: probeHost, bundle: bundle)
    }

    /// Verifies `leafDER` for `host` with purpose sslserver against the certificates of `bundle` only.
    package static func verify(leafDER: Data, host: String, bundle: URL) -> TrustVerdict {
        guard let leaf = leafDER.withUnsafeBytes({ (bytes: UnsafeRawBufferPointer) -> OpaquePointer? in
            var cursor = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return d2i_X509(nil, &cursor, bytes.count)
        }) else { return .cannotEvaluate("the leaf is not a DER certificate (\(openSSLError()))") }
        defer { X509_free(leaf) }
        guard let store = X509_STORE_new() else { return .cannotEvaluate("OpenSSL could not make a store") }
        defer { X509_STORE_free(store) }
        guard X509_STORE_load_file(store, bundle.path) == 1 else {
            return .cannotEvaluate("the bundle \(bundle.path) holds no certificate OpenSSL can read (\(openSSLError()))")
        }
        guard let context = X509_STORE_CTX_new() else { return .cannotEvaluate("OpenSSL could not make a context") }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, leaf, nil) == 1,
              X509_STORE_CTX_set_purpose(context, X509_PURPOSE_SSL_SERVER) == 1,
              X509_VERIFY_PARAM_set1_host(X509_STORE_CTX_get0_param(context), host, host.utf8.count) == 1 else {
            return .cannotEvaluate("OpenSSL could not set up the verification (\(openSSLError()))")
        }
        if X509_verify_cert(context) == 1 { return .trusted }
        let code = X509_STORE_CTX_get_error(context)
        return .notTrusted(String(cString: X509_verify_cert_error_string(Int(code))) + " (OpenSSL verify error \(code))")
    }

    /// The oldest error on this thread's OpenSSL queue, the queue then cleared.
    private static func openSSLError() -> String {
        let code = ERR_get_error()
        defer { ERR_clear_error() }
        guard code != 0 else { return "no reason given" }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
