/// Which responder answers a request the access check let through: the JSON API under /api/,
/// the app's own files everywhere else.
package struct WebRouter: WebResponder {
    package let api: any WebResponder
    package let site: any WebResponder

    package init(api: any WebResponder, site: any WebResponder) {
        self.api = api
        self.site = site
    }

    package static func isAPI(_ path: String) -> Bool {
        path == "/api" || path.hasPrefix(WebSecurityHeaders.apiPrefix)
    }

    package func respond(to request: HTTPRequest) async -> HTTPResponse {
        await (Self.isAPI(request.path) ? api : site).respond(to: request)
    }
}
