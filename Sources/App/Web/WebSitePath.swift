/// Which file of the app's folder a request path names, decided before any file is touched:
/// `/` is `index.html`; otherwise each segment is a plain name — letters, digits, `-`, `_` and
/// dots, never `.` or `..` or a name starting with a dot — so no path can climb out of the folder
/// or reach a hidden file. (The shell still opens each segment without following symlinks.)
package struct WebSitePath: Sendable, Equatable {
    /// The segments below the site's folder, e.g. ["scripts", "app.js"].
    package let segments: [String]

    package static let index = "index.html"

    package init?(requestPath: String) {
        guard requestPath.hasPrefix("/") else { return nil }
        if requestPath == "/" {
            segments = [Self.index]
            return
        }
        let parts = requestPath.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 8, parts.allSatisfy(Self.isPlainName) else { return nil }
        segments = parts.map(String.init)
    }

    static func isPlainName(_ segment: Substring) -> Bool {
        guard let first = segment.first, first != ".", segment.utf8.count <= 255 else { return false }
        return segment.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic && scalar.isASCII || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar)
        }
    }

    /// The Content-Type of the file, by its extension; nil for a kind the app does not ship
    /// (served as nothing rather than guessed at: nosniff would block it anyway).
    package var contentType: String? {
        guard let name = segments.last, let dot = name.lastIndex(of: ".") else { return nil }
        return Self.contentTypes[name[name.index(after: dot)...].lowercased()]
    }

    static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "json": "application/json",
        "svg": "image/svg+xml",
        "png": "image/png",
        "ico": "image/x-icon",
        "woff2": "font/woff2",
        "txt": "text/plain; charset=utf-8",
        "webmanifest": "application/manifest+json",
    ]
}
