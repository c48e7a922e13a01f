/// The headers every response of the web app carries, in this one place: the page may run only
/// its own scripts and styles, may not be framed, and leaks no address to anyone
/// (https://owasp.org/www-project-secure-headers/).
package enum WebSecurityHeaders {
    /// Only the app's own files: no inline script or style, no other origin, no framing.
    package static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; "
        + "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

    package static let fields: [(name: String, value: String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
    ]

    /// The path prefix of the JSON API, whose answers are never stored by the browser.
    static let apiPrefix = "/api/"

    /// `response` with the security headers set (replacing any of the same name) and, for the
    /// API or when the responder said nothing, a cache policy: the API's answers describe the
    /// history now, so never stored; the app's files are revalidated on each load.
    package static func applied(to response: HTTPResponse, path: String) -> HTTPResponse {
        var secured = response
        for (name, value) in fields { secured.headers.set(name, value) }
        if WebRouter.isAPI(path) {
            secured.headers.set("Cache-Control", "no-store")
        } else if secured.headers["Cache-Control"] == nil {
            secured.headers.set("Cache-Control", "no-cache")
        }
        return secured
    }
}
