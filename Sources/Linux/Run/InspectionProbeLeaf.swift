import COpenSSL
import Foundation
import Shared

/// The trust probe's throwaway leaf, signed by the local root with OpenSSL's X509 API: P-256,
/// SAN dNSName, EKU serverAuth, CA:FALSE, backdated an hour, valid a day. Interim, until the
/// certificate authority's own minting lands (the probe then mints with it, which is the point:
/// the leaf measured is a leaf as the tunnel makes them).
package enum InspectionProbeLeaf {
    package struct Failure: Error, CustomStringConvertible {
        let step: String
        package var description: String { "OpenSSL failed while \(step)" }
    }

    package static func mint(host: String, ca: InspectionCA) throws(Failure) -> MintedCertificate {
        guard let root = InspectionCA.certificate(ca.rootPEM) else { throw Failure(step: "reading the root") }
        defer { X509_free(root) }
        guard let rootKey = InspectionCA.privateKey(ca.keyPEM) else { throw Failure(step: "reading the root's key") }
        defer { EVP_PKEY_free(rootKey) }
        let key = try generateKey()
        defer { EVP_PKEY_free(key) }
        guard let leaf = X509_new() else { throw Failure(step: "making a certificate") }
        defer { X509_free(leaf) }
        guard X509_set_version(leaf, 2) == 1,
              ASN1_INTEGER_set(X509_get_serialNumber(leaf), Int.random(in: 1...Int.max)) == 1,
              X509_gmtime_adj(X509_getm_notBefore(leaf), -3600) != nil,
              X509_gmtime_adj(X509_getm_notAfter(leaf), 86_400) != nil,
              X509_set_issuer_name(leaf, X509_get_subject_name(root)) == 1,
              X509_NAME_add_entry_by_txt(X509_get_subject_name(leaf), "CN", MBSTRING_UTF8, host, -1, -1, 0) == 1,
              X509_set_pubkey(leaf, key) == 1 else { throw Failure(step: "filling in the leaf") }
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, root, leaf, nil, nil, 0)
        for (nid, value) in [(NID_subject_alt_name, "DNS:\(host)"), (NID_ext_key_usage, "serverAuth"),
                             (NID_basic_constraints, "critical,CA:FALSE"),
                             (NID_key_usage, "critical,digitalSignature")] {
            guard let extensionValue = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                throw Failure(step: "making the extension \(value)")
            }
            defer { X509_EXTENSION_free(extensionValue) }
            guard X509_add_ext(leaf, extensionValue, -1) == 1 else { throw Failure(step: "adding the extension \(value)") }
        }
        guard X509_sign(leaf, rootKey, EVP_sha256()) > 0 else { throw Failure(step: "signing the leaf") }
        return MintedCertificate(host: host, certificateDER: try der(leaf, i2d_X509), privateKeyDER: try pkcs8(key))
    }

    private static func generateKey() throws(Failure) -> OpaquePointer {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { throw Failure(step: "making a key") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
              EVP_PKEY_generate(context, &key) == 1, let key else { throw Failure(step: "generating a P-256 key") }
        return key
    }

    private static func pkcs8(_ key: OpaquePointer) throws(Failure) -> Data {
        guard let info = EVP_PKEY2PKCS8(key) else { throw Failure(step: "encoding the key") }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        return try der(info, i2d_PKCS8_PRIV_KEY_INFO)
    }

    private static func der(_ object: OpaquePointer,
                            _ encode: (OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32)
        throws(Failure) -> Data {
        let length = encode(object, nil)
        guard length > 0 else { throw Failure(step: "encoding DER") }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return encode(object, &cursor)
        }
        guard written == length else { throw Failure(step: "encoding DER") }
        return Data(bytes)
    }
}
