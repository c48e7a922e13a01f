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
package enum JA4 {
    /// Written into one buffer, the hashes' hex included: a capture computes one per ClientHello.
    package static func fingerprint(_ hello: ClientHelloTraits) -> String {
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
        var text = ASCIIWriter(capacity: 36)
        writePrefix(hello, to: &text)
        text.append(UInt8(ascii: "_"))
        writeHash12(ciphers.isEmpty ? nil : cipherText.bytes, to: &text)
        text.append(UInt8(ascii: "_"))
        writeHash12(extensions.isEmpty ? nil : extensionText.bytes, to: &text)
        return text.string
    }

    /// JA4_a, the readable part: what a search by prefix matches first.
    package static func prefix(_ hello: ClientHelloTraits) -> String {
        var text = ASCIIWriter(capacity: 10)
        writePrefix(hello, to: &text)
        return text.string
    }

    private static func writePrefix(_ hello: ClientHelloTraits, to text: inout ASCIIWriter) {
        text.append(UInt8(ascii: hello.transport == .quic ? "q" : "t"))
        text.append(versionCode(hello))
        text.append(UInt8(ascii: hello.extensionTypes.contains(serverName) ? "d" : "i"))
        text.appendDecimal(min(hello.cipherSuites.count, 99), width: 2)
        text.appendDecimal(min(hello.extensionTypes.count, 99), width: 2)
        text.append(alpnCode(hello.firstApplicationProtocol))
    }

    /// The highest `supported_versions` value when the extension is there, else `legacy_version`.
    static func versionCode(_ hello: ClientHelloTraits) -> String {
        switch hello.supportedVersions.map({ $0.max() }) ?? hello.legacyVersion {
        case 0x0304: "13"
        case 0x0303: "12"
        case 0x0302: "11"
        case 0x0301: "10"
        case 0x0300: "s3"
        case 0x0002: "s2"
        case 0xFEFF: "d1"
        case 0xFEFD: "d2"
        case 0xFEFC: "d3"
        default: "00"
        }
    }

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

    /// The first 12 hex digits of the SHA-256 of `list` (its first six bytes), or twelve zeros
    /// for an empty list.
    private static func writeHash12(_ list: ArraySlice<UInt8>?, to text: inout ASCIIWriter) {
        guard let list else { return text.append(empty) }
        for byte in X509Digest.sha256(list).prefix(6) { text.appendHexByte(byte) }
    }

    private static let empty: StaticString = "000000000000"
    private static let serverName: UInt16 = 0x0000
    private static let alpn: UInt16 = 0x0010
    private static let hexDigits = Array("0123456789abcdef")
}
