/// Why a request was refused before any responder saw it: its status, and the plain sentence the
/// client is shown and the server logs.
package enum WebAccessRefusal: Sendable, Equatable {
    /// Only GET, HEAD and POST are served.
    case methodNotAllowed(String)
    /// The Host header does not name the address listened on: a page of another site reaching
    /// this port through a name that resolves to it (DNS rebinding), or a mistyped address.
    case wrongHost(String?)
    /// `/?key=` with a key this server never made (or one forgotten long ago).
    case wrongSecret
    /// `/?key=` with a key already spent: used by another browser, expired, or retired.
    case spentKey(WebLoginKey.Spent)
    /// No session cookie, or one from an earlier start.
    case noSession
    /// A state-changing request from another origin (or none said).
    case crossOrigin(String?)
    /// A state-changing request without `X-TunnelVision: 1`, which a cross-site form cannot set.
    case missingWriteHeader

    package var status: HTTPStatus {
        switch self {
        case .methodNotAllowed: .methodNotAllowed
        case .wrongHost: .misdirectedRequest
        case .wrongSecret, .spentKey, .noSession: .unauthorized
        case .crossOrigin, .missingWriteHeader: .forbidden
        }
    }

    static let openPrinted = "open the address 'tunnelvision ui' printed, or a new one from 'tunnelvision ui link' "
        + "(each opens one browser)"
    static let askAnother = "'tunnelvision ui link' prints a new address"

    package var sentence: String {
        switch self {
        case .methodNotAllowed(let method):
            "the method \(method) is not served here (GET, HEAD and POST are)"
        case .wrongHost(let host):
            "this server answers only to the address it listens on, not to Host \(host.map { "'\($0)'" } ?? "(none)"); "
                + Self.openPrinted
        case .wrongSecret:
            "the key in the address is not this server's; " + Self.openPrinted
        case .spentKey(.used):
            "the key in the address was already used: each address opens one browser; " + Self.askAnother
        case .spentKey(.expired):
            "the key in the address has expired: an address not opened within its lifetime stops working; " + Self.askAnother
        case .spentKey(.superseded):
            "the key in the address was retired unused, after many newer addresses were made; " + Self.askAnother
        case .noSession:
            "this browser has no session with this server yet; " + Self.openPrinted
        case .crossOrigin(let origin):
            "a change may only come from the app's own pages, not from \(origin.map { "'\($0)'" } ?? "a request with no Origin")"
        case .missingWriteHeader:
            "a change needs the header 'X-TunnelVision: 1', which the app's pages send"
        }
    }

    /// The answer that says so: JSON under /api/, a page elsewhere.
    package func response(path: String) -> HTTPResponse {
        var response = WebRefusalResponse.make(status, sentence, form: WebRefusalResponse.form(forPath: path))
        if case .methodNotAllowed = self { response.headers.set("Allow", WebAccess.allowedMethods.joined(separator: ", ")) }
        return response
    }
}
