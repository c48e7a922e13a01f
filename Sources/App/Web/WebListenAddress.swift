import Shared

/// Where `tunnelvision ui` listens: `--listen ADDR:PORT` (`127.0.0.1:8080`, `[::1]:0`), port 0
/// meaning any free one. Loopback by default; another address is allowed but warned about, and
/// the unspecified ones (0.0.0.0, ::) are refused: they answer on every interface, and the Host
/// check needs one address to compare with.
package struct WebListenAddress: Sendable, Equatable {
    package let endpoint: IPEndpoint

    package static let standard = WebListenAddress(endpoint: IPEndpoint(address: IPAddress(parsing: "127.0.0.1")!, port: 0))

    package init(endpoint: IPEndpoint) {
        self.endpoint = endpoint
    }

    package struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        package let text: String
        package let why: String
        package var description: String { "--listen \(text): \(why)" }
    }

    package init(parsing text: String) throws(ParseError) {
        let host: Substring, port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw ParseError(text: text, why: "write an IPv6 address in brackets with a port, e.g. [::1]:8080")
            }
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else {
                throw ParseError(text: text, why: "write ADDRESS:PORT, e.g. 127.0.0.1:8080 (port 0 picks a free one)")
            }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard let address = IPAddress(parsing: String(host)) else {
            throw ParseError(text: text, why: "'\(host)' is not an IP address (a name is not looked up; use 127.0.0.1 or [::1])")
        }
        guard let number = UInt16(port) else { throw ParseError(text: text, why: "the port must be a number from 0 to 65535") }
        guard !Self.isUnspecified(address) else {
            throw ParseError(text: text, why: "\(address) would answer on every interface; name one address to listen on")
        }
        endpoint = IPEndpoint(address: address, port: number)
    }

    /// 127.0.0.0/8 or ::1: only this machine can connect.
    package var isLoopback: Bool { Self.isLoopback(endpoint.address) }

    static func isLoopback(_ address: IPAddress) -> Bool {
        address.version == .v4 ? address.bytes[0] == 127 : address.bytes == [UInt8](repeating: 0, count: 15) + [1]
    }

    static func isUnspecified(_ address: IPAddress) -> Bool {
        address.bytes.allSatisfy { $0 == 0 }
    }

    /// What `tunnelvision ui` says on stderr when it listens where other machines can reach it.
    package var exposureWarning: String? {
        isLoopback ? nil : "listening on \(endpoint), which other machines on that network can reach; "
            + "the key in the address and the session cookie then travel in plain HTTP, readable by anyone who can "
            + "see that network, and they are all that keeps others out (leave --listen out to stay on loopback)"
    }
}
