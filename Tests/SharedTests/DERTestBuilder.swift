/// DER written one TLV at a time (X.690 §8.1), for certificates whose every byte a test chooses.
enum DERTestBuilder {
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let length: [UInt8] = content.count < 0x80 ? [UInt8(content.count)]
            : content.count < 0x100 ? [0x81, UInt8(content.count)]
            : [0x82, UInt8(content.count >> 8), UInt8(content.count & 0xFF)]
        return [tag] + length + content
    }

    static func sequence(_ parts: [UInt8]...) -> [UInt8] { tlv(0x30, parts.flatMap { $0 }) }
    static func set(_ parts: [UInt8]...) -> [UInt8] { tlv(0x31, parts.flatMap { $0 }) }

    // X.520 attribute types (RFC 4519 §2): 2.5.4.x.
    static let cn: [UInt8] = [0x06, 0x03, 0x55, 0x04, 0x03]
    static let country: [UInt8] = [0x06, 0x03, 0x55, 0x04, 0x06]
    static let organization: [UInt8] = [0x06, 0x03, 0x55, 0x04, 0x0A]
    static let unit: [UInt8] = [0x06, 0x03, 0x55, 0x04, 0x0B]

    static func utf8(_ text: String) -> [UInt8] { tlv(0x0C, Array(text.utf8)) }
    static func printable(_ text: String) -> [UInt8] { tlv(0x13, Array(text.utf8)) }

    /// AttributeTypeAndValue.
    static func attribute(_ type: [UInt8], _ value: [UInt8]) -> [UInt8] { sequence(type, value) }

    /// A Name of one-attribute RDNs, in the order given.
    static func name(_ attributes: [UInt8]...) -> [UInt8] { tlv(0x30, attributes.flatMap { set($0) }) }

    static func utcTime(_ text: String) -> [UInt8] { tlv(0x17, Array(text.utf8)) }
    static func generalizedTime(_ text: String) -> [UInt8] { tlv(0x18, Array(text.utf8)) }

    static let ecdsaWithSHA256 = sequence(tlv(0x06, [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]))

    /// A certificate with these names and times; v3 unless `version` is false (a v1 certificate
    /// has no [0] field). The key, signature and extensions are opaque placeholders.
    static func certificate(subject: [UInt8], issuer: [UInt8], notBefore: [UInt8] = utcTime("240101000000Z"),
                            notAfter: [UInt8] = utcTime("301231235959Z"), version: Bool = true,
                            extensions: [UInt8] = []) -> [UInt8] {
        let tbs = tlv(0x30,
                      (version ? tlv(0xA0, tlv(0x02, [0x02])) : [])
                      + tlv(0x02, [0x01, 0x00])                                   // serialNumber 256
                      + ecdsaWithSHA256
                      + issuer
                      + sequence(notBefore, notAfter)
                      + subject
                      + sequence(sequence(tlv(0x06, [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01])), tlv(0x03, [0x00, 0x04]))
                      + extensions)
        return sequence(tbs, ecdsaWithSHA256, tlv(0x03, [0x00, 0x30, 0x00]))
    }
}
