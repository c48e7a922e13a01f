/// A TLS cipher suite by its IANA code (RFC 8446 §B.4 and the TLS Cipher Suites registry). An open
/// code point: no name is stored, and a suite this build has never heard of is kept as it came.
package struct TLSCipherSuite: RawRepresentable, Sendable, Hashable, Codable {
    package let rawValue: UInt16

    package init(rawValue: UInt16) { self.rawValue = rawValue }
}
