/// JA3 and JA3S, Salesforce's TLS fingerprints (github.com/salesforce/ja3, README; BSD 3-Clause),
/// as Wireshark prints them (`tls.handshake.ja3_full`, `tls.handshake.ja3`, and the `ja3s` pair):
/// decimal values, "-" within a field, "," between fields, GREASE (RFC 8701) left out; the hash is
/// the MD5 of the string in lowercase hex.
///
///   JA3  = SSLVersion,Ciphers,Extensions,EllipticCurves,EllipticCurvePointFormats
///   JA3S = SSLVersion,Cipher,Extensions
/// where SSLVersion is the hello's `legacy_version`.
public enum JA3 {
    public static func string(_ hello: ClientHelloTraits) -> String {
        [String(hello.legacyVersion), list(hello.cipherSuites), list(hello.extensionTypes), list(hello.groups),
         list(hello.pointFormats)].joined(separator: ",")
    }

    public static func string(_ hello: ServerHelloTraits) -> String {
        [String(hello.legacyVersion), String(hello.cipherSuite), list(hello.extensionTypes)].joined(separator: ",")
    }

    /// The MD5 of a JA3 or JA3S string, 32 lowercase hex digits.
    public static func hash(_ string: String) -> String {
        X509Digest.lowercaseHex(X509Digest.md5(Array(string.utf8)))
    }

    private static func list<Value: BinaryInteger>(_ values: [Value]) -> String {
        values.map { String($0) }.joined(separator: "-")
    }
}
