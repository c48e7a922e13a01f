/// A ClientHello's fingerprints: JA4 (`JA4`), and JA3 as its string and MD5 hash (`JA3`).
package struct ClientHelloFingerprints: Sendable, Hashable, Codable {
    package var ja4: String
    /// The JA3 string (Wireshark's `ja3_full`).
    package var ja3Full: String
    /// The MD5 of `ja3Full` (Wireshark's `ja3`).
    package var ja3: String

    package init(ja4: String, ja3Full: String, ja3: String) {
        self.ja4 = ja4
        self.ja3Full = ja3Full
        self.ja3 = ja3
    }

    /// All three, computed once per distinct hello (`recent`).
    package init(_ hello: ClientHelloTraits) {
        self = Self.recent.output(for: hello) { hello in
            let full = JA3.string(hello)
            return Self(ja4: JA4.fingerprint(hello), ja3Full: full, ja3: JA3.hash(full))
        }
    }

    /// The fingerprints of the hellos met lately: a client repeats its offer on every connection.
    static let recent = RecentResults<ClientHelloTraits, ClientHelloFingerprints>(limit: 256)
}
