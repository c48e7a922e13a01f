/// What the web API asks of the local CA (`/api/ca…`), each the `ca` command's question: the
/// actions come from a page that has asked first, so they are the confirmed ones (`--yes`).
package enum CAWebAction: Sendable, Equatable {
    case show
    case create
    /// `ca create --remake --yes`.
    case remake
    /// `ca remove --yes`.
    case remove
    /// The root certificate (never the key), as a download.
    case certificate(CAQuestion.ExportFormat)

    /// `/api/ca/root.pem` and `/api/ca/root.der`.
    static let certificateNames: [String: CAQuestion.ExportFormat] = ["root.pem": .pem, "root.der": .der]

    /// The download's name and type.
    static func download(_ format: CAQuestion.ExportFormat) -> (name: String, type: String) {
        switch format {
        case .pem: ("tunnelvision-root-ca.pem", "application/x-pem-file")
        case .der: ("tunnelvision-root-ca.der", "application/pkix-cert")
        }
    }
}
