/// One certificate extension (RFC 5280 §4.1, §4.2):
///
///   Extension ::= SEQUENCE { extnID OBJECT IDENTIFIER, critical BOOLEAN DEFAULT FALSE,
///                            extnValue OCTET STRING -- the DER of the extension's own type }
/// and the constructors of the ones a CA of ours writes.
struct X509Extension: Sendable, Equatable {
    let identifier: String
    let isCritical: Bool
    /// The DER the OCTET STRING wraps.
    let value: [UInt8]

    init(identifier: String, isCritical: Bool, value: [UInt8]) {
        self.identifier = identifier
        self.isCritical = isCritical
        self.value = value
    }

    /// Writes the Extension; `critical` only when TRUE (DER leaves a DEFAULT out, X.690 §11.5).
    func write(to writer: inout DERWriter) throws(DERWriterFailure) {
        try writer.sequence { (ext) throws(DERWriterFailure) in
            try ext.objectIdentifier(identifier)
            if isCritical { ext.boolean(true) }
            ext.octetString(value)
        }
    }

    private static func der(_ body: (inout DERWriter) throws(DERWriterFailure) -> Void) throws(DERWriterFailure) -> [UInt8] {
        var writer = DERWriter()
        try body(&writer)
        return writer.bytes
    }

    /// basicConstraints (§4.2.1.9), critical: `SEQUENCE { cA BOOLEAN DEFAULT FALSE, pathLenConstraint INTEGER OPTIONAL }`.
    static func basicConstraints(isAuthority: Bool, pathLength: Int?) -> X509Extension {
        var writer = DERWriter()
        writer.sequence { constraints in
            if isAuthority { constraints.boolean(true) }
            if let pathLength { constraints.integer(pathLength) }
        }
        return X509Extension(identifier: X509ObjectIdentifiers.basicConstraints, isCritical: true, value: writer.bytes)
    }

    /// The KeyUsage bits (§4.2.1.3).
    enum KeyUsage: Int, Sendable {
        case digitalSignature = 0, keyCertSign = 5, cRLSign = 6
    }

    /// keyUsage (§4.2.1.3), critical.
    static func keyUsage(_ usages: Set<KeyUsage>) -> X509Extension {
        var writer = DERWriter()
        writer.namedBits(Set(usages.map(\.rawValue)))
        return X509Extension(identifier: X509ObjectIdentifiers.keyUsage, isCritical: true, value: writer.bytes)
    }

    /// extKeyUsage (§4.2.1.12) of the given purposes.
    static func extendedKeyUsage(_ purposes: [String]) throws(DERWriterFailure) -> X509Extension {
        X509Extension(identifier: X509ObjectIdentifiers.extendedKeyUsage, isCritical: false, value: try der { (writer) throws(DERWriterFailure) in
            try writer.sequence { (list) throws(DERWriterFailure) in
                for purpose in purposes { try list.objectIdentifier(purpose) }
            }
        })
    }

    /// A subjectAltName entry (§4.2.1.6): dNSName [2] IA5String, iPAddress [7] OCTET STRING of 4 or 16 bytes.
    enum AlternativeName: Sendable, Equatable, Hashable {
        case dnsName(String)
        case ipAddress([UInt8])
    }

    /// subjectAltName (§4.2.1.6); not critical, as the subject is not empty.
    static func subjectAlternativeNames(_ names: [AlternativeName]) throws(DERWriterFailure) -> X509Extension {
        X509Extension(identifier: X509ObjectIdentifiers.subjectAltName, isCritical: false, value: try der { (writer) throws(DERWriterFailure) in
            try writer.sequence { (list) throws(DERWriterFailure) in
                for name in names {
                    switch name {
                    case let .dnsName(text):
                        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { throw .notIA5(text) }
                        list.implicit(2, content: Array(text.utf8))
                    case let .ipAddress(bytes):
                        list.implicit(7, content: bytes)
                    }
                }
            }
        })
    }

    /// subjectKeyIdentifier (§4.2.1.2): `KeyIdentifier ::= OCTET STRING`.
    static func subjectKeyIdentifier(_ identifier: [UInt8]) -> X509Extension {
        var writer = DERWriter()
        writer.octetString(identifier)
        return X509Extension(identifier: X509ObjectIdentifiers.subjectKeyIdentifier, isCritical: false, value: writer.bytes)
    }

    /// authorityKeyIdentifier (§4.2.1.1): `SEQUENCE { keyIdentifier [0] IMPLICIT KeyIdentifier }`.
    static func authorityKeyIdentifier(_ identifier: [UInt8]) -> X509Extension {
        var writer = DERWriter()
        writer.sequence { $0.implicit(0, content: identifier) }
        return X509Extension(identifier: X509ObjectIdentifiers.authorityKeyIdentifier, isCritical: false, value: writer.bytes)
    }

    /// The key identifier of a SubjectPublicKeyInfo: SHA-1 of its subjectPublicKey bits (§4.2.1.2,
    /// method 1), nil when the bytes are not a SubjectPublicKeyInfo.
    static func keyIdentifier(ofSubjectPublicKeyInfo info: [UInt8]) -> [UInt8]? {
        var outer = DERReader(info[...])
        guard let sequence = outer.read(.sequence), outer.isAtEnd else { return nil }
        var inner = DERReader(sequence.content)
        guard inner.read(.sequence) != nil, let bits = inner.read(.bitString), inner.isAtEnd,
              bits.content.first == 0 else { return nil }
        return X509Digest.sha1(bits.content.dropFirst())
    }
}
