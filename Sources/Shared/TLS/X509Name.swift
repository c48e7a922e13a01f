/// A distinguished name (RFC 5280 §4.1.2.4) as written: an RDNSequence of one-attribute RDNs,
/// each value a UTF8String.
///
///   Name ::= SEQUENCE OF RelativeDistinguishedName
///   RelativeDistinguishedName ::= SET SIZE (1..MAX) OF AttributeTypeAndValue
///   AttributeTypeAndValue ::= SEQUENCE { type OBJECT IDENTIFIER, value ANY }
package struct X509Name: Sendable, Equatable {
    package struct Attribute: Sendable, Equatable {
        package let type: String
        package let value: String

        package init(type: String, value: String) {
            self.type = type
            self.value = value
        }
    }

    package let attributes: [Attribute]

    package init(_ attributes: [Attribute]) {
        self.attributes = attributes
    }

    package static func commonName(_ value: String) -> Attribute { Attribute(type: X509ObjectIdentifiers.commonName, value: value) }
    package static func organization(_ value: String) -> Attribute { Attribute(type: X509ObjectIdentifiers.organizationName, value: value) }

    /// The Name's DER. An issuer must be byte for byte its issuer's subject (RFC 5280 §7.1), so it is
    /// built once from the same value.
    package func der() throws(DERWriterFailure) -> [UInt8] {
        var writer = DERWriter()
        try writer.sequence { (name) throws(DERWriterFailure) in
            for attribute in attributes {
                try name.set { (relative) throws(DERWriterFailure) in
                    try relative.sequence { (pair) throws(DERWriterFailure) in
                        try pair.objectIdentifier(attribute.type)
                        pair.utf8String(attribute.value)
                    }
                }
            }
        }
        return writer.bytes
    }
}
