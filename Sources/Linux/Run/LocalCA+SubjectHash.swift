import COpenSSL
import Foundation
import Shared

extension LocalCA {
    /// `X509_subject_name_hash` of the root, "%08lx": the name OpenSSL's hashed directory
    /// (`/etc/ssl/certs/<hash>.N`) files the root under. Nil only if OpenSSL cannot parse the root
    /// the CA itself wrote and read back, which `LocalCA.load` has already refused.
    var subjectHash: String? {
        rootCertificateDER.withUnsafeBytes { bytes -> String? in
            var cursor = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            guard let root = d2i_X509(nil, &cursor, bytes.count) else {
                ERR_clear_error()
                return nil
            }
            defer { X509_free(root) }
            return String(format: "%08lx", X509_subject_name_hash(root))
        }
    }
}
