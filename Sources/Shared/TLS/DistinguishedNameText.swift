/// The text of an X.501 `Name` (RFC 5280 §4.1.2.4), as TunnelVision shows and stores it.
///
/// Format: the attributes in the order the certificate writes them (the reverse of RFC 4514's
/// string order, and the order OpenSSL prints by default), each as `TYPE=value`; RDNs joined by
/// ", ", the attributes of a multi-valued RDN by "+". TYPE is a short name (C, ST, L, O, OU, CN,
/// emailAddress, serialNumber, DC, UID…) or the dotted OID (`AttributeTypeText`); the value is
/// kept as written, escaped per RFC 4514 (`AttributeValueText`). So
/// `C=US, O=Example\, Inc., CN=www.example.com` is three attributes, never four.
///
/// The text is cut at `maxLength` UTF-8 bytes, at the edge of an attribute's `TYPE=` or of one
/// escaped character, and then marked truncated; the rest of the name is still checked.
enum DistinguishedNameText {
    ///   Name ::= SEQUENCE OF RelativeDistinguishedName
    ///   RelativeDistinguishedName ::= SET SIZE (1..MAX) OF AttributeTypeAndValue
    ///   AttributeTypeAndValue ::= SEQUENCE { type OBJECT IDENTIFIER, value ANY }
    /// Nil when the structure is broken (an empty RDN, a value missing or followed by more, an
    /// invalid OID). An empty name is an empty text.
    static func name(_ element: DERReader.Element, maxLength: Int) -> CertificateName? {
        guard element.tag == .sequence else { return nil }
        var text = BoundedText(limit: maxLength)
        var relativeNames = DERReader(element.content)
        var isFirstRDN = true
        while !relativeNames.isAtEnd {
            guard let relativeName = relativeNames.read(.set) else { return nil }
            var attributes = DERReader(relativeName.content)
            guard !attributes.isAtEnd else { return nil }
            var isFirstInRDN = true
            while !attributes.isAtEnd {
                guard let attribute = attributes.read(.sequence) else { return nil }
                var parts = DERReader(attribute.content)
                guard let type = parts.read(.objectIdentifier), AttributeTypeText.isValid(type.content) else {
                    return nil
                }
                let value: DERReader.Element
                do { value = try parts.read() } catch { return nil }
                guard parts.isAtEnd else { return nil }
                if !text.isTruncated {
                    let separator: StaticString = isFirstRDN ? "" : isFirstInRDN ? ", " : "+"
                    text.unit { bytes in
                        separator.withUTF8Buffer { bytes.append(contentsOf: $0) }
                        AttributeTypeText.append(type.content, to: &bytes)
                        bytes.append(UInt8(ascii: "="))
                    }
                    AttributeValueText.append(value, to: &text)
                }
                isFirstRDN = false
                isFirstInRDN = false
            }
        }
        return CertificateName(text: text.string, isTruncated: text.isTruncated)
    }
}
