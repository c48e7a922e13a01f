/// JA3 and JA3S, Salesforce's TLS fingerprints (github.com/salesforce/ja3, README; BSD 3-Clause),
/// as Wireshark prints them (`tls.handshake.ja3_full`, `tls.handshake.ja3`, and the `ja3s` pair):
/// decimal values, "-" within a field, "," between fields, GREASE (RFC 8701) left out; the hash is
/// the MD5 of the string in lowercase hex.
///
///   JA3  = SSLVersion,Ciphers,Extensions,EllipticCurves,EllipticCurvePointFormats
///   JA3S = SSLVersion,Cipher,Extensions
/// where SSLVersion is the hello's `legacy_version`.
package enum JA3 {
    package static func string(_ hello: ClientHelloTraits) -> String {
        var text = ASCIIWriter(capacity: 6 * (hello.cipherSuites.count + hello.extensionTypes.count + hello.groups.count) + 16)
        text.appendDecimal(hello.legacyVersion)
        for field in [hello.cipherSuites, hello.extensionTypes, hello.groups, hello.pointFormats.map(UInt16.init)] {
            text.append(UInt8(ascii: ","))
            list(field, to: &text)
        }
        return text.string
    }

    package static func string(_ hello: ServerHelloTraits) -> String {
        var text = ASCIIWriter(capacity: 6 * hello.extensionTypes.count + 16)
        text.appendDecimal(hello.legacyVersion)
        text.append(UInt8(ascii: ","))
        text.appendDecimal(hello.cipherSuite)
        text.append(UInt8(ascii: ","))
        list(hello.extensionTypes, to: &text)
        return text.string
    }

    /// The MD5 of a JA3 or JA3S string, 32 lowercase hex digits.
    package static func hash(_ string: String) -> String {
        X509Digest.lowercaseHex(X509Digest.md5(Array(string.utf8)))
    }

    private static func list(_ values: [UInt16], to text: inout ASCIIWriter) {
        for (index, value) in values.enumerated() {
            if index > 0 { text.append(UInt8(ascii: "-")) }
            text.appendDecimal(value)
        }
    }
}
