/// The text of an attribute type in a distinguished name: the short name OpenSSL and RFC 4514 §3
/// use for the common ones, else the OID in dotted decimal (RFC 4514 §2.3).
enum AttributeTypeText {
    /// OID content octets → short name. 2.5.4.x is X.520 (RFC 4519 §2); the rest as noted.
    private static let shortNames: [(oid: [UInt8], name: StaticString)] = [
        ([0x55, 0x04, 0x03], "CN"),
        ([0x55, 0x04, 0x04], "SN"),
        ([0x55, 0x04, 0x05], "serialNumber"),
        ([0x55, 0x04, 0x06], "C"),
        ([0x55, 0x04, 0x07], "L"),
        ([0x55, 0x04, 0x08], "ST"),
        ([0x55, 0x04, 0x09], "street"),
        ([0x55, 0x04, 0x0A], "O"),
        ([0x55, 0x04, 0x0B], "OU"),
        ([0x55, 0x04, 0x0C], "title"),
        ([0x55, 0x04, 0x0D], "description"),
        ([0x55, 0x04, 0x0F], "businessCategory"),
        ([0x55, 0x04, 0x11], "postalCode"),
        ([0x55, 0x04, 0x2A], "GN"),
        ([0x55, 0x04, 0x2B], "initials"),
        ([0x55, 0x04, 0x2C], "generationQualifier"),
        ([0x55, 0x04, 0x2E], "dnQualifier"),
        ([0x55, 0x04, 0x41], "pseudonym"),
        ([0x55, 0x04, 0x61], "organizationIdentifier"),
        // 1.2.840.113549.1.9.1 (PKCS #9, RFC 2985 §5.2.1)
        ([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x01], "emailAddress"),
        // 0.9.2342.19200300.100.1.25 and .1 (RFC 4519 §2.4, §2.39)
        ([0x09, 0x92, 0x26, 0x89, 0x93, 0xF2, 0x2C, 0x64, 0x01, 0x19], "DC"),
        ([0x09, 0x92, 0x26, 0x89, 0x93, 0xF2, 0x2C, 0x64, 0x01, 0x01], "UID"),
        // 1.3.6.1.4.1.311.60.2.1.1…3: the EV jurisdiction attributes (CA/B Forum EV Guidelines)
        ([0x2B, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x3C, 0x02, 0x01, 0x01], "jurisdictionL"),
        ([0x2B, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x3C, 0x02, 0x01, 0x02], "jurisdictionST"),
        ([0x2B, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x3C, 0x02, 0x01, 0x03], "jurisdictionC"),
    ]

    /// True for well-formed OID content (X.690 §8.19): not empty, every subidentifier minimal
    /// (no leading 0x80 group), the last one ended, none longer than 63 bits.
    static func isValid(_ oid: ArraySlice<UInt8>) -> Bool {
        guard let last = oid.last, last & 0x80 == 0 else { return false }
        var groups = 0
        for byte in oid {
            if groups == 0, byte == 0x80 { return false }
            groups += 1
            if groups > 9 { return false }
            if byte & 0x80 == 0 { groups = 0 }
        }
        return true
    }

    /// Appends the type's text; `oid` must be valid.
    static func append(_ oid: ArraySlice<UInt8>, to bytes: inout [UInt8]) {
        for entry in shortNames where entry.oid.elementsEqual(oid) {
            entry.name.withUTF8Buffer { bytes.append(contentsOf: $0) }
            return
        }
        var value: UInt64 = 0
        var isFirst = true
        for byte in oid {
            value = value << 7 | UInt64(byte & 0x7F)
            guard byte & 0x80 == 0 else { continue }
            if isFirst {
                // X.690 §8.19.4: the first subidentifier packs the first two arcs.
                let first: UInt64 = value < 40 ? 0 : value < 80 ? 1 : 2
                BoundedText.appendDecimal(first, to: &bytes)
                bytes.append(UInt8(ascii: "."))
                BoundedText.appendDecimal(value - first * 40, to: &bytes)
                isFirst = false
            } else {
                bytes.append(UInt8(ascii: "."))
                BoundedText.appendDecimal(value, to: &bytes)
            }
            value = 0
        }
    }
}
