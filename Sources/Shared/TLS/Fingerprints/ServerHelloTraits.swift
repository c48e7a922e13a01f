/// What a ServerHello's JA3S is made of: its `legacy_version`, the cipher suite chosen and its
/// extension types in order (GREASE removed), as sent (RFC 8446 §4.1.3).
package struct ServerHelloTraits: Sendable, Hashable {
    package var legacyVersion: UInt16
    package var cipherSuite: UInt16
    package var extensionTypes: [UInt16]

    package init(legacyVersion: UInt16, cipherSuite: UInt16, extensionTypes: [UInt16]) {
        self.legacyVersion = legacyVersion
        self.cipherSuite = cipherSuite
        self.extensionTypes = extensionTypes
    }
}
