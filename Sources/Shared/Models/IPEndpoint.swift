/// An address and a port. Ordered by address, then port (data model).
package struct IPEndpoint: Sendable, Hashable, Comparable, Codable {
    package var address: IPAddress
    package var port: UInt16

    @inlinable
    package init(address: IPAddress, port: UInt16) {
        self.address = address
        self.port = port
    }

    @inlinable
    package static func < (lhs: IPEndpoint, rhs: IPEndpoint) -> Bool {
        lhs.address != rhs.address ? lhs.address < rhs.address : lhs.port < rhs.port
    }
}

extension IPEndpoint: CustomStringConvertible {
    /// `10.7.0.2:443`, `[fd00:7::2]:443`.
    package var description: String {
        var writer = ASCIIWriter(capacity: 48)
        write(to: &writer)
        return writer.string
    }

    package func write(to writer: inout ASCIIWriter) {
        if address.version == .v6 { writer.append(UInt8(ascii: "[")) }
        address.write(to: &writer)
        if address.version == .v6 { writer.append(UInt8(ascii: "]")) }
        writer.append(UInt8(ascii: ":"))
        writer.appendDecimal(port)
    }
}
