extension TLSCipherSuite {
    /// The suite's name in the IANA TLS Cipher Suites registry (RFC 8446 §B.4 for TLS 1.3's), for
    /// the suites clients and servers commonly negotiate today; nil for any other code point, which
    /// is then shown by its number. Names only: nothing here decides anything.
    package var ianaName: String? { Self.ianaNames[rawValue] }

    static let ianaNames: [UInt16: String] = [
        // TLS 1.3 (RFC 8446 §B.4)
        0x1301: "TLS_AES_128_GCM_SHA256",
        0x1302: "TLS_AES_256_GCM_SHA384",
        0x1303: "TLS_CHACHA20_POLY1305_SHA256",
        0x1304: "TLS_AES_128_CCM_SHA256",
        0x1305: "TLS_AES_128_CCM_8_SHA256",
        // ECDHE (RFC 8422, RFC 5289, RFC 7905)
        0xC009: "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA",
        0xC00A: "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA",
        0xC013: "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
        0xC014: "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA",
        0xC023: "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256",
        0xC024: "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384",
        0xC027: "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256",
        0xC028: "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384",
        0xC02B: "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
        0xC02C: "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
        0xC02F: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        0xC030: "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
        0xCCA8: "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
        0xCCA9: "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
        // DHE (RFC 5288, RFC 5246, RFC 7905)
        0x0033: "TLS_DHE_RSA_WITH_AES_128_CBC_SHA",
        0x0039: "TLS_DHE_RSA_WITH_AES_256_CBC_SHA",
        0x009E: "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256",
        0x009F: "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384",
        0xCCAA: "TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
        // RSA key exchange (RFC 5246, RFC 5288)
        0x002F: "TLS_RSA_WITH_AES_128_CBC_SHA",
        0x0035: "TLS_RSA_WITH_AES_256_CBC_SHA",
        0x003C: "TLS_RSA_WITH_AES_128_CBC_SHA256",
        0x003D: "TLS_RSA_WITH_AES_256_CBC_SHA256",
        0x009C: "TLS_RSA_WITH_AES_128_GCM_SHA256",
        0x009D: "TLS_RSA_WITH_AES_256_GCM_SHA384",
    ]
}
