/// Minimal X.509 certificates written with RFC 5280 §4.1's structure, one TLV at a time, for the
/// certificate scanner (what the reader makes of a name is `ServerCertificateReaderTests`' job).
enum TestCertificates {
    /// tag · DER length (short form, or 0x81/0x82 long form) · content.
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let length: [UInt8] = content.count < 0x80 ? [UInt8(content.count)]
            : content.count < 0x100 ? [0x81, UInt8(content.count)]
            : [0x82, UInt8(content.count >> 8), UInt8(content.count & 0xFF)]
        return [tag] + length + content
    }

    /// Name with one RDN: CN (2.5.4.3) as a UTF8String.
    static func commonName(_ name: String) -> [UInt8] {
        tlv(0x30, tlv(0x31, tlv(0x30, tlv(0x06, [0x55, 0x04, 0x03]) + tlv(0x0C, Array(name.utf8)))))
    }

    /// A v3 certificate issued to CN=`subject` by CN=`issuer`, valid until `notAfter`
    /// (UTCTime, YYMMDDHHMMSSZ); `padding` bytes of an opaque key make it as large as a test needs.
    static func der(subject: String, issuer: String, notAfter: String = "301231235959Z", padding: Int = 0) -> [UInt8] {
        let ecdsaWithSHA256 = tlv(0x30, tlv(0x06, [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]))
        let tbs = tlv(0x30,
                      tlv(0xA0, tlv(0x02, [0x02]))                                     // version v3
                      + tlv(0x02, [0x01])                                              // serialNumber 1
                      + ecdsaWithSHA256                                                // signature
                      + commonName(issuer)                                             // issuer
                      + tlv(0x30, tlv(0x17, Array("240101000000Z".utf8))               // validity
                                  + tlv(0x17, Array(notAfter.utf8)))
                      + commonName(subject)                                            // subject
                      + tlv(0x30, tlv(0x30, tlv(0x06, [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]))
                                  + tlv(0x03, [0x00] + [UInt8](repeating: 0x04, count: 1 + padding)))) // key
        return tlv(0x30, tbs + ecdsaWithSHA256 + tlv(0x03, [0x00, 0x30, 0x00]))
    }
}
