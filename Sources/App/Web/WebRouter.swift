/// Which responder answers a request the access check let through: the JSON API under /api/,
/// the app's own files everywhere else.
public struct WebRouter: WebResponder {
    public let api: any WebResponder
    public let site: any WebResponder

    public init(api: any WebResponder, site: any WebResponder) {
        self.api = api
        self.site = site
    }

    public static func isAPI(_ path: String) -> Bool {
        path == "/api" || path.hasPrefix(WebSecurityHeaders.apiPrefix)
    }

    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        await (Self.isAPI(request.path) ? api : site).respond(to: request)
    }
}
