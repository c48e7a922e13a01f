/// JA4, FoxIO's TLS client fingerprint (github.com/FoxIO-LLC/ja4, technical_details/JA4.md;
/// BSD 3-Clause): `t13d1516h2_8daaf6152771_e5627efa2ab1`.
///
///   JA4_a = transport(1) · version(2) · "d"|"i" (SNI or not) · cipher count(2) · extension count(2)
///           · ALPN's first and last character(2)
///   JA4_b = the first 12 hex digits of SHA-256 over the cipher suites, sorted, as 4-digit lowercase
///           hex joined by ","; `000000000000` when there are none
///   JA4_c = likewise over the extension types sorted without SNI (0000) and ALPN (0010), then
///           "_" and the signature algorithms in the hello's order (no "_" when there are none);
///           `000000000000` when no extension is left
/// GREASE is ignored everywhere (the traits come without it); counts stop at 99.
public enum JA4 {
    public static func fingerprint(_ hello: ClientHelloTraits) -> String {
        let ciphers = hello.cipherSuites.sorted()
        let extensions = hello.extensionTypes.filter { $0 != serverName && $0 != alpn }.sorted()
        var extensionText = ASCIIWriter(capacity: (extensions.count + hello.signatureAlgorithms.count) * 5 + 1)
        write(extensions, to: &extensionText)
        if !hello.signatureAlgorithms.isEmpty {
            extensionText.append(UInt8(ascii: "_"))
            write(hello.signatureAlgorithms, to: &extensionText)
        }
        var cipherText = ASCIIWriter(capacity: ciphers.count * 5)
        write(ciphers, to: &cipherText)
        return prefix(hello) + "_" + (ciphers.isEmpty ? empty : hash12(cipherText.bytes)) + "_"
            + (extensions.isEmpty ? empty : hash12(extensionText.bytes))
    }

    /// JA4_a, the readable part: what a search by prefix matches first.
    public static func prefix(_ hello: ClientHelloTraits) -> String {
        let transport = hello.transport == .quic ? "q" : "t"
        let sni = hello.extensionTypes.contains(serverName) ? "d" : "i"
        return transport + versionCode(hello) + sni + count(hello.cipherSuites.count) + count(hello.extensionTypes.count)
            + alpnCode(hello.firstApplicationProtocol)
    }

    /// The highest `supported_versions` value when the extension is there, else `legacy_version`.
    static func versionCode(_ hello: ClientHelloTraits) -> String {
        let version = hello.supportedVersions.map { $0.max() } ?? hello.legacyVersion
        return version.flatMap { versionCodes[$0] } ?? "00"
    }

    static let versionCodes: [UInt16: String] = [
        0x0304: "13", 0x0303: "12", 0x0302: "11", 0x0301: "10", 0x0300: "s3", 0x0002: "s2",
        0xFEFF: "d1", 0xFEFD: "d2", 0xFEFC: "d3",
    ]

    /// The first and last bytes of the first ALPN value when both are ASCII letters or digits;
    /// else the first and last digits of the value in hex; "00" when there is no value.
    static func alpnCode(_ value: [UInt8]?) -> String {
        guard let value, let first = value.first, let last = value.last else { return "00" }
        if isAlphanumeric(first), isAlphanumeric(last) {
            return String(decoding: [first, last], as: UTF8.self)
        }
        return String(hexDigits[Int(first >> 4)]) + String(hexDigits[Int(last & 0x0F)])
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func count(_ n: Int) -> String {
        let capped = min(n, 99)
        return capped < 10 ? "0\(capped)" : "\(capped)"
    }

    /// "002f,0035,…": 4-digit lowercase hex joined by commas.
    static func hexList(_ values: [UInt16]) -> String {
        var text = ASCIIWriter(capacity: values.count * 5)
        write(values, to: &text)
        return text.string
    }

    private static func write(_ values: [UInt16], to text: inout ASCIIWriter) {
        for (index, value) in values.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            text.appendHexByte(UInt8(truncatingIfNeeded: value >> 8))
            text.appendHexByte(UInt8(truncatingIfNeeded: value))
        }
    }

    /// The first 12 hex digits of the SHA-256: its first six bytes.
    private static func hash12(_ text: ArraySlice<UInt8>) -> String {
        X509Digest.lowercaseHex(X509Digest.sha256(text).prefix(6))
    }

    private static let empty = "000000000000"
    private static let serverName: UInt16 = 0x0000
    private static let alpn: UInt16 = 0x0010
    private static let hexDigits = Array("0123456789abcdef")
}
