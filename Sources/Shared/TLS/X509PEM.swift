import Foundation

/// PEM armor (RFC 7468): base64 of the DER in 64-character lines between BEGIN and END lines.
/// Text framing only; the bytes inside are OpenSSL's or the writer's.
package enum X509PEM {
    package static let certificateLabel = "CERTIFICATE"
    /// PKCS#8 PrivateKeyInfo, unencrypted (RFC 7468 §10).
    package static let privateKeyLabel = "PRIVATE KEY"

    package static func encode(_ der: some Collection<UInt8>, label: String) -> String {
        let base64 = Data(der).base64EncodedString()
        var lines = ["-----BEGIN \(label)-----"]
        var rest = Substring(base64)
        while !rest.isEmpty {
            lines.append(String(rest.prefix(64)))
            rest = rest.dropFirst(64)
        }
        lines.append("-----END \(label)-----")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The DER of the first block labelled `label`; nil when there is none or its base64 is broken.
    package static func decode(_ text: String, label: String) -> [UInt8]? {
        let begin = "-----BEGIN \(label)-----", end = "-----END \(label)-----"
        guard let start = text.range(of: begin), let stop = text.range(of: end, range: start.upperBound..<text.endIndex) else { return nil }
        let body = text[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
        guard !body.isEmpty, let data = Data(base64Encoded: String(body)) else { return nil }
        return [UInt8](data)
    }
}
