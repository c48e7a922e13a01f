/// What TunnelVision did with a flow's content. Raw values are disk/wire format.
///
/// Independent of what the server negotiated: a flow can be `encrypted` with TLS 1.3 known.
public enum TLSInspectionStatus: UInt8, Sendable, Hashable, Codable, CaseIterable {
    /// Not encrypted (plain HTTP, say).
    case plaintext = 0
    /// Encrypted and not inspected (inspection off, or not eligible).
    case encrypted = 1
    /// Decrypted with the person's consent through their local CA.
    case inspected = 2
    /// The client refused our CA (it pins): relayed untouched, never forced (ADR 0003).
    case notInspectable = 3
}
