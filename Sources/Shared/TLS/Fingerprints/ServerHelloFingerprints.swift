/// A ServerHello's fingerprint: JA3S as its string and MD5 hash (`JA3`). JA4S is not computed:
/// it is under the FoxIO License 1.1 (non-commercial use only), which this product cannot promise.
package struct ServerHelloFingerprints: Sendable, Hashable, Codable {
    /// The JA3S string (Wireshark's `ja3s_full`).
    package var ja3sFull: String
    /// The MD5 of `ja3sFull` (Wireshark's `ja3s`).
    package var ja3s: String

    package init(ja3sFull: String, ja3s: String) {
        self.ja3sFull = ja3sFull
        self.ja3s = ja3s
    }

    /// Both, computed once per distinct hello (`recent`).
    package init(_ hello: ServerHelloTraits) {
        self = Self.recent.output(for: hello) { hello in
            let full = JA3.string(hello)
            return Self(ja3sFull: full, ja3s: JA3.hash(full))
        }
    }

    /// The fingerprints of the answers met lately: a server answers alike on every connection.
    static let recent = RecentResults<ServerHelloTraits, ServerHelloFingerprints>(limit: 256)
}
