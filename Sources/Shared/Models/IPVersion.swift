/// The IP version of a datagram or an address. Raw values are the version nibble (disk/wire format).
package enum IPVersion: UInt8, Sendable, Hashable, Codable, CaseIterable {
    case v4 = 4
    case v6 = 6

    /// Bytes in an address of this family.
    package var addressByteCount: Int { self == .v4 ? 4 : 16 }
}
