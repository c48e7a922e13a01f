/// What TunnelVision did with a flow's content. Raw values are disk/wire format.
///
/// Independent of what the server negotiated: a flow can be `encrypted` with TLS 1.3 known.
package enum TLSInspectionStatus: UInt8, Sendable, Hashable, Codable, CaseIterable {
    /// Not encrypted (plain HTTP, say).
    case plaintext = 0
    /// Encrypted and not inspected, passed through untouched; `InspectionReason` says why.
    case encrypted = 1
    /// Decrypted with the person's consent through their local CA.
    case inspected = 2
    /// The client refused the run's certificate (it pins, or trusts a store the run did not reach)
    /// or the server asks for the app's own certificate: relayed untouched, its host left alone for
    /// the rest of the run, never forced (ADR 0003).
    case notInspectable = 3
    /// An inspection attempt broke the flow after the client's leg began (`InspectionReason` says
    /// how): findable on its own, never hidden among the encrypted ones.
    case inspectionFailed = 4

    /// `plaintext`, `encrypted`, `inspected`, `notInspectable`, `inspectionFailed`: the status's
    /// stable identifier in every document and command that names it (`flows --status`, the
    /// exports, the evidence bundle).
    package var identifier: String {
        switch self {
        case .plaintext: "plaintext"
        case .encrypted: "encrypted"
        case .inspected: "inspected"
        case .notInspectable: "notInspectable"
        case .inspectionFailed: "inspectionFailed"
        }
    }
}
